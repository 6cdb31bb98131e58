//! Linux: AT-SPI2 on the session bus, with the display server the session runs (a wlroots
//! Wayland compositor's protocols where it has them, else X11), and a private headless
//! desktop.

use deskpilot_core::Engine;
use deskpilot_linux::session::{self, Found, Host};
use deskpilot_linux::{LinuxOptions, WaylandSession, linux_engine};

use crate::Missing;

pub use deskpilot_linux::headless::HeadlessDesktop as Private;

/// What a host does when no desktop was found.
pub const NO_DESKTOP_HINT: &str = "start deskpilot with --bus (and --display), or give its host the session's DBUS_SESSION_BUS_ADDRESS and DISPLAY in the server's env block";

/// The variables that say which session this is (`deskpilot doctor`).
pub const SESSION_VARS: &[&str] = &[
    "XDG_SESSION_TYPE",
    "XDG_CURRENT_DESKTOP",
    "WAYLAND_DISPLAY",
    "DISPLAY",
    "SWAYSOCK",
    "DBUS_SESSION_BUS_ADDRESS",
    "XDG_RUNTIME_DIR",
];

/// What a host must pass for deskpilot to find the desktop by itself.
pub const PASS_ENV: &[&str] = &[
    "DBUS_SESSION_BUS_ADDRESS",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "SWAYSOCK",
    "XDG_RUNTIME_DIR",
];

/// What the session means for deskpilot: on Wayland, input and capture need wlroots'
/// protocols.
pub fn session_notes() -> Vec<String> {
    let note = "a Wayland session: deskpilot reads every app; it types, clicks by position and \
        captures through the compositor's wlroots protocols (sway, and other wlroots \
        compositors; window positions from sway's IPC), and elsewhere (GNOME, KDE) through \
        X11 only (XWayland's DISPLAY), where native Wayland apps are acted on through their \
        own semantics alone";
    wayland_session()
        .map(|_| note.to_owned())
        .into_iter()
        .collect()
}

/// The Wayland session this process runs in: the compositor's socket (`WAYLAND_DISPLAY`, a
/// name under `XDG_RUNTIME_DIR` or a path) and sway's IPC socket (`SWAYSOCK`).
fn wayland_session() -> Option<WaylandSession> {
    let display = std::env::var_os("WAYLAND_DISPLAY").filter(|d| !d.is_empty())?;
    let socket = match std::path::Path::new(&display) {
        path if path.is_absolute() => path.to_owned(),
        name => std::path::PathBuf::from(std::env::var_os("XDG_RUNTIME_DIR")?).join(name),
    };
    let sway = std::env::var_os("SWAYSOCK")
        .filter(|s| !s.is_empty())
        .map(Into::into);
    Some(WaylandSession { socket, sway })
}

/// How to reach the desktop; what is not given is found where the desktop keeps it.
#[derive(Debug, Clone)]
pub struct Reach {
    /// The D-Bus session bus address (default: `DBUS_SESSION_BUS_ADDRESS`, then the
    /// session's socket).
    pub bus: Option<String>,
    /// The X11 display (default: `DISPLAY`, then the session's); `Some("")`: none.
    pub display: Option<String>,
    /// Talk to apps over direct connections where they offer them (`false`: every call
    /// through the bus daemon, for dbus-monitor).
    pub use_peers: bool,
}

impl Default for Reach {
    fn default() -> Self {
        Reach {
            bus: None,
            display: None,
            use_peers: true,
        }
    }
}

/// The display server the session runs, chosen at run time.
enum Display {
    X11(Found),
    /// No display server deskpilot can use: semantic actions only.
    Absent,
}

/// The engine on the user's desktop: the bus and display given, or found where the desktop
/// keeps them (how, in the engine's note, listed with the apps).
pub async fn this_desktop(reach: Reach) -> Result<Engine, Missing> {
    let bus = session::bus(reach.bus, &Host).map_err(Missing::new)?;
    let display = display(reach.display, &bus).await;
    let mut options = LinuxOptions::new(bus.value.clone(), None);
    options.use_peers = reach.use_peers;
    options.wayland = wayland_session();
    options.note = note(&bus, &display);
    if let Display::X11(found) = display {
        options.display = Some(found.value);
    }
    engine(options).await
}

/// The display the flag, the environment or the session gives.
async fn display(flag: Option<String>, bus: &Found) -> Display {
    let session_env = match (&flag, std::env::var_os("DISPLAY")) {
        (None, None) => session::session_display(&bus.value).await,
        _ => None,
    };
    match session::display(flag, session_env, &Host) {
        Some(found) => Display::X11(found),
        None => Display::Absent,
    }
}

/// How the desktop was found, when it was not given.
fn note(bus: &Found, display: &Display) -> Option<String> {
    let mut found = Vec::new();
    if !bus.given {
        found.push(format!("session bus {} (from {})", bus.value, bus.how));
    }
    match display {
        Display::X11(d) if !d.given => found.push(format!("display {} (from {})", d.value, d.how)),
        Display::X11(_) => {}
        Display::Absent if !bus.given => {
            found.push("no display (no DISPLAY, and not one X server socket)".into())
        }
        Display::Absent => {}
    }
    (!found.is_empty()).then(|| format!("desktop found: {}", found.join("; ")))
}

/// A private headless desktop and the engine on it.
pub async fn private() -> Result<(Engine, Private), Missing> {
    let headless = tokio::task::spawn_blocking(Private::start)
        .await
        .map_err(|e| Missing::new(e.to_string()))?
        .map_err(|e| Missing::new(e.to_string()))?;
    let mut options = LinuxOptions::new(
        headless.session_bus_address(),
        Some(headless.display().to_owned()),
    );
    options.launch_environment = Some(headless.env_strings());
    Ok((engine(options).await?, headless))
}

async fn engine(options: LinuxOptions) -> Result<Engine, Missing> {
    let linux = linux_engine(options).await;
    Ok(linux.map_err(|e| Missing::new(e.to_string()))?.engine)
}
