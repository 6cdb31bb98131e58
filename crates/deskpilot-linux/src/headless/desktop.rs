//! `HeadlessDesktop`: one private headless desktop, started for one test and stopped on drop.

use std::ffi::OsString;
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use super::bus::{Bus, RegisteredApp};
use super::error::{DesktopError, Result};
use super::gnome;
use super::procs::{self, MARKER_VAR};
use super::sway::{self, SwaySockets};
use super::tail::tail_of_file;
use super::wait;
use super::x11::Display;

/// A file named here gets a line per desktop started (`cargo xtask test` proves with it that
/// its desktop tier ran desktops).
pub const STARTED_LOG_VAR: &str = "DESKPILOT_DESKTOPS_STARTED";

/// How long each part of the desktop may take to come up.
const START_TIMEOUT: Duration = Duration::from_secs(15);

/// Options for [`HeadlessDesktop::start_with`].
#[derive(Debug, Clone)]
pub struct DesktopOptions {
    /// Screen size in pixels.
    pub width: u16,
    pub height: u16,
    /// Start openbox (EWMH window manager) on Xvfb. Without one every window opens at (0,0).
    pub window_manager: bool,
    /// The display server.
    pub server: DisplayServer,
}

/// The display server a private desktop runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DisplayServer {
    /// Xvfb, with openbox when `window_manager` is set.
    #[default]
    Xvfb,
    /// Headless sway (`sway.rs`): a Wayland session, apps native on Wayland.
    Sway,
    /// Headless GNOME Shell (`gnome.rs`): mutter's Wayland session, apps native on it.
    Gnome,
}

impl Default for DesktopOptions {
    fn default() -> Self {
        DesktopOptions {
            width: 1280,
            height: 800,
            window_manager: true,
            server: DisplayServer::Xvfb,
        }
    }
}

/// A private headless desktop: Xvfb on a display of its own, a D-Bus session daemon with its own
/// runtime directory, the AT-SPI bus (activated before any app starts) and openbox.
///
/// Everything it starts, and everything those start (D-Bus activation included), is stopped by
/// pid when it is dropped, also when the test panics.
pub struct HeadlessDesktop {
    id: String,
    dir: tempfile::TempDir,
    display: String,
    session_address: String,
    options: DesktopOptions,
    sway: Option<SwaySockets>,
    /// The X display sway's XWayland listens on (started on the first X client).
    xwayland: Option<String>,
    /// The seat's own keyboard and pointer on sway (a headless compositor has none), held
    /// from the start: an app that starts after them binds them at once, while one that saw
    /// them arrive later could miss the first input sent.
    seat: Option<deskpilot_wayland::WaylandInput>,
    /// The same on headless GNOME: a remote desktop session of the desktop's own.
    gnome_seat: Option<gnome::HeldSeat>,
    bus: Option<Bus>,
    children: Vec<Child>,
    /// Stdout pipes of Xvfb and dbus-daemon, kept open so neither writes into a closed pipe.
    pipes: Vec<BufReader<ChildStdout>>,
    next_log: AtomicU32,
}

impl HeadlessDesktop {
    /// Starts a desktop with the default options (1280x800, openbox).
    pub fn start() -> Result<Self> {
        Self::start_with(DesktopOptions::default())
    }

    pub fn start_with(options: DesktopOptions) -> Result<Self> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        procs::become_subreaper();
        let id = format!(
            "{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let dir = tempfile::Builder::new()
            .prefix("deskpilot-desktop-")
            .tempdir()
            .map_err(|source| DesktopError::Io {
                path: std::env::temp_dir(),
                source,
            })?;
        let mut desktop = HeadlessDesktop {
            id,
            dir,
            display: String::new(),
            session_address: String::new(),
            options,
            sway: None,
            xwayland: None,
            seat: None,
            gnome_seat: None,
            bus: None,
            children: Vec::new(),
            pipes: Vec::new(),
            next_log: AtomicU32::new(0),
        };
        // On any error below, dropping `desktop` stops what was started so far.
        desktop.make_dirs()?;
        match desktop.options.server {
            DisplayServer::Xvfb => {
                desktop.start_xvfb()?;
                desktop.start_dbus()?;
                desktop.bus = Some(Bus::activate(&desktop.session_address)?);
                desktop.ensure_at_spi_bus_property()?;
                if desktop.options.window_manager {
                    desktop.start_window_manager()?;
                }
            }
            DisplayServer::Sway => {
                // First: the bus and what it activates inherit the Wayland display.
                desktop.start_sway()?;
                desktop.start_dbus()?;
                desktop.bus = Some(Bus::activate(&desktop.session_address)?);
            }
            DisplayServer::Gnome => {
                // The shell needs the session bus first.
                desktop.start_dbus()?;
                desktop.start_gnome()?;
                desktop.bus = Some(Bus::activate(&desktop.session_address)?);
            }
        }
        desktop.log_start();
        Ok(desktop)
    }

