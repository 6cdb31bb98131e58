//! What deskpilot needs from a platform, in one place: the accessibility backend (the tree and
//! native operations), synthetic input with the window manager's requests, the display's
//! pixels and window list, and a way to start programs. Core only ever talks to these traits;
//! the Linux crates implement them, `deskpilot-fake` imitates them.

mod absent;
mod backend;
mod capture;
mod input;
mod launcher;
pub mod window_system;

pub use absent::NoDesktop;
pub use backend::{
    Backend, BackendError, Caret, NativeRoute, NativeRoutes, ProgressSink, Secrecy, WalkLimits,
};
pub use capture::ScreenCapture;
pub use input::{InputDevice, InputError};
pub use launcher::{Exited, Launcher};
pub use window_system::{ClientWindow, WindowSystem};
