//! The Debian packages deskpilot's tests and demo need, installed when missing.

use std::process::Command;

use anyhow::{Context, bail};

/// The headless desktop and the GTK 3 fixture: all that `cargo xtask demo` needs.
pub const DESKTOP_PACKAGES: &[&str] = &[
    "xvfb",
    "openbox",
    "dbus-daemon",
    "at-spi2-core",
    // The fixture, through PyGObject, run by Debian's python3.
    "python3",
    "python3-gi",
    "gir1.2-gtk-3.0",
    "libatk-adaptor",
    "fonts-dejavu-core",
    "adwaita-icon-theme",
];

/// What the test suite adds to `DESKTOP_PACKAGES`. Keep in sync with README.md.
pub const PACKAGES: &[&str] = &[
    // The other fixtures: GTK 4 through PyGObject, Qt through PyQt5 and PyQt6 (its xcb
    // platform plugin comes apart).
    "gir1.2-gtk-4.0",
    "python3-pyqt5",
    "python3-pyqt6",
    "qt6-qpa-plugins",
    // LibreOffice Calc for the guard test (its sheet reports 2^31 - 1 children); LibreOffice
    // shows itself on AT-SPI only through its GTK 3 plugin.
    "libreoffice-calc",
    "libreoffice-gtk3",
    // Writer for the action matrix's typing row (its paragraphs take EditableText).
    "libreoffice-writer",
    // Chromium, to check that list_apps flags a browser without accessibility as blind.
    "chromium",
    // Third-party apps of the real-app tests: a GTK 3 editor, a GTK 4 calculator and widget
    // gallery, a Qt 5 editor, a GTK 3 file manager.
    "mousepad",
    "gnome-calculator",
    "gtk-4-examples",
    // gtk3-widget-factory: a GTK 3 app nobody tuned for, frozen by the frozen-app test.
    "gtk-3-examples",
    "featherpad",
    // A file manager for drag and drop judged by the file system; a word processor whose
    // Save As enables Save late.
    "thunar",
    "abiword",
    // The task suite's GTK 4 with libadwaita and Qt 5 with KDE Frameworks apps.
    "gnome-text-editor",
    "kcalc",
    // Firefox ESR: the real-browser tests (reads must never crash it; text outside the BMP).
    "firefox-esr",
    // A venv for the official MCP Python SDK (PyPI `mcp`), which tests `deskpilot mcp`.
    "python3-venv",
    // prlimit, to cap Calc's address space in that test.
    "util-linux",
    // The pyatspi comparison walk of the benchmark, and debugging by hand.
    "python3-pyatspi",
    "x11-utils",
    // Issue 39's apps nobody tuned for: a Qt 5 checklist (kdialog), GTK 3 forms (yad,
    // zenity), a Qt 5 editor with a status bar (KWrite).
    "kdialog",
    "yad",
    "zenity",
    "kwrite",
    // Wayland: headless sway (its user, `deskpilot-sway`, comes from `useradd` in `passwd`),
    // XWayland for X11 apps on it (xhost lets root's clients in), grim as the screenshots'
    // oracle, and Qt's Wayland platform.
    "sway",
    "xwayland",
    "x11-xserver-utils",
    "grim",
    "qtwayland5",
    "passwd",
    // GNOME on Wayland: headless GNOME Shell (43.9 on Debian 12), asked through gdbus,
    // PipeWire for mutter's screen cast streams (the pointer's absolute positions), and a
    // GTK 4 editor of GNOME's own (gnome-text-editor).
    "gnome-shell",
    "libglib2.0-bin",
    "pipewire",
    "gnome-text-editor",
    // The container image (`cargo xtask image`) and its pods: podman with runc (crun fails
    // here), buildah, and debootstrap for the Debian base.
    "podman",
    "buildah",
    "runc",
    "debootstrap",
    // The pause process of `podman kube play`'s pods.
    "catatonit",
];

/// Commands the tests need from whichever package gives them: the package named is
/// installed only when the command is not on PATH (`kubectl` may come from Kubernetes' own
/// repository, which conflicts with Debian's package).
pub const COMMANDS: &[(&str, &str)] = &[("kubectl", "kubernetes-client")];

/// What the benchmarks add: the real applications they measure.
pub const BENCH_PACKAGES: &[&str] = &[];

fn installed(package: &str) -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", package])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        .unwrap_or(false)
}

/// What `cargo xtask deb` makes the Debian package with: dpkg-shlibdeps, strip, gzip.
pub const PACKAGING: &[&str] = &["dpkg-dev", "binutils", "gzip"];

/// Installs what the tests and the demo need.
pub fn ensure_packages() -> anyhow::Result<()> {
    let mut wanted = [DESKTOP_PACKAGES, PACKAGES, PACKAGING].concat();
    let missing = COMMANDS.iter().filter(|(command, _)| !on_path(command));
    wanted.extend(missing.map(|(_, package)| *package));
    ensure(&wanted)
}

/// Whether `command` is a file in a directory of PATH.
fn on_path(command: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).any(|dir| dir.join(command).is_file())
}

/// Installs what is missing (as root), or prints the exact apt-get line and fails.
pub fn ensure(packages: &[&str]) -> anyhow::Result<()> {
    let missing: Vec<&str> = packages.iter().copied().filter(|p| !installed(p)).collect();
    if missing.is_empty() {
        eprintln!(
            "xtask: all {} Debian packages are installed",
            packages.len()
        );
        return Ok(());
    }
    let line = format!(
        "apt-get install -y --no-install-recommends {}",
        missing.join(" ")
    );
    if !nix::unistd::geteuid().is_root() {
        bail!("missing Debian packages; run as root:\n  sudo apt-get update && sudo {line}");
    }
    eprintln!("xtask: installing {}", missing.join(" "));
    apt(&["update", "-q"])?;
    let mut args = vec!["install", "-y", "-q", "--no-install-recommends"];
    args.extend(&missing);
    apt(&args)?;
    let still: Vec<&str> = missing.into_iter().filter(|p| !installed(p)).collect();
    if !still.is_empty() {
        bail!(
            "apt-get ran but these are still missing: {}",
            still.join(" ")
        );
    }
    Ok(())
}

fn apt(args: &[&str]) -> anyhow::Result<()> {
    let status = Command::new("apt-get")
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .context("running apt-get")?;
    if !status.success() {
        bail!("apt-get {} failed: {status}", args.join(" "));
    }
    Ok(())
}
