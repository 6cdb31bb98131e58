//! Whether a window action reached its state, and its words. The action runs in
//! `engine/act/window.rs`, confirmed by the window's state read back.

use super::action::{WindowAction, WindowState};

pub(crate) fn reached(action: WindowAction, state: Option<WindowState>, active: bool) -> bool {
    match (action, state) {
        (WindowAction::Close, None) => true,
        (_, None) => false,
        (WindowAction::Close, Some(_)) => false,
        (WindowAction::Minimize, Some(s)) => s.minimized,
        (WindowAction::Maximize, Some(s)) => s.maximized && !s.minimized,
        (WindowAction::Restore, Some(s)) => !s.maximized && !s.minimized,
        (WindowAction::Activate, Some(s)) => active && !s.minimized,
    }
}

pub(crate) fn describe(state: Option<WindowState>) -> &'static str {
    match state {
        None => "closed",
        Some(WindowState {
            minimized: true, ..
        }) => "minimized",
        Some(WindowState {
            maximized: true, ..
        }) => "maximized",
        Some(_) => "normal",
    }
}
