//! What an action reports: the route taken, the rungs skipped and why, the effect seen.

use serde::Serialize;

/// A rung of the route ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rung {
    /// The app's own semantics (AT-SPI Action, Value, EditableText, Selection, Component).
    Semantic,
    /// Focus the element, then synthetic keys.
    Keyboard,
    /// Synthetic pointer input at the element's live bounds.
    Pointer,
    /// A request to the window manager (EWMH).
    WindowManager,
}

/// What was seen after the action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// A postcondition was read back (state, value, text, a window, focus).
    Confirmed,
    /// No cheap postcondition exists and nothing visible changed: the action was sent, its
    /// effect is not known.
    Unverified,
    /// Read back after the tree settled: nothing changed.
    Noop,
}

/// How the action was done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Route {
    pub rung: Rung,
    /// What exactly was sent, e.g. `action "click"`, `EditableText.SetTextContents`,
    /// `focus + keys "space"`, `pointer left click at (120, 48)`.
    pub how: String,
}

/// A rung not taken (or taken without effect), and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub rung: Rung,
    pub why: String,
}

/// The result of an action that was carried out (refusals and total no-ops are failures).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionReport {
    pub verb: &'static str,
    #[serde(rename = "ref")]
    pub reference: String,
    /// The rung that did it; none when nothing had to be done (`ensure` already held).
    pub route: Option<Route>,
    pub skipped: Vec<Skipped>,
    pub effect: Effect,
    /// What changed, one line each: `checked: off -> on`, `window opened: dialog "Confirm"`.
    pub changes: Vec<String>,
    /// The same changes as types, for a face that keeps what an action earned (a
    /// recording's evidence); not on the wire, whose `changes` say it.
    #[serde(skip)]
    pub observed: Vec<crate::act::Change>,
    /// Whether the active window changed (None: the window system could not tell).
    pub foreground_changed: Option<bool>,
    /// Anything else worth saying (e.g. `already on: nothing to do`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// What changed in the session's tree since it last saw it (none when it saw none yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<crate::live::TreeUpdate>,
    /// Whether it raised a window or moved the pointer.
    pub interaction: super::Interaction,
}

pub fn rung_name(rung: Rung) -> &'static str {
    match rung {
        Rung::Semantic => "semantic",
        Rung::Keyboard => "keyboard",
        Rung::Pointer => "pointer",
        Rung::WindowManager => "window_manager",
    }
}

pub fn effect_name(effect: Effect) -> &'static str {
    match effect {
        Effect::Confirmed => "confirmed",
        Effect::Unverified => "unverified",
        Effect::Noop => "noop",
    }
}

/// An action's `result` with what it did beside its element (`seen`): a report carries it, a
/// failure says it in its message.
pub(crate) fn with_interaction(
    result: crate::error::Result<ActionReport>,
    seen: super::Interaction,
) -> crate::error::Result<ActionReport> {
    match result {
        Ok(mut report) => {
            report.interaction = seen;
            Ok(report)
        }
        // A failure says it too, in its message (a failure's fields are every tool's).
        Err(mut error) => {
            let did = match (seen.raised_window, seen.pointer_moved) {
                (true, true) => "; deskpilot raised the window and moved the pointer meanwhile",
                (true, false) => "; deskpilot raised the window meanwhile",
                (false, true) => "; deskpilot moved the pointer meanwhile",
                (false, false) => "",
            };
            error.message.push_str(did);
            Err(error)
        }
    }
}
