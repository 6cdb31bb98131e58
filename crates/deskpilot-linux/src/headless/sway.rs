//! Headless sway for a private desktop: wlroots' headless backend, the pixman renderer, no
//! input devices. Its Wayland and IPC sockets are in the desktop's runtime directory. sway
//! 1.7 refuses to run as root ("Unable to drop root"). Under root it runs as a system user
//! made for it (`COMPOSITOR_USER`). The bus, the apps and deskpilot stay the caller's, as in
//! a user's session, where they share one user.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::error::{DesktopError, Result};

/// The user headless sway runs as when the caller is root.
pub const COMPOSITOR_USER: &str = "deskpilot-sway";

/// The sockets of a running sway.
#[derive(Debug, Clone)]
pub struct SwaySockets {
    /// The Wayland display's name under the runtime directory (`wayland-1`).
    pub display: String,
    /// The IPC socket (`SWAYSOCK`).
    pub ipc: PathBuf,
}

/// The configuration: one output of the desktop's size, XWayland started on an X client's
/// first connection, no bar, nothing bound.
pub fn config(width: u16, height: u16) -> String {
    format!("xwayland enable\noutput HEADLESS-1 resolution {width}x{height}\n")
}

/// Asks sway for the X display its XWayland listens on: sway sets `DISPLAY` for what it
/// starts, so a program it starts writes it to `file`. Under root, that program first lets
/// root's X clients in (XWayland admits its own user's alone: "Authorization required").
/// Wait for the file afterwards.
pub fn ask_xwayland_display(ipc: &Path, file: &Path) -> Result<()> {
    let sway = deskpilot_wayland::SwayIpc::new(ipc, std::time::Duration::from_secs(3));
    let admit = match nix::unistd::geteuid().is_root() {
        true => "xhost +si:localuser:root > /dev/null && ",
        false => "",
    };
    let command = format!("exec {admit}printenv DISPLAY > {}", file.display());
    sway.command(&command).map_err(|e| DesktopError::NotReady {
        what: format!("sway's XWayland display ({e})"),
        timeout: std::time::Duration::from_secs(3),
        log_tail: String::new(),
    })
}

/// The environment wlroots needs to start headless, with no GPU and no input device.
pub const ENV: [(&str, &str); 3] = [
    ("WLR_BACKENDS", "headless"),
    ("WLR_LIBINPUT_NO_DEVICES", "1"),
    ("WLR_RENDERER", "pixman"),
];

/// Under root, makes `cmd` run as `COMPOSITOR_USER` (created when missing) and gives that user
/// the runtime directory; the desktop's directory becomes traversable (not listable) to it.
pub fn drop_root(cmd: &mut Command, desktop_dir: &Path, runtime: &Path) -> Result<()> {
    if !nix::unistd::geteuid().is_root() {
        return Ok(());
    }
    let user = compositor_user()?;
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| DesktopError::Io { path, source }
    };
    fs::set_permissions(desktop_dir, fs::Permissions::from_mode(0o711)).map_err(io(desktop_dir))?;
    nix::unistd::chown(runtime, Some(user.uid), Some(user.gid)).map_err(|e| DesktopError::Io {
        path: runtime.to_owned(),
        source: e.into(),
    })?;
    std::os::unix::process::CommandExt::uid(cmd, user.uid.as_raw());
    std::os::unix::process::CommandExt::gid(cmd, user.gid.as_raw());
    Ok(())
}

/// `COMPOSITOR_USER`, made a system user with no home and no shell when it does not exist.
fn compositor_user() -> Result<nix::unistd::User> {
    let lookup = || nix::unistd::User::from_name(COMPOSITOR_USER).ok().flatten();
    if let Some(user) = lookup() {
        return Ok(user);
    }
    let status = Command::new("useradd")
        .args([
            "--system",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            COMPOSITOR_USER,
        ])
        .status()
        .map_err(|source| DesktopError::Spawn {
            program: "useradd".into(),
            source,
        })?;
    lookup().ok_or_else(|| DesktopError::Exited {
        program: format!("useradd {COMPOSITOR_USER}"),
        status: status.to_string(),
        stderr_tail: String::new(),
    })
}

/// sway's sockets in `runtime`, once both exist.
pub fn sockets(runtime: &Path) -> Option<SwaySockets> {
    let mut display = None;
    let mut ipc = None;
    for entry in fs::read_dir(runtime).ok()?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("wayland-") && !name.ends_with(".lock") {
            display = Some(name);
        } else if name.starts_with("sway-ipc.") && name.ends_with(".sock") {
            ipc = Some(entry.path());
        }
    }
    Some(SwaySockets {
        display: display?,
        ipc: ipc?,
    })
}
