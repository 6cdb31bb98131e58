//! deskpilot's X11 side: the display server's view of top-level windows (EWMH), synthetic
//! input (XTEST), and screenshots (GetImage).

mod capture;
mod input;
mod keymap;
mod window_manager;
mod window_system;
mod windows;

pub use input::X11Input;
pub use window_system::X11WindowSystem;
pub use windows::X11Windows;
