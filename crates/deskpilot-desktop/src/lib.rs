//! Test support for deskpilot: a private headless desktop per test.
//!
//! ```no_run
//! use deskpilot_desktop::{Fixture, VirtualDesktop};
//! let desktop = VirtualDesktop::start()?;
//! let gtk = desktop.launch_fixture(Fixture::Gtk3)?;
//! // ... drive the app through `desktop.session_bus_address()` ...
//! gtk.oracle.wait_for(std::time::Duration::from_secs(5), |e| e.is("counter", "clicks"))?;
//! # Ok::<(), deskpilot_desktop::DesktopError>(())
//! ```
//!
//! A desktop is Xvfb on a display it picked itself (`-displayfd`), a D-Bus session daemon with its
//! own `XDG_RUNTIME_DIR`, the AT-SPI bus activated before any app, and openbox. Apps get exactly
//! [`VirtualDesktop::env`]. Dropping the desktop stops every process it started, found by pid
//! through an environment stamp (see [`procs`]), D-Bus-activated daemons included.

mod app;
mod bus;
mod desktop;
mod error;
mod fixture;
mod form_receiver;
mod mcp_client;
mod oracle;
pub mod procs;
mod real_apps;
mod tail;
mod wait;
mod x11;

pub use app::{App, LaunchOptions, Registration};
pub use bus::RegisteredApp;
pub use desktop::{DesktopOptions, VirtualDesktop};
pub use error::{DesktopError, Result};
pub use fixture::{Fixture, FixtureApp, SYSTEM_PYTHON, fixtures_dir};
pub use form_receiver::{FormReceiver, SubmittedForm};
pub use mcp_client::McpClient;
pub use oracle::{Oracle, OracleEvent};
pub use real_apps::ChromiumPages;
