//! deskpilot's X11 side: the display server's view of top-level windows (EWMH), and later
//! synthetic input (XTEST) and screenshots (GetImage).

mod windows;

pub use windows::X11Windows;
