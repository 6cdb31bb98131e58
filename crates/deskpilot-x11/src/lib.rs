//! deskpilot's X11 side: the display server's view of top-level windows (EWMH), synthetic
//! input (XTEST), and screenshots (GetImage).

mod capture;
mod drag_path;
mod input;
mod keymap;
mod window_manager;
mod windows;

/// The X11 window behind a window id (ids this crate issued are X11 window ids).
fn xid(window: deskpilot_platform::WindowId) -> Result<u32, deskpilot_platform::InputError> {
    u32::try_from(window.0).map_err(|_| {
        deskpilot_platform::InputError::Display(format!("{window} is not an X11 window id"))
    })
}

pub use input::X11Input;
pub use windows::X11Windows;
