//! deskpilot on Linux: one place that wires the engine to the platform. AT-SPI2 gives the
//! tree and native operations; on Wayland GNOME's mutter and shell or a wlroots
//! compositor's protocols, else X11, give the window list, synthetic input and pixels. It starts programs on the desktop and runs a
//! private headless desktop (`headless`). The binary, the tests and the benchmarks all build
//! their engine here; the MCP server and the test library never name a backend.

mod devices;
pub mod headless;
mod launcher;
pub mod session;

use std::sync::Arc;

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::{BackendError, Engine, Wiring};
use deskpilot_x11::X11Input;

pub use launcher::{LAUNCH_ENV, ProcessLauncher};

/// Where the engine reads and acts.
pub struct LinuxOptions {
    /// The D-Bus session bus address (the accessibility bus is found through it).
    pub bus: String,
    /// The X11 display; without one (or a Wayland session), no window ids, synthetic input
    /// or screenshots.
    pub display: Option<String>,
    /// The Wayland session, served before X11 where its compositor speaks wlroots' protocols.
    pub wayland: Option<WaylandSession>,
    /// Talk to apps over direct connections where they offer them (`false`: every call
    /// through the bus daemon, for dbus-monitor).
    pub use_peers: bool,
    /// An input device configured by the caller, instead of one opened on `display`.
    pub input: Option<X11Input>,
    /// The environment started programs inherit from (filtered by `LAUNCH_ENV`); `None`:
    /// this process's. A headless desktop passes its own.
    pub launch_environment: Option<Vec<(String, String)>>,
    /// How the desktop was found, when it was not given (listed with the apps).
    pub note: Option<String>,
}

impl LinuxOptions {
    pub fn new(bus: impl Into<String>, display: Option<String>) -> Self {
        LinuxOptions {
            bus: bus.into(),
            display,
            wayland: None,
            use_peers: true,
            input: None,
            launch_environment: None,
            note: None,
        }
    }
}

/// Where a Wayland compositor listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaylandSession {
    /// Its socket (`$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY`).
    pub socket: std::path::PathBuf,
    /// sway's IPC socket (`SWAYSOCK`), for the windows and their positions.
    pub sway: Option<std::path::PathBuf>,
    /// GNOME Shell's mutter (`XDG_CURRENT_DESKTOP` names GNOME): input through its remote
    /// desktop session on the session bus, windows and screenshots from the shell.
    pub gnome: bool,
}

/// The engine and the backend under it (whose call counters tests and benchmarks read).
pub struct LinuxEngine {
    pub engine: Engine,
    pub backend: Arc<AtspiBackend>,
}

/// The engine on this desktop: AT-SPI, with a wlroots compositor's or else X11's input,
/// capture and window list where there is a display, and programs started with `LAUNCH_ENV`.
pub async fn linux_engine(options: LinuxOptions) -> Result<LinuxEngine, BackendError> {
    let mut connect = ConnectOptions::new(options.bus.clone());
    connect.use_peers = options.use_peers;
    let mut backend = AtspiBackend::connect(connect).await?;
    let wayland = match &options.wayland {
        Some(session) if session.gnome => Some(devices::gnome(&options.bus).await),
        Some(session) => devices::wayland(session).await,
        None => None,
    };
    let devices = match wayland {
        Some(devices) => devices,
        None => devices::x11(options.display.as_deref(), options.input),
    };
    if let Some(windows) = &devices.windows {
        backend = backend.with_window_system(windows.clone());
    }
    let backend = Arc::new(backend);
    let launcher = match options.launch_environment {
        Some(inherited) => {
            ProcessLauncher::with_environment(&options.bus, options.display.as_deref(), inherited)
        }
        None => ProcessLauncher::new(&options.bus, options.display.as_deref()),
    };
    let wiring = Wiring {
        input: devices.input,
        capture: devices.capture,
        windows: devices.windows,
        launcher: Some(Arc::new(launcher)),
        missing: devices.missing,
        note: options.note,
        name: Some(devices.name),
    };
    let engine = Engine::wired(backend.clone(), wiring);
    Ok(LinuxEngine { engine, backend })
}