    fn log_start(&self) {
        let Some(path) = std::env::var_os(STARTED_LOG_VAR) else {
            return;
        };
        let line = format!("{} {}\n", self.id, self.display);
        let written = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| std::io::Write::write_all(&mut file, line.as_bytes()));
        if let Err(e) = written {
            tracing::warn!("cannot record the desktop's start in {path:?}: {e}");
        }
    }

    /// The X display, e.g. `:12`; empty on sway.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The Wayland display's name (`wayland-1`) on sway or GNOME.
    pub fn wayland_display(&self) -> Option<&str> {
        match self.options.server {
            DisplayServer::Gnome => Some(gnome::DISPLAY),
            _ => self.sway.as_ref().map(|s| s.display.as_str()),
        }
    }

    /// The X display of sway's XWayland, for X11 apps on sway (`GDK_BACKEND=x11`).
    pub fn xwayland_display(&self) -> Option<&str> {
        self.xwayland.as_deref()
    }

    /// sway's IPC socket (`SWAYSOCK`).
    pub fn sway_socket(&self) -> Option<&Path> {
        self.sway.as_ref().map(|s| s.ipc.as_path())
    }

    /// Where deskpilot reaches the compositor on sway or GNOME.
    pub fn wayland(&self) -> Option<crate::WaylandSession> {
        if self.options.server == DisplayServer::Gnome {
            return Some(crate::WaylandSession {
                socket: gnome::socket(&self.runtime_dir()),
                sway: None,
                gnome: true,
            });
        }
        self.sway.as_ref().map(|s| crate::WaylandSession {
            socket: self.runtime_dir().join(&s.display),
            sway: Some(s.ipc.clone()),
            gnome: false,
        })
    }

    /// The runtime directory (`XDG_RUNTIME_DIR`): the buses' and the compositor's sockets.
    pub fn runtime_dir(&self) -> PathBuf {
        self.dir.path().join("runtime")
    }

    /// The address of the private D-Bus session bus.
    pub fn session_bus_address(&self) -> &str {
        &self.session_address
    }

    /// The address of the AT-SPI accessibility bus of this desktop.
    pub fn a11y_bus_address(&self) -> &str {
        self.bus().a11y_address()
    }

    /// The desktop's private directory (runtime dir, logs, oracles).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The marker that stamps this desktop's processes (`DESKPILOT_DESKTOP=<id>`).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The exact environment given to every process started on this desktop. Nothing of the
    /// caller's environment leaks in beyond PATH, USER and the terminal; HOME is the desktop's own.
    /// The desktop's environment as strings (for a launcher).
    pub fn env_strings(&self) -> Vec<(String, String)> {
        self.env()
            .into_iter()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                )
            })
            .collect()
    }

    pub fn env(&self) -> Vec<(OsString, OsString)> {
        let dir = self.dir.path();
        let mut env: Vec<(OsString, OsString)> = Vec::new();
        for keep in ["PATH", "USER", "LOGNAME", "TERM"] {
            if let Some(value) = std::env::var_os(keep) {
                env.push((keep.into(), value));
            }
        }
        let set = [
            (MARKER_VAR, OsString::from(&self.id)),
            ("LANG", "C.UTF-8".into()),
            (
                "DBUS_SESSION_BUS_ADDRESS",
                OsString::from(&self.session_address),
            ),
            // A private home: apps keep state there (autosaves, first-run questions), and
            // none of the user's may leak into a test.
            ("HOME", dir.join("home").into()),
            ("XDG_RUNTIME_DIR", dir.join("runtime").into()),
            ("XDG_CONFIG_HOME", dir.join("config").into()),
            ("XDG_CACHE_HOME", dir.join("cache").into()),
            ("XDG_DATA_HOME", dir.join("data").into()),
            ("XDG_STATE_HOME", dir.join("state").into()),
            // No dconf-service activation, no portal round trips.
            ("GSETTINGS_BACKEND", "memory".into()),
            ("GTK_USE_PORTAL", "0".into()),
            ("NO_AT_BRIDGE", "0".into()),
            // GTK4 under Xvfb burns CPU on GL emulation and registers late without this.
            ("GSK_RENDERER", "cairo".into()),
            ("LIBGL_ALWAYS_SOFTWARE", "1".into()),
            // Qt exposes itself on AT-SPI only when asked to.
            ("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1".into()),
            ("QT_ACCESSIBILITY", "1".into()),
            ("PYTHONUNBUFFERED", "1".into()),
        ];
        env.extend(set.into_iter().map(|(k, v)| (k.into(), v)));
        env.extend(self.server_env());
        env
    }

    /// What says which display server apps are on.
    fn server_env(&self) -> Vec<(OsString, OsString)> {
        let set: Vec<(&str, OsString)> = match &self.sway {
            None if self.options.server == DisplayServer::Gnome => vec![
                ("WAYLAND_DISPLAY", gnome::DISPLAY.into()),
                ("XDG_SESSION_TYPE", "wayland".into()),
                ("XDG_CURRENT_DESKTOP", "GNOME".into()),
                ("GDK_BACKEND", "wayland".into()),
                ("QT_QPA_PLATFORM", "wayland".into()),
            ],
            None if self.options.server == DisplayServer::Sway => vec![],
            None => vec![
                ("DISPLAY", OsString::from(&self.display)),
                ("XDG_SESSION_TYPE", "x11".into()),
                ("QT_QPA_PLATFORM", "xcb".into()),
            ],
            Some(sway) => vec![
                ("WAYLAND_DISPLAY", OsString::from(&sway.display)),
                (
                    "DISPLAY",
                    OsString::from(self.xwayland.as_deref().unwrap_or_default()),
                ),
                ("SWAYSOCK", sway.ipc.clone().into()),
                ("XDG_SESSION_TYPE", "wayland".into()),
                ("XDG_CURRENT_DESKTOP", "sway".into()),
                ("GDK_BACKEND", "wayland".into()),
                ("QT_QPA_PLATFORM", "wayland".into()),
            ],
        };
        set.into_iter().map(|(k, v)| (k.into(), v)).collect()
    }

    /// A `Command` for `program` that runs on this desktop with exactly [`Self::env`].
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .envs(self.env())
            .current_dir(self.dir.path());
        cmd
    }

    /// The applications registered on this desktop's AT-SPI bus.
    pub fn registered_apps(&self) -> Result<Vec<RegisteredApp>> {
        self.bus().registered_apps()
    }

    /// Pids of every live process this desktop started, directly or not.
    pub fn processes(&self) -> Vec<u32> {
        procs::marked_pids(Some(&self.id))
    }

    /// Stops everything and reports processes that survived (there should be none).
    pub fn stop(mut self) -> Result<(), Vec<u32>> {
        let left = self.shutdown();
        if left.is_empty() { Ok(()) } else { Err(left) }
    }

    /// A fresh path for a log file in the desktop's directory.
    pub fn log_path(&self, stem: &str, ext: &str) -> PathBuf {
        let n = self.next_log.fetch_add(1, Ordering::Relaxed);
        self.dir.path().join(format!("{stem}-{n}.{ext}"))
    }

    fn bus(&self) -> &Bus {
        self.bus
            .as_ref()
            .expect("the bus is up once start() returned")
    }

    fn make_dirs(&self) -> Result<()> {
        for sub in ["home", "runtime", "config", "cache", "data", "state"] {
            let path = self.dir.path().join(sub);
            fs::create_dir_all(&path).map_err(|source| DesktopError::Io {
                path: path.clone(),
                source,
            })?;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o700))
                .map_err(|source| DesktopError::Io { path, source })?;
        }
        Ok(())
    }

    /// Spawns a helper with the desktop environment, stderr to a log file. Returns the log path.
    fn spawn_helper(&mut self, mut cmd: Command, name: &str) -> Result<(Child, PathBuf)> {
        let log = self.log_path(name, "log");
        let file = fs::File::create(&log).map_err(|source| DesktopError::Io {
            path: log.clone(),
            source,
        })?;
        // What the caller set on `cmd` goes on top of the desktop's environment.
        let own: Vec<(OsString, OsString)> = cmd
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
            .collect();
        cmd.env_clear()
            .envs(self.env())
            .envs(own)
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .stderr(file);
        let child = cmd.spawn().map_err(|source| spawn_error(name, source))?;
        Ok((child, log))
    }

    fn start_xvfb(&mut self) -> Result<()> {
        let mut cmd = Command::new("Xvfb");
        let screen = format!("{}x{}x24", self.options.width, self.options.height);
        cmd.args(["-displayfd", "1", "-screen", "0", &screen])
            .args(["-nolisten", "tcp", "-noreset", "+extension", "XTEST"])
            .stdout(Stdio::piped());
        let (mut child, log) = self.spawn_helper(cmd, "Xvfb")?;
        let stdout = child.stdout.take().expect("piped");
        self.children.push(child);
        let line = self.read_first_line(stdout);
        match line
            .as_deref()
            .map(str::trim)
            .and_then(|l| l.parse::<u32>().ok())
        {
            Some(n) => {
                self.display = format!(":{n}");
                Ok(())
            }
            None => Err(self.not_ready("Xvfb (display number on -displayfd)", &log)),
        }
    }

    fn start_dbus(&mut self) -> Result<()> {
        let socket = self.dir.path().join("runtime").join("bus");
        let mut cmd = Command::new("dbus-daemon");
        cmd.args(["--session", "--nofork", "--nopidfile", "--print-address=1"])
            .arg(format!("--address=unix:path={}", socket.display()))
            .stdout(Stdio::piped());
        let (mut child, log) = self.spawn_helper(cmd, "dbus-daemon")?;
        let stdout = child.stdout.take().expect("piped");
        self.children.push(child);
        match self.read_first_line(stdout) {
            Some(address) if !address.trim().is_empty() => {
                self.session_address = address.trim().to_owned();
                Ok(())
            }
            _ => Err(self.not_ready("dbus-daemon (address on --print-address)", &log)),
        }
    }

    /// Qt 5 (Debian's qtbase 5.15.8) registers on AT-SPI only when the root window's
    /// `AT_SPI_BUS` property already holds the bus address when it starts: it then connects
    /// synchronously, while without it the address arrives after Qt's one deferred `Embed`
    /// attempt, which fails and is never retried. at-spi-bus-launcher sets the property inside
    /// `GetAddress` when it can reach the display, which is why dbus-daemon gets `DISPLAY` and
    /// Xvfb runs with `-noreset` (a server reset when the last client leaves wipes it). This
    /// checks it and sets it if the launcher could not.
    fn ensure_at_spi_bus_property(&self) -> Result<()> {
        let display = Display::open(&self.display)?;
        let address = self.a11y_bus_address();
        if display.at_spi_bus()?.as_deref() != Some(address) {
            eprintln!(
                "deskpilot: AT_SPI_BUS was not set on {}; setting it to {address}",
                self.display
            );
            display.set_at_spi_bus(address)?;
        }
        Ok(())
    }

    /// Starts headless sway and waits until it answers on its Wayland socket, then gives its
    /// seat a keyboard and a pointer.
    fn start_sway(&mut self) -> Result<()> {
        let runtime = self.runtime_dir();
        let config = self.dir.path().join("sway.conf");
        fs::write(
            &config,
            sway::config(self.options.width, self.options.height),
        )
        .map_err(|source| DesktopError::Io {
            path: config.clone(),
            source,
        })?;
        fs::set_permissions(&config, fs::Permissions::from_mode(0o644)).map_err(|source| {
            DesktopError::Io {
                path: config.clone(),
                source,
            }
        })?;
        let mut cmd = Command::new("sway");
        cmd.arg("-c")
            .arg(&config)
            .envs(sway::ENV)
            .stdout(Stdio::null());
        sway::drop_root(&mut cmd, self.dir.path(), &runtime)?;
        let (child, log) = self.spawn_helper(cmd, "sway")?;
        self.children.push(child);
        let seat = wait::until(START_TIMEOUT, || {
            let sockets = sway::sockets(&runtime)?;
            let socket = runtime.join(&sockets.display);
            let seat = deskpilot_wayland::WaylandInput::connect(&socket).ok()?;
            Some((sockets, seat))
        });
        let Some((sockets, seat)) = seat else {
            return Err(self.not_ready("sway (its Wayland socket answering)", &log));
        };
        let file = runtime.join("xwayland-display");
        sway::ask_xwayland_display(&sockets.ipc, &file)?;
        let display = wait::until(START_TIMEOUT, || {
            let text = fs::read_to_string(&file).ok()?;
            Some(text.trim().to_owned()).filter(|d| d.starts_with(':'))
        });
        let Some(display) = display else {
            return Err(self.not_ready("sway's XWayland display (DISPLAY of its children)", &log));
        };
        self.xwayland = Some(display);
        self.sway = Some(sockets);
        self.seat = Some(seat);
        Ok(())
    }

    /// Starts PipeWire and headless GNOME Shell with a stand-in system bus, waits until
    /// mutter's input interface is on the session bus and its Wayland socket is there, and
    /// leaves the overview.
    fn start_gnome(&mut self) -> Result<()> {
        let system = self.runtime_dir().join("system-bus");
        let mut bus = Command::new("dbus-daemon");
        bus.args(["--session", "--nofork", "--nopidfile"])
            .arg(format!("--address=unix:path={}", system.display()))
            .stdout(Stdio::null());
        let (child, _) = self.spawn_helper(bus, "system-bus")?;
        self.children.push(child);
        let (child, log) = self.spawn_helper(gnome::pipewire(), "pipewire")?;
        self.children.push(child);
        let pipewire = gnome::pipewire_socket(&self.runtime_dir());
        if wait::until(START_TIMEOUT, || pipewire.exists().then_some(())).is_none() {
            return Err(self.not_ready("pipewire (its socket)", &log));
        }
        let (width, height) = (self.options.width, self.options.height);
        let mut shell = gnome::command(width, height);
        let system = format!("unix:path={}", system.display());
        shell.env("DBUS_SYSTEM_BUS_ADDRESS", system);
        let (child, log) = self.spawn_helper(shell, "gnome-shell")?;
        self.children.push(child);
        let (address, socket) = (&self.session_address, gnome::socket(&self.runtime_dir()));
        let up = wait::until(START_TIMEOUT, || {
            (socket.exists() && gnome::ready(address)).then_some(())
        });
        if up.is_none() {
            return Err(self.not_ready("gnome-shell (mutter's RemoteDesktop on the bus)", &log));
        }
        self.gnome_seat = Some(gnome::HeldSeat::hold(&self.session_address)?);
        gnome::leave_overview(&self.session_address, START_TIMEOUT)
    }

    fn start_window_manager(&mut self) -> Result<()> {
        let mut cmd = Command::new("openbox");
        cmd.arg("--sm-disable").stdout(Stdio::null());
        let (child, log) = self.spawn_helper(cmd, "openbox")?;
        self.children.push(child);
        let display = Display::open(&self.display)?;
        let ready = wait::until(START_TIMEOUT, || {
            display.has_window_manager().ok().filter(|&up| up)
        });
        if ready.is_none() {
            return Err(self.not_ready("openbox (_NET_SUPPORTING_WM_CHECK)", &log));
        }
        // Openbox 3.6 announces itself before its start ends. The X events waiting then are
        // moved to a queue of its own (`window_manage` -> `xqueue_exists_local`). Its main
        // loop does not look there: it asks only Xlib (`obt/xqueue.c`, `x_source_prepare`).
        // An app's window mapped in that moment stayed unmapped until a later event woke it
        // (its menus then cannot grab, so never open). Asked until its loop answers, the
        // manager has handled everything queued. Test: `window_manager.rs`.
        let probe = display.probe()?;
        let answered = wait::until(START_TIMEOUT, || {
            display.window_manager_answers(&probe).ok().filter(|&up| up)
        });
        match answered {
            Some(_) => Ok(()),
            None => Err(self.not_ready("openbox (_NET_REQUEST_FRAME_EXTENTS)", &log)),
        }
    }

    /// Reads one line from a helper's stdout, giving up after `START_TIMEOUT`; keeps the pipe.
    fn read_first_line(&mut self, stdout: ChildStdout) -> Option<String> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let _ = tx.send((line, reader));
        });
        let (line, reader) = rx.recv_timeout(START_TIMEOUT).ok()?;
        self.pipes.push(reader);
        Some(line)
    }

    fn not_ready(&self, what: &str, log: &Path) -> DesktopError {
        DesktopError::NotReady {
            what: what.to_owned(),
            timeout: START_TIMEOUT,
            log_tail: tail_of_file(log, 20),
        }
    }

    fn shutdown(&mut self) -> Vec<u32> {
        // The bus connection first, so that nothing of ours holds the buses open.
        self.bus = None;
        self.seat = None;
        self.gnome_seat = None;
        let left = procs::stop_marked(&self.id, Duration::from_secs(3));
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.children.clear();
        left
    }
}

impl Drop for HeadlessDesktop {
    fn drop(&mut self) {
        let left = self.shutdown();
        if !left.is_empty() {
            eprintln!(
                "deskpilot: processes {left:?} of desktop {} survived teardown",
                self.id
            );
        }
    }
}

fn spawn_error(program: &str, source: std::io::Error) -> DesktopError {
    if source.kind() == std::io::ErrorKind::NotFound {
        DesktopError::Missing {
            program: program.to_owned(),
            source,
        }
    } else {
        DesktopError::Spawn {
            program: program.to_owned(),
            source,
        }
    }
}
