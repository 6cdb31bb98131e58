//! The semantic verbs on AT-SPI: which toolkit action (by name, never by index) or interface
//! call does each, and how reports name it. Pure: decided from the node as read.

use deskpilot_platform::model::{Capability, Node};
use deskpilot_platform::{NativeOp, NativeRoute};

/// Action names that mean "click" in some toolkit (GTK "click", Qt "Press", LibreOffice
/// "press", Gecko "jump"/"open"/"activate"), in order of preference.
const PRESS_NAMES: &[&str] = &["click", "press", "activate", "jump", "open", "toggle"];
const TOGGLE_NAMES: &[&str] = &["toggle", "click", "press", "activate"];
/// Qt names opening a combo box's list "ShowMenu".
const EXPAND_NAMES: &[&str] = &["expand", "expand or contract", "open", "showmenu"];
const COLLAPSE_NAMES: &[&str] = &["collapse", "expand or contract"];
/// An option's own action that chooses it (Gecko and Chromium "select", a GTK 3 menu item's
/// "click").
const CHOOSE_NAMES: &[&str] = &["select", "click", "press", "activate"];

/// The first of `wanted` that the element offers (case-insensitive), as the element names it.
pub fn pick_action(node: &Node, wanted: &[&str]) -> Option<String> {
    wanted.iter().find_map(|w| {
        node.actions
            .iter()
            .find(|a| a.eq_ignore_ascii_case(w))
            .cloned()
    })
}

/// How `op` is done on `node` over AT-SPI, or why it cannot be.
pub fn route(node: &Node, op: &NativeOp) -> Result<NativeRoute, String> {
    let named = |wanted: &[&str]| match pick_action(node, wanted) {
        Some(name) => Ok(action(name)),
        None => Err(format!(
            "no {} action (it offers: {})",
            wanted.join("/"),
            deskpilot_platform::model::action_list(&node.actions)
        )),
    };
    let editable = |how: String, why: &str| {
        if node.capabilities.contains(Capability::TakesText) {
            Ok(NativeRoute {
                op: op.clone(),
                how,
            })
        } else {
            Err(why.to_owned())
        }
    };
    let call = |how: &str| {
        Ok(NativeRoute {
            op: op.clone(),
            how: how.to_owned(),
        })
    };
    match op {
        NativeOp::Press => named(PRESS_NAMES),
        NativeOp::Toggle => named(TOGGLE_NAMES),
        NativeOp::Expand => named(EXPAND_NAMES),
        NativeOp::Collapse => named(COLLAPSE_NAMES),
        NativeOp::Choose => named(CHOOSE_NAMES),
        // The action is checked against what the element offers before the ladder starts.
        NativeOp::Named(name) => Ok(action(name.clone())),
        NativeOp::DefaultAction => match &node.default_action {
            Some(name) => Ok(action(name.clone())),
            None => Err("no action".into()),
        },
        NativeOp::SetText(_) => editable(
            "EditableText.SetTextContents".into(),
            "no EditableText interface",
        ),
        NativeOp::AppendText(text) => editable(
            format!("EditableText.InsertText at the end ({text})"),
            "no EditableText to insert into",
        ),
        NativeOp::SetNumber(n) => {
            if node.capabilities.contains(Capability::Number) {
                call(&format!("Value.CurrentValue = {n}"))
            } else {
                Err("no Value interface".into())
            }
        }
        NativeOp::Focus => call("Component.GrabFocus"),
        NativeOp::CaretToEnd => call("Text.SetCaretOffset"),
        NativeOp::ScrollIntoView => call("Component.ScrollTo"),
        NativeOp::Select => call("Selection.SelectChild"),
        NativeOp::AddToSelection => call("Selection.SelectChild (added)"),
        NativeOp::Deselect => call("Selection.DeselectChild"),
        NativeOp::ChooseAt(index) => {
            if node.capabilities.contains(Capability::SelectableChildren) {
                call(&format!("Selection.SelectChild({index})"))
            } else {
                Err("no Selection interface".into())
            }
        }
    }
}

/// The names a verb may go by, for a verb sent without a route (looked up on the live
/// element).
pub fn names_of(op: &NativeOp) -> &'static [&'static str] {
    match op {
        NativeOp::Press => PRESS_NAMES,
        NativeOp::Toggle => TOGGLE_NAMES,
        NativeOp::Expand => EXPAND_NAMES,
        NativeOp::Collapse => COLLAPSE_NAMES,
        NativeOp::Choose => CHOOSE_NAMES,
        _ => &[],
    }
}

fn action(name: String) -> NativeRoute {
    NativeRoute {
        how: format!("action {name:?}"),
        op: NativeOp::Named(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskpilot_platform::model::{ElementId, Role};

    fn node(actions: &[&str]) -> Node {
        let mut n = Node::new(ElementId::new(":1.1", "/x"), Role::Button);
        n.actions = actions.iter().map(|s| s.to_string()).collect();
        n
    }

    #[test]
    fn actions_are_picked_by_name_never_by_index() {
        let n = node(&["activate", "click"]);
        assert_eq!(
            route(&n, &NativeOp::Press),
            Ok(NativeRoute {
                op: NativeOp::Named("click".into()),
                how: "action \"click\"".into()
            })
        );
        let n = node(&["customize"]);
        let why = route(&n, &NativeOp::Press).unwrap_err();
        assert!(why.contains("it offers: customize"), "{why}");
        assert_eq!(
            route(&node(&["Press"]), &NativeOp::Press).map(|r| r.op),
            Ok(NativeOp::Named("Press".into()))
        );
    }

    #[test]
    fn text_and_values_need_their_interfaces() {
        let mut n = node(&[]);
        assert!(route(&n, &NativeOp::SetText("x".into())).is_err());
        assert!(route(&n, &NativeOp::SetNumber(1.0)).is_err());
        n.capabilities = [Capability::TakesText, Capability::Number]
            .into_iter()
            .collect();
        assert_eq!(
            route(&n, &NativeOp::SetText("x".into())).unwrap().how,
            "EditableText.SetTextContents"
        );
        assert_eq!(
            route(&n, &NativeOp::SetNumber(2.0)).unwrap().how,
            "Value.CurrentValue = 2"
        );
    }
}
