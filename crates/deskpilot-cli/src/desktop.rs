//! How the CLI reaches the desktop: flags chosen with `cfg(target_os)` (the bus and display
//! on Linux, none elsewhere), turned into `deskpilot_desktop::Reach`.

pub use platform::PlatformArgs;

use deskpilot_core::Engine;
use deskpilot_desktop::Missing;

/// The engine on the user's desktop; how it was found is said on stderr (and by `list_apps`).
pub async fn engine(args: PlatformArgs) -> Result<Engine, Missing> {
    let engine = deskpilot_desktop::this_desktop(args.into()).await?;
    if let Some(note) = &engine.wiring().note {
        eprintln!("deskpilot: {note}");
    }
    Ok(engine)
}

#[cfg(target_os = "linux")]
mod platform {
    use deskpilot_desktop::Reach;

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

    impl From<PlatformArgs> for Reach {
        fn from(args: PlatformArgs) -> Reach {
            Reach {
                bus: args.bus,
                display: args.display,
                use_peers: !args.no_peers,
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod platform {
    use deskpilot_desktop::Reach;

    /// Nothing to choose: one desktop per session.
    #[derive(clap::Args)]
    pub struct PlatformArgs {}

    impl From<PlatformArgs> for Reach {
        fn from(_args: PlatformArgs) -> Reach {
            Reach::default()
        }
    }
}
