//! The contract between deskpilot's engine and its platform backends, in no platform's words:
//! the element model every backend fills in (`model`), the escaping of the text apps give
//! (`escape`), the traits a platform implements (`Backend`, `InputDevice`, `ScreenCapture`,
//! `WindowSystem`, `Launcher`) and the words they take (keys, `InputText`, the vocabulary of
//! native operations, apps and windows, the image). A backend depends on this crate, never on
//! the engine; `deskpilot-core` re-exports all of it under its old paths.

// Nothing here prints to stdout: the faces decide where text goes.
#![deny(clippy::print_stdout)]

mod absent;
mod admission;
pub mod app;
mod backend;
pub mod blocking;
pub mod budget;
mod capture;
pub mod drag_path;
pub mod escape;
mod events;
mod font;
pub mod image;
mod input;
pub mod keys;
mod launcher;
pub mod model;
pub mod stalls;
pub mod text;
pub mod vocabulary;
pub mod window_system;

pub use absent::NoDesktop;
pub use admission::ValueAdmission;
pub use app::{AppInfo, WindowId, WindowInfo};
pub use backend::{
    Backend, BackendError, Blindness, Caret, NativeRoute, NativeRoutes, Performed, ProgressSink,
    Secrecy, WalkLimits,
};
pub use capture::{CaptureError, Cover, ScreenCapture, WindowImage};
pub use events::{Announcement, Events, NoEvents};
pub use image::Image;
pub use input::{InputDevice, InputError};
pub use keys::{Chord, Key, KeyError, Modifier, NamedKey};
pub use launcher::{Exited, Exits, LaunchError, Launcher, descends};
pub use model::{TableSlice, TextSlice};
pub use text::InputText;
pub use vocabulary::{Direction, EditKeys, MouseButton, NativeOp, WindowAction, WindowState};
pub use window_system::{ClientWindow, Popup, WindowError, WindowSystem};
