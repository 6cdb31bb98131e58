//! Headless GNOME Shell for a private desktop: `gnome-shell --headless --no-x11` with one
//! virtual monitor, on the desktop's session bus. A second bus stands in for the system bus
//! (logind, polkit and GDM are absent: the shell warns and goes on). Measured on Debian 12
//! (gnome-shell 43.9, as root): ready in about 1.5 s, owning mutter's RemoteDesktop and
//! ScreenCast. Unsafe mode opens its window list and screenshots to the tests' oracles: a
//! test desktop only. The shell ends its start-up in its overview, which the desktop leaves.
//! A PipeWire daemon runs beside it for mutter's screen cast streams.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::error::{DesktopError, Result};
use super::wait;

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

/// Waits until `script` answers `true`, within `timeout`.
fn until_true(address: &str, script: &str, timeout: Duration) -> Result<()> {
    let answered = wait::until(timeout, || {
        eval(address, script)
            .ok()
            .filter(|said| said == "(true, 'true')")
    });
    answered.map(|_| ()).ok_or_else(|| DesktopError::NotReady {
        what: format!("gnome-shell's {script:?}"),
        timeout,
        log_tail: String::new(),
    })
}

/// Leaves the overview the shell shows once its start-up is done (hidden earlier, it comes
/// back), so that apps' windows show and take focus.
pub fn leave_overview(address: &str, timeout: Duration) -> Result<()> {
    until_true(address, "!Main.layoutManager._startingUp", timeout)?;
    eval(address, "Main.overview.hide()")?;
    until_true(address, "!Main.overview.visible", timeout)
}

/// The command of a PipeWire daemon, which mutter's screen cast streams need (the pointer's
/// absolute positions go through them).
pub fn pipewire() -> Command {
    let mut cmd = Command::new("pipewire");
    cmd.stdout(Stdio::null()).stdin(Stdio::null());
    cmd
}

/// PipeWire's socket under `runtime`.
pub fn pipewire_socket(runtime: &Path) -> std::path::PathBuf {
    runtime.join("pipewire-0")
}

/// The socket of the shell's Wayland display under `runtime`.
pub fn socket(runtime: &Path) -> std::path::PathBuf {
    runtime.join(DISPLAY)
}

/// The seat's keyboard and pointer on headless GNOME, from a remote desktop session held on
/// a thread of its own until dropped.
pub struct HeldSeat {
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl HeldSeat {
    /// Holds a session on the bus at `address` once mutter has started it.
    pub fn hold(address: &str) -> Result<HeldSeat> {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (held, started) = std::sync::mpsc::channel();
        let address = address.to_owned();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            let Ok(runtime) = runtime else {
                let _ = held.send(Err("no runtime for the seat".to_owned()));
                return;
            };
            runtime.block_on(async move {
                match deskpilot_gnome::Seat::hold(&address).await {
                    Ok(seat) => {
                        let _ = held.send(Ok(()));
                        let _ = stopped.await;
                        drop(seat);
                    }
                    Err(e) => {
                        let _ = held.send(Err(e.to_string()));
                    }
                }
            });
        });
        let mut seat = HeldSeat {
            stop: Some(stop),
            thread: Some(thread),
        };
        match started.recv_timeout(CALL_TIMEOUT * 2) {
            Ok(Ok(())) => Ok(seat),
            Ok(Err(why)) => Err(seat_not_ready(why)),
            Err(_) => {
                seat.stop.take();
                Err(seat_not_ready("no answer".into()))
            }
        }
    }
}

fn seat_not_ready(why: String) -> DesktopError {
    DesktopError::NotReady {
        what: format!("mutter's remote desktop session for the seat's devices ({why})"),
        timeout: CALL_TIMEOUT * 2,
        log_tail: String::new(),
    }
}

impl Drop for HeldSeat {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
