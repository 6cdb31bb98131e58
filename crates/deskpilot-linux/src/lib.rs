//! deskpilot on Linux: one place that wires the engine to the platform (AT-SPI2 for the tree
//! and native operations, X11 for the window list, synthetic input and pixels), starts
//! programs on the desktop, and runs a private headless desktop (`headless`). The binary, the
//! tests and the benchmarks all build their engine here; the MCP server and the test library
//! never name a backend.

pub mod headless;
mod launcher;
pub mod session;

use std::sync::Arc;

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::{BackendError, DevicesMissing, Engine, InputDevice, WindowSystem, Wiring};
use deskpilot_x11::{X11Input, X11WindowSystem};

pub use launcher::{LAUNCH_ENV, ProcessLauncher};

/// Where the engine reads and acts.
pub struct LinuxOptions {
    /// The D-Bus session bus address (the accessibility bus is found through it).
    pub bus: String,
    /// The X11 display; without one, no window ids, synthetic input or screenshots.
    pub display: Option<String>,
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
            use_peers: true,
            input: None,
            launch_environment: None,
            note: None,
        }
    }
}

/// The engine and the backend under it (whose call counters tests and benchmarks read).
pub struct LinuxEngine {
    pub engine: Engine,
    pub backend: Arc<AtspiBackend>,
}

/// The engine on this desktop: AT-SPI with the X11 window list, X11 input and capture when
/// there is a display, and programs started with `LAUNCH_ENV`.
pub async fn linux_engine(options: LinuxOptions) -> Result<LinuxEngine, BackendError> {
    let mut connect = ConnectOptions::new(options.bus.clone());
    connect.use_peers = options.use_peers;
    let mut backend = AtspiBackend::connect(connect).await?;
    let mut input = options.input;
    let mut windows: Option<Arc<dyn WindowSystem>> = None;
    if let Some(display) = &options.display {
        if input.is_none() {
            match X11Input::connect(display) {
                Ok(device) => input = Some(device),
                Err(e) => tracing::warn!("no synthetic input: {e}"),
            }
        }
        // The window manager's requests share the input device's connection.
        let system = match &input {
            Some(device) => X11WindowSystem::with_input(display, device.clone()),
            None => X11WindowSystem::connect(display),
        };
        match system {
            Ok(x11) => {
                let x11: Arc<dyn WindowSystem> = Arc::new(x11);
                backend = backend.with_window_system(x11.clone());
                windows = Some(x11);
            }
            Err(e) => tracing::warn!("no X11 window information: {e}"),
        }
    }
    let backend = Arc::new(backend);
    let launcher = match options.launch_environment {
        Some(inherited) => {
            ProcessLauncher::with_environment(&options.bus, options.display.as_deref(), inherited)
        }
        None => ProcessLauncher::new(&options.bus, options.display.as_deref()),
    };
    let input = input.map(Arc::new);
    let name = match &options.display {
        Some(display) => format!("Linux, X display {display}"),
        None => "Linux, no display".to_owned(),
    };
    let wiring = Wiring {
        input: input.clone().map(|device| device as Arc<dyn InputDevice>),
        capture: input.map(|device| device as Arc<dyn deskpilot_core::platform::ScreenCapture>),
        windows,
        launcher: Some(Arc::new(launcher)),
        missing: DevicesMissing {
            why: "deskpilot has no X11 display (a Wayland session, or DISPLAY unset)".into(),
            hint: "synthetic input and screenshots need an X11 display (pass --display); semantic actions still work".into(),
        },
        note: options.note,
        name: Some(name),
    };
    let engine = Engine::wired(backend.clone(), wiring);
    Ok(LinuxEngine { engine, backend })
}
