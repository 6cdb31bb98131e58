//! deskpilot's GNOME side on Wayland: synthetic input through mutter's remote desktop
//! session (`org.gnome.Mutter.RemoteDesktop`, with a screen cast stream per monitor for
//! the pointer's absolute positions), and the window list and screenshots through
//! gnome-shell where the shell allows it (its unsafe mode). Everything is a D-Bus call on
//! the session bus, bounded in time; no prompt is shown, as deskpilot runs in the user's
//! own session.

mod bus;
mod capture;
mod input;
mod remote;
mod shell;
mod windows;

pub use bus::GnomeError;
pub use capture::ShellCapture;
pub use input::GnomeInput;
pub use windows::ShellWindows;

use bus::Bus;
use remote::Remote;
use shell::Shell;

/// What GNOME lends deskpilot, and why the rest is missing.
pub struct GnomeDevices {
    pub input: GnomeInput,
    /// The window list and screenshots; `Err`: why gnome-shell keeps them.
    pub shell: Result<(ShellWindows, ShellCapture), String>,
}

impl GnomeDevices {
    /// Asks mutter whether it offers remote desktop sessions on the session bus at
    /// `address`, and the shell what it lends. The session itself starts with the first
    /// input (GNOME shows its screen-sharing icon while it runs): reading starts none.
    /// Without the shell's window list, the pointer is not used either: a native Wayland
    /// app's bounds count from a window nobody can place.
    pub async fn connect(address: &str) -> Result<GnomeDevices, GnomeError> {
        let bus = Bus::connect(address).await?;
        remote::offered(&bus).await?;
        let screen = remote::screen(&bus).await?;
        let shell = Shell::new(bus.clone());
        let lent = match (shell.eval("true").await, screen) {
            (Ok(_), Some(screen)) => {
                let capture = ShellCapture::new(shell.clone(), screen)?;
                Ok((ShellWindows::new(shell), capture))
            }
            (Ok(_), None) => Err("mutter reports no monitor".to_owned()),
            (Err(GnomeError::Failed(why)), _) => return Err(GnomeError::Failed(why)),
            (Err(e), _) => Err(e.to_string()),
        };
        let pointer_refused = lent.as_ref().err().map(|why| {
            format!("no pointer: deskpilot cannot place native Wayland windows here ({why})")
        });
        let input = GnomeInput::new(bus, pointer_refused);
        Ok(GnomeDevices { input, shell: lent })
    }
}

/// A remote desktop session held for its devices alone: while it runs, mutter's seat has a
/// keyboard and a pointer. A headless shell's seat has none, and apps see no keyboard focus
/// without one (a person's session always has them).
pub struct Seat {
    _remote: Remote,
}

impl Seat {
    pub async fn hold(address: &str) -> Result<Seat, GnomeError> {
        let bus = Bus::connect(address).await?;
        let remote = Remote::start(bus).await?;
        Ok(Seat { _remote: remote })
    }
}
