//! deskpilot's Windows backend: UI Automation behind the platform contract.
//!
//! Everything but the COM calls is plain Rust that builds and is tested on every OS: the
//! mapping of control types, properties and patterns to the model (`mapping`), the walk
//! (`walk`), ids (`identity`), failures (`error`), deadlines (`calls`), and the seam those
//! read through (`UiaSource`), answered by `FakeUia` in tests and by COM on Windows.

pub mod apps;
mod backend;
mod calls;
pub mod capture;
#[cfg(windows)]
#[allow(unsafe_code)]
mod com;
pub mod error;
pub mod events;
#[cfg(any(test, feature = "fake"))]
mod fake;
#[cfg(any(windows, test))]
mod hooks;
pub mod identity;
pub mod ids;
#[cfg(any(windows, test))]
mod image_path;
pub mod input_plan;
#[cfg(any(windows, test))]
mod kept;
pub mod launch;
pub mod mapping;
#[cfg(any(windows, test))]
mod offscreen;
pub mod raw;
pub mod send_input;
pub mod session;
mod source;
pub mod system_windows;
#[cfg(test)]
mod tests;
mod walk;
#[cfg(any(windows, test))]
mod worker;

pub use backend::{CALL_TIMEOUT, WindowsBackend};
#[cfg(windows)]
pub use com::{ComSource, Timeouts, Win32Input, Win32Windows, link_count, session_desktop};
#[cfg(any(test, feature = "fake"))]
pub use fake::{FakeKeyboards, FakeUia, FakeWindows};
pub use source::{RawGrid, TextRead, UiaSource};
