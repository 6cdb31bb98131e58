//! The fake toolkit's semantic vocabulary: which of a node's actions (by name) or which
//! interface does each verb, described as an AT-SPI toolkit's would be (the fake imitates one,
//! so that engine tests read like real reports).

use deskpilot_platform::model::{Capability, Node};
use deskpilot_platform::{NativeOp, NativeRoute};

const PRESS: &[&str] = &["click", "press", "activate"];
const TOGGLE: &[&str] = &["toggle", "click", "press"];
const EXPAND: &[&str] = &["expand"];
const COLLAPSE: &[&str] = &["collapse"];

/// How the fake does `op` on `node`, or why it cannot.
pub(crate) fn route(node: &Node, op: &NativeOp) -> Result<NativeRoute, String> {
    let ok = |how: String| {
        Ok(NativeRoute {
            op: op.clone(),
            how,
        })
    };
    let named = |wanted: &[&str]| {
        let name = wanted
            .iter()
            .find(|w| node.actions.iter().any(|a| a == *w))
            .ok_or_else(|| {
                format!(
                    "no {} action (it offers: {})",
                    wanted.join("/"),
                    deskpilot_platform::model::action_list(&node.actions)
                )
            })?;
        Ok(NativeRoute {
            op: NativeOp::Named((*name).to_owned()),
            how: format!("action {name:?}"),
        })
    };
    let editable = node.capabilities.contains(Capability::TakesText);
    match op {
        NativeOp::Press => named(PRESS),
        NativeOp::Toggle => named(TOGGLE),
        NativeOp::Expand => named(EXPAND),
        NativeOp::Collapse => named(COLLAPSE),
        NativeOp::Named(name) => ok(format!("action {name:?}")),
        NativeOp::DefaultAction => match &node.default_action {
            Some(name) => Ok(NativeRoute {
                op: NativeOp::Named(name.clone()),
                how: format!("action {name:?}"),
            }),
            None => Err("no action".into()),
        },
        NativeOp::SetText(_) if editable => ok("EditableText.SetTextContents".into()),
        NativeOp::SetText(_) => Err("no EditableText interface".into()),
        NativeOp::AppendText(text) if editable => {
            ok(format!("EditableText.InsertText at the end ({text})"))
        }
        NativeOp::AppendText(_) => Err("no EditableText to insert into".into()),
        NativeOp::SetNumber(n) if node.capabilities.contains(Capability::Number) => {
            ok(format!("Value.CurrentValue = {n}"))
        }
        NativeOp::SetNumber(_) => Err("no Value interface".into()),
        NativeOp::Focus => ok("Component.GrabFocus".into()),
        NativeOp::CaretToEnd => ok("Text.SetCaretOffset".into()),
        NativeOp::ScrollIntoView => ok("Component.ScrollTo".into()),
        NativeOp::Select => ok("Selection.SelectChild".into()),
        NativeOp::AddToSelection => ok("Selection.SelectChild (added)".into()),
        NativeOp::Deselect => ok("Selection.DeselectChild".into()),
        NativeOp::Choose => named(&["select", "click"]),
        NativeOp::ChooseAt(index) if node.capabilities.contains(Capability::SelectableChildren) => {
            ok(format!("Selection.SelectChild({index})"))
        }
        NativeOp::ChooseAt(_) => Err("no Selection interface".into()),
    }
}
