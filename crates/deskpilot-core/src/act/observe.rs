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
    /// For a combo box: the option it shows.
    pub shown: Option<String>,
    /// Other elements of the target's window whose new text or name the app announced since
    /// the action began, each as read back and agreeing with what was announced.
    pub announced: Vec<Announced>,
}

/// An element whose new text or name the app announced, as read back (a calculator's
/// display, a status line).
#[derive(Debug, Clone, PartialEq)]
pub struct Announced {
    pub id: ElementId,
    pub role: Role,
    /// Its text (or name, for an element without text) as read back.
    pub shows: String,
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

/// One difference between two observations, as the policy weighs it.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// A watched state of the target.
    State {
        state: State,
        was: Option<bool>,
        now: Option<bool>,
    },
    /// The target's value, as a reader sees it, and as it is now.
    Value {
        was: Option<String>,
        now: Option<String>,
        value: Option<crate::model::NodeValue>,
    },
    Name {
        was: String,
        now: String,
    },
    /// The target is gone (a closed dialog's button).
    Gone,
    WindowOpened(ObservedWindow),
    WindowRenamed {
        window: ObservedWindow,
        was: String,
    },
    WindowMinimized {
        window: ObservedWindow,
        was: Option<bool>,
    },
    WindowClosed(ObservedWindow),
    /// A menu's items showed (this many).
    MenuOpened(usize),
    MenuClosed,
    /// A combo box shows another option.
    Shown {
        was: Option<String>,
        now: Option<String>,
    },
    /// Another element of the window shows a new text, as the app announced.
    Announced(Announced),
}

impl Change {
    /// Whether the change is the target's own (a state, its value or name), not its
    /// disappearance or a window's.
    pub fn on_target(&self) -> bool {
        matches!(
            self,
            Change::State { .. }
                | Change::Value { .. }
                | Change::Name { .. }
                | Change::Shown { .. }
        )
    }

    /// The change as one report line; a window that opened shows the ref `ref_of` gives it.
    pub fn line(&self, ref_of: &dyn Fn(&ObservedWindow) -> Option<String>) -> String {
        match self {
            Change::State { state, was, now } => {
                format!("{state}: {} -> {}", on_off(*was), on_off(*now))
            }
            Change::Value { was, now, .. } => format!(
                "value: {} -> {}",
                was.as_deref().unwrap_or("none"),
                now.as_deref().unwrap_or("none")
            ),
            Change::Name { was, now } => {
                format!("name: {} -> {}", quoted(was, 100), quoted(now, 100))
            }
            Change::Gone => "the element is gone".into(),
            Change::WindowOpened(window) => format!(
                "window opened: {} {}{}",
                window.role,
                quoted(&window.title, 100),
                ref_of(window)
                    .map(|r| format!(" [ref={r}]"))
                    .unwrap_or_default()
            ),
            Change::WindowRenamed { window, was } => format!(
                "window renamed: {} {} -> {}",
                window.role,
                quoted(was, 100),
                quoted(&window.title, 100)
            ),
            Change::WindowMinimized { window, was } => format!(
                "window {} minimized: {} -> {}",
                quoted(&window.title, 100),
                on_off(*was),
                on_off(window.minimized)
            ),
            Change::WindowClosed(window) => format!(
                "window closed: {} {}",
                window.role,
                quoted(&window.title, 100)
            ),
            Change::MenuOpened(n) => format!("menu opened ({n} items showing)"),
            Change::MenuClosed => "menu closed".into(),
            Change::Shown { was, now } => {
                let shown = |o: &Option<String>| {
                    o.as_deref()
                        .map_or_else(|| "none".to_owned(), |s| quoted(s, 100))
                };
                format!("shows: {} -> {}", shown(was), shown(now))
            }
            Change::Announced(element) => format!(
                "{} now shows {} (announced by the app)",
                element.role,
                quoted(&element.shows, 100)
            ),
        }
    }
}

/// Every difference between two observations.
pub fn changes(before: &Observation, after: &Observation) -> Vec<Change> {
    let mut out = Vec::new();
    match (&before.target, &after.target) {
        (Some(b), Some(a)) => {
            for &state in WATCHED {
                let (was, now) = (b.states.get(state), a.states.get(state));
                if was != now && now.is_some() {
                    out.push(Change::State { state, was, now });
                }
            }
            let (was, now) = (value_text(b), value_text(a));
            if was != now {
                out.push(Change::Value {
                    was,
                    now,
                    value: a.value.clone(),
                });
            }
            if b.name != a.name {
                out.push(Change::Name {
                    was: b.name.clone(),
                    now: a.name.clone(),
                });
            }
        }
        (Some(_), None) => out.push(Change::Gone),
        _ => {}
    }
    // Windows are told apart by identity, not title: a renamed window is one window.
    for window in &after.windows {
        match before.windows.iter().find(|w| w.id == window.id) {
            None => out.push(Change::WindowOpened(window.clone())),
            Some(previous) => {
                if previous.title != window.title {
                    out.push(Change::WindowRenamed {
                        window: window.clone(),
                        was: previous.title.clone(),
                    });
                }
                if previous.minimized != window.minimized && window.minimized.is_some() {
                    out.push(Change::WindowMinimized {
                        window: window.clone(),
                        was: previous.minimized,
                    });
                }
            }
        }
    }
    for window in &before.windows {
        if !after.windows.iter().any(|w| w.id == window.id) {
            out.push(Change::WindowClosed(window.clone()));
        }
    }
    match (before.showing_items, after.showing_items) {
        (Some(0), Some(n)) if n > 0 => out.push(Change::MenuOpened(n)),
        (Some(n), Some(0)) if n > 0 => out.push(Change::MenuClosed),
        _ => {}
    }
    if before.shown != after.shown && after.shown.is_some() {
        out.push(Change::Shown {
            was: before.shown.clone(),
            now: after.shown.clone(),
        });
    }
    for element in &after.announced {
        if !before.announced.contains(element) {
            out.push(Change::Announced(element.clone()));
        }
    }
    out
}

/// One line per difference between two observations.
pub fn change_lines(before: &Observation, after: &Observation) -> Vec<String> {
    changes_with_refs(before, after, &|_| None)
}

/// Like [`change_lines`], a window that opened shown with the ref `ref_of` gives it.
pub fn changes_with_refs(
    before: &Observation,
    after: &Observation,
    ref_of: &dyn Fn(&ObservedWindow) -> Option<String>,
) -> Vec<String> {
    changes(before, after)
        .iter()
        .map(|change| change.line(ref_of))
        .collect()
}

/// Whether the active window changed; `None` when either side is unknown.
pub fn foreground_changed(before: &Observation, after: &Observation) -> Option<bool> {
    match (before.active, after.active) {
        (Some(b), Some(a)) => Some(b != a),
        _ => None,
    }
}
