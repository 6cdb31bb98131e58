//! Test support for deskpilot: the private headless desktop (deskpilot-linux's
//! `HeadlessDesktop`) with what tests start on it (the fixture apps with their oracles, the
//! real apps as tests need them), an MCP client for `deskpilot mcp`, and a loopback server
//! that receives browsers' forms.
//!
//! ```no_run
//! use deskpilot_testkit::{Fixture, VirtualDesktop};
//! let desktop = VirtualDesktop::start()?;
//! let gtk = desktop.launch_fixture(Fixture::Gtk3)?;
//! // ... drive the app through `desktop.session_bus_address()` ...
//! gtk.oracle.wait_for(std::time::Duration::from_secs(5), |e| e.is("counter", "clicks"))?;
//! # Ok::<(), deskpilot_testkit::DesktopError>(())
//! ```

mod compositor;
mod fixture;
mod form_receiver;
mod gnome;
mod mcp_client;
mod oracle;
mod pyatspi;
mod real_apps;
mod replays;
mod sway;

use std::process::Command;

pub use deskpilot_linux::headless::{
    App, DesktopError, DesktopOptions, DisplayServer, HeadlessDesktop, LaunchOptions,
    RegisteredApp, Registration, Result, STARTED_LOG_VAR, procs,
};
pub use fixture::{Fixture, FixtureApp, SYSTEM_PYTHON, fixtures_dir};
pub use form_receiver::{FormReceiver, SubmittedForm};
pub use gnome::GnomeWindow;
pub use mcp_client::{McpClient, sdk_python};
pub use oracle::{Oracle, OracleEvent};
pub use pyatspi::{has_state, pyatspi_nodes, pyatspi_walks};
pub use real_apps::ChromiumPages;
pub use replays::{FIXTURE_SCRIPT, NAME, Replayed, TYPED};
pub use sway::SwayWindow;

/// A headless desktop with the launching tests need (fixtures, real apps); everything else is
/// the `HeadlessDesktop` it derefs to.
pub struct VirtualDesktop(HeadlessDesktop);

impl VirtualDesktop {
    /// A desktop someone else started (`deskpilot_desktop::private`), for fixtures.
    pub fn wrap(desktop: HeadlessDesktop) -> Self {
        VirtualDesktop(desktop)
    }

    pub fn start() -> Result<Self> {
        HeadlessDesktop::start().map(VirtualDesktop)
    }

    pub fn start_with(options: DesktopOptions) -> Result<Self> {
        HeadlessDesktop::start_with(options).map(VirtualDesktop)
    }

    /// A desktop on headless sway: apps native on Wayland.
    pub fn start_sway() -> Result<Self> {
        Self::start_with(DesktopOptions {
            server: DisplayServer::Sway,
            ..DesktopOptions::default()
        })
    }

    /// A desktop on headless GNOME Shell: apps native on mutter's Wayland.
    pub fn start_gnome() -> Result<Self> {
        Self::start_with(DesktopOptions {
            server: DisplayServer::Gnome,
            ..DesktopOptions::default()
        })
    }

    /// Stops everything and reports processes that survived (there should be none).
    pub fn stop(self) -> std::result::Result<(), Vec<u32>> {
        self.0.stop()
    }

    /// Starts `cmd` (built with `command`) and waits until it, or a process it started, has
    /// registered on the AT-SPI bus.
    pub fn launch(&self, cmd: Command) -> Result<App> {
        self.launch_with(cmd, LaunchOptions::default())
    }

    pub fn launch_with(&self, cmd: Command, options: LaunchOptions) -> Result<App> {
        App::launch(&self.0, cmd, options)
    }

    /// Whether pyatspi, read again every 100 ms for up to 10 s, sees an element of `app`
    /// whose text is `text` (spaces around it aside): a second AT-SPI client as the oracle.
    pub fn pyatspi_shows(&self, app: &str, text: &str) -> bool {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let nodes = pyatspi_nodes(self.command(SYSTEM_PYTHON), app);
            if nodes
                .iter()
                .any(|n| n["text"].as_str().is_some_and(|t| t.trim() == text))
            {
                return true;
            }
            if std::time::Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

impl std::ops::Deref for VirtualDesktop {
    type Target = HeadlessDesktop;

    fn deref(&self) -> &HeadlessDesktop {
        &self.0
    }
}
