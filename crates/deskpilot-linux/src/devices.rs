//! The display server's side of the engine: synthetic input, screenshots and the window list,
//! from GNOME or a wlroots compositor on Wayland, else from X11, else none (with the
//! reason).

use std::sync::Arc;

use deskpilot_core::platform::ScreenCapture;
use deskpilot_core::{DevicesMissing, InputDevice, WindowSystem};
use deskpilot_gnome::GnomeDevices;
use deskpilot_wayland::{ForeignToplevels, SwayWindows, WaylandInput};
use deskpilot_x11::{X11Input, X11WindowSystem};

use crate::WaylandSession;

/// What the engine acts and looks through beside the accessibility tree.
pub(crate) struct Devices {
    pub(crate) input: Option<Arc<dyn InputDevice>>,
    pub(crate) capture: Option<Arc<dyn ScreenCapture>>,
    pub(crate) windows: Option<Arc<dyn WindowSystem>>,
    pub(crate) name: String,
    pub(crate) missing: DevicesMissing,
}

/// The Wayland compositor's devices, or `None` when it speaks none of wlroots' protocols
/// (GNOME, KDE: X11 through XWayland then serves).
pub(crate) async fn wayland(session: &WaylandSession) -> Option<Devices> {
    let socket = session.socket.clone();
    let connected = tokio::task::spawn_blocking(move || WaylandInput::connect(&socket)).await;
    let input = match connected.map_err(|e| e.to_string()) {
        Ok(Ok(input)) => input,
        Ok(Err(e)) => return warned("no Wayland input or capture", e),
        Err(e) => return warned("no Wayland input or capture", e),
    };
    let (windows, compositor) = match &session.sway {
        Some(socket) => {
            let sway: Arc<dyn WindowSystem> = Arc::new(SwayWindows::new(socket));
            (Some(sway), "sway")
        }
        None => (
            toplevels(session).await,
            "a wlroots compositor, no window positions",
        ),
    };
    let display = session.socket.file_name().unwrap_or_default();
    let display = display.to_string_lossy();
    let input = Arc::new(input);
    Some(Devices {
        input: Some(input.clone() as Arc<dyn InputDevice>),
        capture: Some(input as Arc<dyn ScreenCapture>),
        windows,
        name: format!("Linux, Wayland {display} ({compositor})"),
        missing: DevicesMissing {
            why: "this Wayland compositor is not sway: deskpilot knows no window positions there".into(),
            hint: "semantic actions, keys and screenshots still work; clicks by position need window positions".into(),
        },
    })
}

/// GNOME's devices: mutter's input always; the shell's window list and screenshots where it
/// lends them. Nothing when mutter's remote desktop is not on the bus.
pub(crate) async fn gnome(bus: &str) -> Devices {
    let name = "Linux, Wayland on GNOME Shell".to_owned();
    let devices = match GnomeDevices::connect(bus).await {
        Ok(devices) => devices,
        Err(e) => {
            return Devices {
                input: None,
                capture: None,
                windows: None,
                name,
                missing: DevicesMissing {
                    why: format!("mutter's remote desktop refused deskpilot: {e}"),
                    hint: "semantic actions still work; run deskpilot in the user's GNOME session (its session bus)".into(),
                },
            };
        }
    };
    let input = Some(Arc::new(devices.input) as Arc<dyn InputDevice>);
    match devices.shell {
        Ok((windows, capture)) => Devices {
            input,
            capture: Some(Arc::new(capture)),
            windows: Some(Arc::new(windows)),
            name,
            missing: DevicesMissing::default(),
        },
        Err(why) => Devices {
            input,
            capture: None,
            windows: None,
            name: format!("{name} (keys only: {why})"),
            missing: DevicesMissing {
                why,
                hint: "semantic actions and keys still work; clicks by position and screenshots need the shell's window list".into(),
            },
        },
    }
}

/// The compositor's toplevels (no positions), where it has the protocol.
async fn toplevels(session: &WaylandSession) -> Option<Arc<dyn WindowSystem>> {
    let socket = session.socket.clone();
    let connected = tokio::task::spawn_blocking(move || ForeignToplevels::connect(&socket)).await;
    match connected.map_err(|e| e.to_string()) {
        Ok(Ok(toplevels)) => Some(Arc::new(toplevels)),
        Ok(Err(e)) => warned("no Wayland window list", e),
        Err(e) => warned("no Wayland window list", e),
    }
}

/// Logs why something is missing; none of it.
fn warned<T>(what: &str, why: impl std::fmt::Display) -> Option<T> {
    tracing::warn!("{what}: {why}");
    None
}

/// X11's devices on `display`; `input` when the caller configured one.
pub(crate) fn x11(display: Option<&str>, input: Option<X11Input>) -> Devices {
    let missing = DevicesMissing {
        why: "deskpilot has no X11 display (a Wayland session, or DISPLAY unset)".into(),
        hint: "synthetic input and screenshots need an X11 display (pass --display); semantic actions still work".into(),
    };
    let Some(display) = display else {
        return Devices {
            input: None,
            capture: None,
            windows: None,
            name: "Linux, no display".to_owned(),
            missing,
        };
    };
    let input = input.or_else(|| match X11Input::connect(display) {
        Ok(device) => Some(device),
        Err(e) => {
            tracing::warn!("no synthetic input: {e}");
            None
        }
    });
    // The window manager's requests share the input device's connection.
    let system = match &input {
        Some(device) => X11WindowSystem::with_input(display, device.clone()),
        None => X11WindowSystem::connect(display),
    };
    let windows = match system {
        Ok(x11) => Some(Arc::new(x11) as Arc<dyn WindowSystem>),
        Err(e) => {
            tracing::warn!("no X11 window information: {e}");
            None
        }
    };
    let input = input.map(Arc::new);
    Devices {
        input: input.clone().map(|device| device as Arc<dyn InputDevice>),
        capture: input.map(|device| device as Arc<dyn ScreenCapture>),
        windows,
        name: format!("Linux, X display {display}"),
        missing,
    }
}
