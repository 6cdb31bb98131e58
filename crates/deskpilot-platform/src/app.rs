//! Applications and their top-level windows.

use serde::Serialize;

use crate::model::{ElementId, Rect, Role, State, StateSet};

/// A top-level window as the display's window system names it. Opaque to core: only the
/// platform that issued it reads the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct WindowId(pub u64);

impl std::fmt::Display for WindowId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

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
    /// The window system's id of the window, when it could be matched to one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_id: Option<WindowId>,
    /// The window this one is transient for (a dialog's owner), when known.
    #[serde(skip)]
    pub transient_for: Option<WindowId>,
}

impl WindowInfo {
    pub fn is_active(&self) -> Option<bool> {
        self.states.get(State::Active)
    }

    pub fn is_minimized(&self) -> Option<bool> {
        self.states.get(State::Minimized)
    }
}

/// Which window a snapshot shows in full.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowPick {
    /// A ref naming a window.
    Ref(String),
    /// A window title (exact, else contained).
    Title(String),
}
