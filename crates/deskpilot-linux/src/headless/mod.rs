//! A private headless desktop: Xvfb on a display it picked itself (`-displayfd`), a D-Bus
//! session daemon with its own `XDG_RUNTIME_DIR`, the AT-SPI bus activated before any app,
//! and openbox (or headless sway, `sway.rs`, or GNOME Shell, `gnome.rs`). Apps get exactly
//! [`HeadlessDesktop::env`]. Dropping the desktop stops every
//! process it started, found by pid through an environment stamp (see [`procs`]),
//! D-Bus-activated daemons included. Tests run on it, and so will `deskpilot serve` and the
//! test library's `Desktop::headless()`.

mod app;
mod bus;
mod desktop;
mod error;
pub mod gnome;
pub mod procs;
pub mod sway;
mod tail;
pub mod wait;
mod x11;

pub use app::{App, LaunchOptions, Registration};
pub use bus::RegisteredApp;
pub use desktop::{DesktopOptions, DisplayServer, HeadlessDesktop, STARTED_LOG_VAR};
pub use error::{DesktopError, Result};
