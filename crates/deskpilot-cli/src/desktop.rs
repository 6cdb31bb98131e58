//! The desktop the CLI drives, chosen with `cfg(target_os)`: AT-SPI and X11 on Linux (with
//! their flags), UI Automation on Windows, elsewhere the null platform whose every call
//! answers `unsupported`.

pub use platform::{NO_DESKTOP_HINT, PlatformArgs, engine};

#[cfg(target_os = "linux")]
mod platform {
    use deskpilot_core::Engine;

    /// What a host does when no desktop was found.
    pub const NO_DESKTOP_HINT: &str = "start deskpilot with --bus (and --display), or give its host the session's DBUS_SESSION_BUS_ADDRESS and DISPLAY in the server's env block";

    /// How to reach the Linux desktop.
    #[derive(clap::Args)]
    pub struct PlatformArgs {
        /// D-Bus session bus address (default: $DBUS_SESSION_BUS_ADDRESS).
        #[arg(long, global = true, value_name = "ADDRESS")]
        bus: Option<String>,
        /// X11 display (default: $DISPLAY); without one, window ids and GTK 4 screen positions
        /// are unknown. `--display ''` runs without one.
        #[arg(long, global = true, value_name = "DISPLAY")]
        display: Option<String>,
        /// Talk to every app through the accessibility bus, never over a direct connection, so
        /// that `dbus-monitor` sees every call (for debugging; slower). Also
        /// `DESKPILOT_NO_PEERS=1`.
        #[arg(long, global = true, env = "DESKPILOT_NO_PEERS", value_parser = clap::builder::BoolishValueParser::new(), default_value_t = false)]
        no_peers: bool,
    }

    /// The engine on the user's desktop: the bus and display given, or found where the
    /// desktop keeps them (said on stderr, and by `list_apps`). `Err` says what is missing.
    pub async fn engine(args: PlatformArgs) -> Result<Engine, String> {
        use deskpilot_linux::session;
        let (bus, display, use_peers) = (args.bus, args.display, !args.no_peers);
        let around = session::Host;
        let bus = session::bus(bus, &around)?;
        let session_env = match (&display, std::env::var_os("DISPLAY")) {
            (None, None) => session::session_display(&bus.value).await,
            _ => None,
        };
        let display = session::display(display, session_env, &around);
        let mut found = Vec::new();
        if !bus.given {
            found.push(format!("session bus {} (from {})", bus.value, bus.how));
        }
        match &display {
            Some(d) if !d.given => found.push(format!("display {} (from {})", d.value, d.how)),
            Some(_) => {}
            None if !bus.given => {
                found.push("no display (no DISPLAY, and not one X server socket)".into())
            }
            None => {}
        }
        let mut options = deskpilot_linux::LinuxOptions::new(bus.value, display.map(|d| d.value));
        options.use_peers = use_peers;
        if !found.is_empty() {
            let note = format!("desktop found: {}", found.join("; "));
            eprintln!("deskpilot: {note}");
            options.note = Some(note);
        }
        let linux = deskpilot_linux::linux_engine(options).await;
        Ok(linux.map_err(|e| e.to_string())?.engine)
    }
}

#[cfg(windows)]
mod platform {
    use deskpilot_core::{Engine, Wiring};

    /// What a host does when no desktop was found.
    pub const NO_DESKTOP_HINT: &str =
        "run deskpilot in the signed-in user's session (not as a service or over SSH)";

    /// Windows has one desktop per session: nothing to choose.
    #[derive(clap::Args)]
    pub struct PlatformArgs {}

    /// The engine on this session's desktop: UI Automation, the window list, SendInput,
    /// GDI's pixels and a launcher.
    pub async fn engine(_args: PlatformArgs) -> Result<Engine, String> {
        let desktop = deskpilot_windows::session_desktop().map_err(|e| e.to_string())?;
        let wiring = Wiring {
            windows: Some(desktop.windows),
            input: Some(desktop.input),
            capture: Some(desktop.capture),
            launcher: Some(desktop.launcher),
            name: Some("Windows, this session's desktop".to_owned()),
            ..Wiring::default()
        };
        Ok(Engine::wired(desktop.backend, wiring))
    }
}

#[cfg(not(any(target_os = "linux", windows)))]
mod platform {
    use deskpilot_core::Engine;

    /// What a host does when no desktop was found.
    pub const NO_DESKTOP_HINT: &str = "deskpilot drives desktops on Linux and Windows";

    /// No platform to reach.
    #[derive(clap::Args)]
    pub struct PlatformArgs {}

    /// The null platform where deskpilot has no backend yet: the server answers, and every
    /// call fails `unsupported`.
    pub async fn engine(_args: PlatformArgs) -> Result<Engine, String> {
        Ok(Engine::new(std::sync::Arc::new(
            deskpilot_core::NoDesktop::unsupported_platform(std::env::consts::OS),
        )))
    }
}
