//! Which control pattern does a semantic operation, decided from the patterns a read found
//! (no call to the app). UIA names no actions: a default action is LegacyIAccessible's.

use deskpilot_platform::model::Node;
use deskpilot_platform::{InputText, NativeOp, NativeRoute};

use crate::raw::{Pattern, PatternSet};

/// One call on a control pattern: what `perform` does on Windows.
#[derive(Debug, Clone, PartialEq)]
pub enum PatternOp {
    Invoke,
    Toggle,
    Expand,
    Collapse,
    /// `LegacyIAccessible.DoDefaultAction`, the action by its name.
    DefaultAction(String),
    SetValue(InputText),
    SetRange(f64),
    Focus,
    CaretToEnd,
    ScrollIntoView,
    Select,
    AddToSelection,
    RemoveFromSelection,
}

impl PatternOp {
    /// The call as reports show it.
    pub fn how(&self) -> String {
        match self {
            PatternOp::Invoke => "Invoke.Invoke".into(),
            PatternOp::Toggle => "Toggle.Toggle".into(),
            PatternOp::Expand => "ExpandCollapse.Expand".into(),
            PatternOp::Collapse => "ExpandCollapse.Collapse".into(),
            PatternOp::DefaultAction(name) => format!(
                "LegacyIAccessible.DoDefaultAction ({})",
                deskpilot_platform::escape::quoted(name, 40)
            ),
            PatternOp::SetValue(_) => "Value.SetValue".into(),
            PatternOp::SetRange(n) => format!("RangeValue.SetValue({n})"),
            PatternOp::Focus => "SetFocus".into(),
            PatternOp::CaretToEnd => "Text.DocumentRange (the end).Select".into(),
            PatternOp::ScrollIntoView => "ScrollItem.ScrollIntoView".into(),
            PatternOp::Select => "SelectionItem.Select".into(),
            PatternOp::AddToSelection => "SelectionItem.AddToSelection".into(),
            PatternOp::RemoveFromSelection => "SelectionItem.RemoveFromSelection".into(),
        }
    }
}

/// The pattern call that does `op` on `node`, whose patterns a read found, or why none does.
pub fn operation(node: &Node, patterns: PatternSet, op: &NativeOp) -> Result<PatternOp, String> {
    let via = |pattern: Pattern, call: PatternOp| {
        if patterns.has(pattern) {
            Ok(call)
        } else {
            Err(format!("no {} pattern", pattern.name()))
        }
    };
    let default = || match &node.default_action {
        Some(name) if patterns.has(Pattern::LegacyIAccessible) => {
            Ok(PatternOp::DefaultAction(name.clone()))
        }
        _ => Err("no default action".to_owned()),
    };
    match op {
        NativeOp::Press if patterns.has(Pattern::Invoke) => Ok(PatternOp::Invoke),
        NativeOp::Press => default(),
        NativeOp::Toggle => via(Pattern::Toggle, PatternOp::Toggle),
        NativeOp::Expand => via(Pattern::ExpandCollapse, PatternOp::Expand),
        NativeOp::Collapse => via(Pattern::ExpandCollapse, PatternOp::Collapse),
        NativeOp::DefaultAction => default(),
        NativeOp::Named(name) if node.default_action.as_ref() == Some(name) => default(),
        NativeOp::Named(_) => Err("UI Automation names no action but the default one".into()),
        NativeOp::SetText(text) => via(Pattern::Value, PatternOp::SetValue(text.clone())),
        NativeOp::AppendText(_) => Err("UI Automation has no call that inserts text".into()),
        NativeOp::SetNumber(n) => via(Pattern::RangeValue, PatternOp::SetRange(*n)),
        NativeOp::Focus => Ok(PatternOp::Focus),
        NativeOp::CaretToEnd => via(Pattern::Text, PatternOp::CaretToEnd),
        NativeOp::ScrollIntoView => via(Pattern::ScrollItem, PatternOp::ScrollIntoView),
        NativeOp::Select | NativeOp::Choose => via(Pattern::SelectionItem, PatternOp::Select),
        NativeOp::AddToSelection => via(Pattern::SelectionItem, PatternOp::AddToSelection),
        NativeOp::Deselect => via(Pattern::SelectionItem, PatternOp::RemoveFromSelection),
        NativeOp::ChooseAt(_) => {
            Err("UI Automation selects an option through the option's own pattern".into())
        }
    }
}

/// How `op` is done on `node`, whose patterns a read found, or why it cannot be.
pub fn route(node: &Node, patterns: PatternSet, op: &NativeOp) -> Result<NativeRoute, String> {
    let call = operation(node, patterns, op)?;
    Ok(NativeRoute {
        op: match call {
            PatternOp::DefaultAction(_) => NativeOp::DefaultAction,
            _ => op.clone(),
        },
        how: call.how(),
    })
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
