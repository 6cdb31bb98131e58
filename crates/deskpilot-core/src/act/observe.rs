//! Before and after: what the ladder reads back to judge an action's effect.

use crate::model::{Node, NodeValue, Role, State};

/// What is read around an action: the target afresh, the app's windows, the active window.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// The target as read now; `None` when it is gone (a closed dialog's button).
    pub target: Option<Node>,
    /// The app's top-level windows: (role, title, minimized).
    pub windows: Vec<(Role, String, Option<bool>)>,
    /// The active window's window-system id, when known.
    pub active: Option<u32>,
    /// For a menu: how many of its items are showing (it is open when some are).
    pub showing_items: Option<usize>,
}

/// States whose change is worth reporting.
const WATCHED: &[State] = &[
    State::Checked,
    State::Pressed,
    State::Mixed,
    State::Selected,
    State::Expanded,
    State::Focused,
    State::Enabled,
    State::Showing,
];

fn on_off(value: Option<bool>) -> &'static str {
    match value {
        Some(true) => "on",
        Some(false) => "off",
        None => "unknown",
    }
}

/// The value as a reader sees it (a secret shows only its length).
pub fn value_text(node: &Node) -> Option<String> {
    match &node.value {
        Some(NodeValue::Text { text }) => Some(format!("{text:?}")),
        Some(NodeValue::Number { current, .. }) => Some(format!("{current}")),
        Some(NodeValue::Redacted { chars: Some(n) }) => Some(format!("{n} hidden characters")),
        Some(NodeValue::Redacted { chars: None }) => Some("hidden".into()),
        None => None,
    }
}

/// One line per difference between two observations.
pub fn changes(before: &Observation, after: &Observation) -> Vec<String> {
    let mut out = Vec::new();
    match (&before.target, &after.target) {
        (Some(b), Some(a)) => {
            for &state in WATCHED {
                let (was, now) = (b.states.get(state), a.states.get(state));
                if was != now && now.is_some() {
                    out.push(format!("{state}: {} -> {}", on_off(was), on_off(now)));
                }
            }
            let (was, now) = (value_text(b), value_text(a));
            if was != now {
                out.push(format!(
                    "value: {} -> {}",
                    was.unwrap_or_else(|| "none".into()),
                    now.unwrap_or_else(|| "none".into())
                ));
            }
            if b.name != a.name {
                out.push(format!("name: {:?} -> {:?}", b.name, a.name));
            }
        }
        (Some(_), None) => out.push("the element is gone".into()),
        _ => {}
    }
    for window in &after.windows {
        if !before
            .windows
            .iter()
            .any(|w| w.0 == window.0 && w.1 == window.1)
        {
            out.push(format!("window opened: {} {:?}", window.0, window.1));
        }
    }
    for window in &before.windows {
        if !after
            .windows
            .iter()
            .any(|w| w.0 == window.0 && w.1 == window.1)
        {
            out.push(format!("window closed: {} {:?}", window.0, window.1));
        }
    }
    for window in &after.windows {
        if let Some(previous) = before
            .windows
            .iter()
            .find(|w| w.0 == window.0 && w.1 == window.1)
            && previous.2 != window.2
            && window.2.is_some()
        {
            out.push(format!(
                "window {:?} minimized: {} -> {}",
                window.1,
                on_off(previous.2),
                on_off(window.2)
            ));
        }
    }
    match (before.showing_items, after.showing_items) {
        (Some(0), Some(n)) if n > 0 => out.push(format!("menu opened ({n} items showing)")),
        (Some(n), Some(0)) if n > 0 => out.push("menu closed".into()),
        _ => {}
    }
    out
}

/// Whether the active window changed; `None` when either side is unknown.
pub fn foreground_changed(before: &Observation, after: &Observation) -> Option<bool> {
    match (before.active, after.active) {
        (Some(b), Some(a)) => Some(b != a),
        _ => None,
    }
}
