//! The UI Automation flavour: the same fake apps in UIA's vocabulary. Elements offer
//! control patterns, never named actions; a default action stands in for LegacyIAccessible's;
//! routes read as UIA calls. The engine's tests run on both flavours, so that nothing in core
//! leans on AT-SPI's words.

use std::sync::Mutex;

use deskpilot_platform::model::{Capability, ElementId, Node, NodeValue, Role, State, Tree};
use deskpilot_platform::{NativeOp, NativeRoute, ValueAdmission};

use crate::FakeNode;

/// Which platform a fake imitates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Flavour {
    /// AT-SPI: named actions, interfaces, AT-SPI's route texts.
    #[default]
    AtSpi,
    /// UI Automation: control patterns, a default action, UIA's route texts.
    Uia,
}

/// Rewrites a parsed AT-SPI-flavoured subtree into UIA's vocabulary: actions become patterns
/// (`Invoke`, `Toggle`, `ExpandCollapse`, `SelectionItem`) and a default action; capabilities
/// stay (they are neutral); the platform's names become the patterns.
pub(crate) fn translate(fake: &mut FakeNode) {
    let node = &mut fake.node;
    let (mut patterns, default) = action_patterns(node);
    node.actions.clear();
    node.default_action = default.map(str::to_owned);
    let add = |patterns: &mut Vec<&'static str>, p| {
        if !patterns.contains(&p) {
            patterns.push(p);
        }
    };
    let caps = node.capabilities;
    if caps.contains(Capability::TakesText) {
        add(&mut patterns, "Value");
    }
    if caps.contains(Capability::Text) {
        add(&mut patterns, "Text");
    }
    if caps.contains(Capability::Number) {
        add(&mut patterns, "RangeValue");
    }
    if caps.contains(Capability::SelectableChildren) {
        add(&mut patterns, "Selection");
    }
    if caps.contains(Capability::Table) {
        add(&mut patterns, "Grid");
        add(&mut patterns, "Table");
    }
    if caps.contains(Capability::TableCell) {
        add(&mut patterns, "GridItem");
    }
    if node.states.is(State::Selectable) {
        add(&mut patterns, "SelectionItem");
    }
    add(&mut patterns, "ScrollItem");
    node.platform_interfaces = patterns.iter().map(|p| (*p).to_owned()).collect();
    for child in &mut fake.children {
        translate(child);
    }
}

/// The control patterns a node's AT-SPI actions become, in order and once each, and
/// LegacyIAccessible's name for the first one's action (the default action).
pub fn action_patterns(node: &Node) -> (Vec<&'static str>, Option<&'static str>) {
    let toggles = matches!(
        node.role,
        Role::Checkbox | Role::ToggleButton | Role::Switch | Role::MenuItemCheckbox
    );
    let mut patterns: Vec<&'static str> = Vec::new();
    for action in &node.actions {
        let pattern = match action.as_str() {
            "expand" | "collapse" => "ExpandCollapse",
            "select" => "SelectionItem",
            "toggle" => "Toggle",
            _ if toggles => "Toggle",
            _ => "Invoke",
        };
        if !patterns.contains(&pattern) {
            patterns.push(pattern);
        }
    }
    let default = patterns.first().map(|p| legacy_default(p));
    (patterns, default)
}

/// LegacyIAccessible's name for a pattern's default action.
fn legacy_default(pattern: &str) -> &'static str {
    match pattern {
        "Toggle" => "Check",
        "ExpandCollapse" => "Expand",
        "SelectionItem" => "Select",
        _ => "Press",
    }
}

fn has(node: &Node, pattern: &str) -> bool {
    node.platform_interfaces.iter().any(|p| p == pattern)
}

/// How the UIA-flavoured fake does `op` on `node`, or why it cannot.
pub(crate) fn route(node: &Node, op: &NativeOp) -> Result<NativeRoute, String> {
    let via = |pattern: &str, how: String| {
        if has(node, pattern) {
            Ok(NativeRoute {
                op: op.clone(),
                how,
            })
        } else {
            Err(format!("no {pattern} pattern"))
        }
    };
    let call = |how: &str| {
        Ok(NativeRoute {
            op: op.clone(),
            how: how.to_owned(),
        })
    };
    let default = || match &node.default_action {
        Some(name) => Ok(NativeRoute {
            op: NativeOp::DefaultAction,
            how: format!("LegacyIAccessible.DoDefaultAction ({name:?})"),
        }),
        None => Err("no default action".to_owned()),
    };
    match op {
        NativeOp::Press if has(node, "Invoke") => call("Invoke.Invoke"),
        NativeOp::Press => default(),
        NativeOp::Toggle => via("Toggle", "Toggle.Toggle".into()),
        NativeOp::Expand => via("ExpandCollapse", "ExpandCollapse.Expand".into()),
        NativeOp::Collapse => via("ExpandCollapse", "ExpandCollapse.Collapse".into()),
        NativeOp::DefaultAction => default(),
        NativeOp::Named(name) if node.default_action.as_ref() == Some(name) => default(),
        NativeOp::Named(_) => Err("UI Automation runs only the default action".into()),
        NativeOp::SetText(_) => via("Value", "Value.SetValue".into()),
        NativeOp::AppendText(_) => Err("UI Automation inserts no text at the end".into()),
        NativeOp::SetNumber(n) => via("RangeValue", format!("RangeValue.SetValue({n})")),
        NativeOp::Focus => call("SetFocus"),
        NativeOp::CaretToEnd => via("Text", "TextRange.Select (the end)".into()),
        NativeOp::ScrollIntoView => via("ScrollItem", "ScrollItem.ScrollIntoView".into()),
        NativeOp::Select | NativeOp::Choose => via("SelectionItem", "SelectionItem.Select".into()),
        NativeOp::AddToSelection => via("SelectionItem", "SelectionItem.AddToSelection".into()),
        NativeOp::Deselect => via("SelectionItem", "SelectionItem.RemoveFromSelection".into()),
        NativeOp::ChooseAt(_) => {
            Err("UI Automation selects an option through its own SelectionItem".into())
        }
    }
}

/// The second pass of a bulk read (UIA fetches values with everything else unless told not
/// to): values only where the first pass admits them, each fetch logged in `requests`; a
/// secret's value is never fetched, not even its length.
pub(crate) fn admit_values(
    tree: &mut Tree,
    root_inside_secret: bool,
    requests: &Mutex<Vec<ElementId>>,
) {
    let parents: Vec<Option<usize>> = tree.nodes.iter().map(|n| n.parent).collect();
    let password: Vec<bool> = tree
        .nodes
        .iter()
        .map(|n| n.node.role == Role::Password)
        .collect();
    let admission = ValueAdmission::decide(&parents, &password, root_inside_secret);
    for (i, tn) in tree.nodes.iter_mut().enumerate() {
        admit_value(&mut tn.node, admission.admits(i), requests);
    }
}

/// One element's value, fetched when `admitted`, else never asked for.
pub(crate) fn admit_value(node: &mut Node, admitted: bool, requests: &Mutex<Vec<ElementId>>) {
    match (&node.value, admitted) {
        (None, _) => {}
        (Some(_), true) => requests.lock().unwrap().push(node.id.clone()),
        (Some(_), false) => node.value = Some(NodeValue::Redacted { chars: None }),
    }
}
