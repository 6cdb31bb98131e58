//! Applications and their top-level windows.

use serde::Serialize;

use crate::model::{ElementId, Rect, Role, State, StateSet};

/// One application registered with the accessibility system.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AppInfo {
    /// The application's root element.
    pub id: ElementId,
    pub name: String,
    pub pid: Option<u32>,
    /// Toolkit name (`GTK`, `Qt`, `Gecko`, ...), as the app reports it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toolkit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toolkit_version: Option<String>,
    pub windows: Vec<WindowInfo>,
    /// False when the app did not answer in time (frozen, or busy in a modal loop): what is
    /// shown of it is what could be read without its help.
    pub responding: bool,
}

/// A top-level window (frame, dialog, ...) of an application.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WindowInfo {
    pub id: ElementId,
    pub role: Role,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Rect>,
    #[serde(skip)]
    pub states: StateSet,
    /// The X11 window id, when the window system could map the window to one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x11_window: Option<u32>,
    /// The X11 window this one is transient for (a dialog's owner), when known.
    #[serde(skip)]
    pub transient_for: Option<u32>,
}

impl WindowInfo {
    pub fn is_active(&self) -> Option<bool> {
        self.states.get(State::Active)
    }

    pub fn is_minimized(&self) -> Option<bool> {
        self.states.get(State::Minimized)
    }
}
