//! Before and after: what the ladder reads back to judge an action's effect.

use crate::escape::quoted;
use crate::model::{ElementId, Node, NodeValue, Role, State};

/// One of the app's top-level windows as observed.
#[derive(Debug, Clone, PartialEq)]
pub struct ObservedWindow {
    pub id: ElementId,
    pub role: Role,
    pub title: String,
    pub minimized: Option<bool>,
}

/// What is read around an action: the target afresh, the app's windows, the active window.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// The target as read now; `None` when it is gone (a closed dialog's button).
    pub target: Option<Node>,
    /// The app's top-level windows.
    pub windows: Vec<ObservedWindow>,
    /// The active window's window-system id, when known.
    pub active: Option<crate::app::WindowId>,
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
        Some(NodeValue::Text { text }) => Some(quoted(text, 200)),
        Some(NodeValue::Number { current, .. }) => Some(format!("{current}")),
        Some(NodeValue::Redacted { chars: Some(n) }) => Some(format!("{n} hidden characters")),
        Some(NodeValue::Redacted { chars: None }) => Some("hidden".into()),
        None => None,
    }
}

/// One line per difference between two observations.
pub fn changes(before: &Observation, after: &Observation) -> Vec<String> {
    changes_with_refs(before, after, &|_| None)
}

/// Like [`changes`], a window that opened shown with the ref `ref_of` gives it.
pub fn changes_with_refs(
    before: &Observation,
    after: &Observation,
    ref_of: &dyn Fn(&ObservedWindow) -> Option<String>,
) -> Vec<String> {
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
                out.push(format!(
                    "name: {} -> {}",
                    quoted(&b.name, 100),
                    quoted(&a.name, 100)
                ));
            }
        }
        (Some(_), None) => out.push("the element is gone".into()),
        _ => {}
    }
    // Windows are told apart by identity, not title: a renamed window is one window.
    for window in &after.windows {
        match before.windows.iter().find(|w| w.id == window.id) {
            None => out.push(format!(
                "window opened: {} {}{}",
                window.role,
                quoted(&window.title, 100),
                ref_of(window)
                    .map(|r| format!(" [ref={r}]"))
                    .unwrap_or_default()
            )),
            Some(previous) => {
                if previous.title != window.title {
                    out.push(format!(
                        "window renamed: {} {} -> {}",
                        window.role,
                        quoted(&previous.title, 100),
                        quoted(&window.title, 100)
                    ));
                }
                if previous.minimized != window.minimized && window.minimized.is_some() {
                    out.push(format!(
                        "window {} minimized: {} -> {}",
                        quoted(&window.title, 100),
                        on_off(previous.minimized),
                        on_off(window.minimized)
                    ));
                }
            }
        }
    }
    for window in &before.windows {
        if !after.windows.iter().any(|w| w.id == window.id) {
            out.push(format!(
                "window closed: {} {}",
                window.role,
                quoted(&window.title, 100)
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
