//! Which control pattern does a semantic operation, decided from the patterns a read found
//! (no call to the app). UIA names no actions: a default action is LegacyIAccessible's.

use deskpilot_platform::model::Node;
use deskpilot_platform::{NativeOp, NativeRoute};

use crate::raw::{Pattern, PatternSet};

/// How `op` is done on `node`, whose patterns a read found, or why it cannot be.
pub fn route(node: &Node, patterns: PatternSet, op: &NativeOp) -> Result<NativeRoute, String> {
    let with = |how: String| {
        Ok(NativeRoute {
            op: op.clone(),
            how,
        })
    };
    let via = |pattern: Pattern, call: &str| {
        if patterns.has(pattern) {
            with(format!("{}.{call}", pattern.name()))
        } else {
            Err(format!("no {} pattern", pattern.name()))
        }
    };
    let default = || match &node.default_action {
        Some(name) if patterns.has(Pattern::LegacyIAccessible) => Ok(NativeRoute {
            op: NativeOp::DefaultAction,
            how: format!(
                "LegacyIAccessible.DoDefaultAction ({})",
                deskpilot_platform::escape::quoted(name, 40)
            ),
        }),
        _ => Err("no default action".to_owned()),
    };
    match op {
        NativeOp::Press if patterns.has(Pattern::Invoke) => via(Pattern::Invoke, "Invoke"),
        NativeOp::Press => default(),
        NativeOp::Toggle => via(Pattern::Toggle, "Toggle"),
        NativeOp::Expand => via(Pattern::ExpandCollapse, "Expand"),
        NativeOp::Collapse => via(Pattern::ExpandCollapse, "Collapse"),
        NativeOp::DefaultAction => default(),
        NativeOp::Named(name) if node.default_action.as_ref() == Some(name) => default(),
        NativeOp::Named(_) => Err("UI Automation names no action but the default one".into()),
        NativeOp::SetText(_) => via(Pattern::Value, "SetValue"),
        NativeOp::AppendText(_) => Err("UI Automation has no call that inserts text".into()),
        NativeOp::SetNumber(n) => via(Pattern::RangeValue, &format!("SetValue({n})")),
        NativeOp::Focus => with("SetFocus".into()),
        NativeOp::CaretToEnd => via(Pattern::Text, "DocumentRange (the end).Select"),
        NativeOp::ScrollIntoView => via(Pattern::ScrollItem, "ScrollIntoView"),
        NativeOp::Select | NativeOp::Choose => via(Pattern::SelectionItem, "Select"),
        NativeOp::AddToSelection => via(Pattern::SelectionItem, "AddToSelection"),
        NativeOp::Deselect => via(Pattern::SelectionItem, "RemoveFromSelection"),
        NativeOp::ChooseAt(_) => {
            Err("UI Automation selects an option through the option's own pattern".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskpilot_platform::model::{ElementId, Role};

    fn button() -> Node {
        Node::new(ElementId::new("w:1:2", "2a.7"), Role::Button)
    }

    /// Press goes through Invoke, else the default action; what has no pattern says which.
    #[test]
    fn routes_follow_the_patterns_a_read_found() {
        let invoke: PatternSet = [Pattern::Invoke].into_iter().collect();
        let how = |node: &Node, patterns, op| route(node, patterns, &op).map(|r| r.how);
        assert_eq!(
            how(&button(), invoke, NativeOp::Press),
            Ok("Invoke.Invoke".into())
        );
        let mut legacy = button();
        legacy.default_action = Some("Press".into());
        let only_legacy: PatternSet = [Pattern::LegacyIAccessible].into_iter().collect();
        let pressed = route(&legacy, only_legacy, &NativeOp::Press).unwrap();
        assert_eq!(pressed.op, NativeOp::DefaultAction);
        assert_eq!(pressed.how, "LegacyIAccessible.DoDefaultAction (\"Press\")");
        assert_eq!(
            how(&button(), invoke, NativeOp::Toggle),
            Err("no Toggle pattern".into())
        );
        assert!(how(&button(), invoke, NativeOp::Named("click".into())).is_err());
        assert!(how(&button(), invoke, NativeOp::ChooseAt(1)).is_err());
    }
}
