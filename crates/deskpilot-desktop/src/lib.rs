//! The one place a face gets its engine: the engine for this desktop, a private headless
//! desktop where the platform has one, and the null platform where deskpilot has no backend.
//! The platform is chosen with `cfg(target_os)`; on Linux the display server is chosen at run
//! time by the session found (X11 today). The CLI, the MCP server (through the CLI), the
//! test library and `cargo xtask demo` call it, so no face names a backend crate.

mod doctor;
mod missing;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(not(target_os = "linux"))]
mod none;
#[cfg(windows)]
mod windows;

#[cfg(target_os = "linux")]
use linux as platform;
#[cfg(not(any(target_os = "linux", windows)))]
use none as platform;
#[cfg(windows)]
use windows as platform;

pub use doctor::{Doctor, Rung, RungKind, SessionVar, doctor};
pub use missing::Missing;
pub use platform::{NO_DESKTOP_HINT, Private, Reach, private, private_on, this_desktop};

use deskpilot_core::{Engine, NoDesktop};

/// The display server a private headless desktop runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PrivateDisplay {
    /// X11 (Xvfb with a window manager on Linux).
    #[default]
    X11,
    /// A Wayland compositor (headless sway on Linux): apps native on Wayland.
    Wayland,
    /// GNOME Shell on Wayland (headless, in its unsafe mode): apps native on mutter.
    Gnome,
}

/// The null platform: an engine whose every call fails `unsupported`, naming this system.
pub fn null() -> Engine {
    Engine::new(std::sync::Arc::new(NoDesktop::unsupported_platform(
        std::env::consts::OS,
    )))
}

/// A file's hard link count, for writing it without following links (Windows has no stable
/// std call for it).
#[cfg(windows)]
pub fn link_count(file: &std::fs::File) -> std::io::Result<u32> {
    deskpilot_windows::link_count(file)
}
