//! Linux: AT-SPI2 on the session bus, with the display server the session runs (a wlroots
//! Wayland compositor's protocols where it has them, else X11), and a private headless
//! desktop.

use deskpilot_core::Engine;
use deskpilot_linux::session::{self, Found, Host};
use deskpilot_linux::{LinuxOptions, WaylandSession, linux_engine};

use crate::{Missing, PrivateDisplay};
use deskpilot_linux::headless::{DesktopOptions, DisplayServer};

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
    "XDG_CURRENT_DESKTOP",
    "XDG_RUNTIME_DIR",
];

/// What the session means for deskpilot: on Wayland, input and capture need GNOME's
/// interfaces or wlroots' protocols.
pub fn session_notes() -> Vec<String> {
    let gnome = "a GNOME session on Wayland: deskpilot reads every app; it types and clicks \
        through mutter's remote desktop session (GNOME shows its screen-sharing icon once \
        deskpilot has typed or clicked), and gets the window list, window positions and screenshots from \
        gnome-shell only where the shell runs in unsafe mode (elsewhere it types, and acts \
        through the apps' own semantics)";
    let wlroots = "a Wayland session: deskpilot reads every app; it types, clicks by position \
        and captures through the compositor's wlroots protocols (sway, and other wlroots \
        compositors; window positions from sway's IPC), and elsewhere (KDE) through X11 only \
        (XWayland's DISPLAY), where native Wayland apps are acted on through their own \
        semantics alone";
    let note = |session: WaylandSession| match session.gnome {
        true => gnome.to_owned(),
        false => wlroots.to_owned(),
    };
    wayland_session().map(note).into_iter().collect()
}

/// The Wayland session this process runs in: the compositor's socket (`WAYLAND_DISPLAY`, a
/// name under `XDG_RUNTIME_DIR` or a path) and sway's IPC socket (`SWAYSOCK`).
fn wayland_session() -> Option<WaylandSession> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    let mut session = session_of(
        var("WAYLAND_DISPLAY")?,
        var("XDG_RUNTIME_DIR"),
        var("SWAYSOCK"),
    )?;
    session.gnome = var("XDG_CURRENT_DESKTOP").is_some_and(|d| names_gnome(&d));
    Some(session)
}

/// Whether `XDG_CURRENT_DESKTOP` (a colon-separated list, `ubuntu:GNOME`) names GNOME.
fn names_gnome(desktops: &std::ffi::OsStr) -> bool {
    desktops
        .to_string_lossy()
        .split(':')
        .any(|d| d.eq_ignore_ascii_case("GNOME"))
}

fn session_of(
    display: std::ffi::OsString,
    runtime: Option<std::ffi::OsString>,
    swaysock: Option<std::ffi::OsString>,
) -> Option<WaylandSession> {
    let socket = match std::path::Path::new(&display) {
        path if path.is_absolute() => path.to_owned(),
        name => std::path::PathBuf::from(runtime?).join(name),
    };
    let sway = swaysock.map(Into::into);
    Some(WaylandSession {
        socket,
        sway,
        gnome: false,
    })
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
    private_on(PrivateDisplay::X11).await
}

/// A private headless desktop on `display` (Wayland: headless sway) and the engine on it.
pub async fn private_on(display: PrivateDisplay) -> Result<(Engine, Private), Missing> {
    let server = match display {
        PrivateDisplay::X11 => DisplayServer::Xvfb,
        PrivateDisplay::Wayland => DisplayServer::Sway,
        PrivateDisplay::Gnome => DisplayServer::Gnome,
    };
    let desktop_options = DesktopOptions {
        server,
        ..DesktopOptions::default()
    };
    let headless = tokio::task::spawn_blocking(move || Private::start_with(desktop_options))
        .await
        .map_err(|e| Missing::new(e.to_string()))?
        .map_err(|e| Missing::new(e.to_string()))?;
    let x11 = Some(headless.display().to_owned()).filter(|d| !d.is_empty());
    let mut options = LinuxOptions::new(headless.session_bus_address(), x11);
    options.wayland = headless.wayland();
    options.launch_environment = Some(headless.env_strings());
    Ok((engine(options).await?, headless))
}

async fn engine(options: LinuxOptions) -> Result<Engine, Missing> {
    let linux = linux_engine(options).await;
    Ok(linux.map_err(|e| Missing::new(e.to_string()))?.engine)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wayland_socket_is_a_name_under_the_runtime_dir_or_a_path() {
        let named = session_of("wayland-1".into(), Some("/run/user/7".into()), None).unwrap();
        assert_eq!(named.socket, std::path::Path::new("/run/user/7/wayland-1"));
        assert_eq!(named.sway, None);
        let path = session_of("/tmp/w/wayland-0".into(), None, Some("/tmp/s.sock".into()));
        let path = path.unwrap();
        assert_eq!(path.socket, std::path::Path::new("/tmp/w/wayland-0"));
        assert_eq!(
            path.sway.as_deref(),
            Some(std::path::Path::new("/tmp/s.sock"))
        );
        assert!(
            session_of("wayland-1".into(), None, None).is_none(),
            "no runtime dir"
        );
        assert!(names_gnome("ubuntu:GNOME".as_ref()) && names_gnome("GNOME".as_ref()));
        assert!(!names_gnome("sway".as_ref()) && !names_gnome("GNOME-Flashback-x".as_ref()));
    }
}
