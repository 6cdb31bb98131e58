//! Headless GNOME Shell for a private desktop: `gnome-shell --headless --no-x11` with one
//! virtual monitor, on the desktop's session bus. A second bus stands in for the system bus
//! (logind, polkit and GDM are absent: the shell warns and goes on). Measured on Debian 12
//! (gnome-shell 43.9, as root): ready in about 1.5 s, owning mutter's RemoteDesktop and
//! ScreenCast. Unsafe mode opens its window list and screenshots to the tests' oracles: a
//! test desktop only. The shell starts in its overview, which the desktop leaves at once.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::error::{DesktopError, Result};

/// The Wayland display's name in the desktop's runtime directory.
pub const DISPLAY: &str = "wayland-gnome";

/// The bus name the shell owns once mutter's input interface is up.
const READY_NAME: &str = "org.gnome.Mutter.RemoteDesktop";

/// How long one `gdbus` call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// The shell's command line for a monitor of `width` x `height`.
pub fn command(width: u16, height: u16) -> Command {
    let mut cmd = Command::new("gnome-shell");
    cmd.args(["--headless", "--wayland", "--no-x11", "--unsafe-mode"])
        .arg(format!("--wayland-display={DISPLAY}"))
        .arg(format!("--virtual-monitor={width}x{height}"))
        .stdout(Stdio::null());
    cmd
}

/// `gdbus` on the bus at `address`, with its arguments.
fn gdbus(address: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new("gdbus");
    cmd.arg("call")
        .arg(format!("--address={address}"))
        .arg(format!("--timeout={}", CALL_TIMEOUT.as_secs()))
        .args(args)
        .stdin(Stdio::null());
    cmd
}

/// Whether the shell owns `READY_NAME` on the bus at `address`.
pub fn ready(address: &str) -> bool {
    let asked = gdbus(
        address,
        &[
            "--dest=org.freedesktop.DBus",
            "--object-path=/org/freedesktop/DBus",
            "--method=org.freedesktop.DBus.NameHasOwner",
            READY_NAME,
        ],
    )
    .output();
    asked.is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains("true"))
}

/// Runs `script` in the shell (unsafe mode's `Eval`); what it answered.
pub fn eval(address: &str, script: &str) -> Result<String> {
    let out = gdbus(
        address,
        &[
            "--dest=org.gnome.Shell",
            "--object-path=/org/gnome/Shell",
            "--method=org.gnome.Shell.Eval",
            script,
        ],
    )
    .output()
    .map_err(|source| DesktopError::Io {
        path: "gdbus".into(),
        source,
    })?;
    let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if !out.status.success() || !said.starts_with("(true,") {
        return Err(DesktopError::NotReady {
            what: format!("gnome-shell's Eval of {script:?}: {said}"),
            timeout: CALL_TIMEOUT,
            log_tail: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(said)
}

/// Leaves the overview the shell starts in, so that apps' windows show and take focus.
pub fn leave_overview(address: &str) -> Result<()> {
    eval(address, "Main.overview.hide(); Main.overview.visible").map(|_| ())
}

/// The socket of the shell's Wayland display under `runtime`.
pub fn socket(runtime: &Path) -> std::path::PathBuf {
    runtime.join(DISPLAY)
}
