//! What an action did to the user's desktop besides the element: whether it raised a window
//! (made another window the active one) or moved the pointer. Every action reports it, so a
//! user can run agents beside their own work; in background mode (a pipeline's `mode:
//! background`) the ladder takes no rung that would, and says so in the rungs it skipped
//! (`engine/act/acting.rs` notes both).

use serde::Serialize;

/// What an action did beside its element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Interaction {
    /// Another window was made the active one (before keys, a click, or on request).
    pub raised_window: bool,
    /// The pointer was moved (a click, a drag, the wheel).
    pub pointer_moved: bool,
}

impl Interaction {
    /// Its parts that happened, by name (`raised_window`, `pointer_moved`).
    pub fn names(self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.raised_window {
            out.push("raised_window");
        }
        if self.pointer_moved {
            out.push("pointer_moved");
        }
        out
    }
}

/// The active window and the pointer's place, to give back after work that took them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Foreground {
    pub window: Option<crate::app::WindowId>,
    pub pointer: Option<(i32, i32)>,
}
