//! The fixture apps under `fixtures/`, launched on a desktop with an oracle file.

use std::path::PathBuf;
use std::time::Duration;

use crate::VirtualDesktop;
use crate::oracle::Oracle;
use crate::{App, LaunchOptions, Registration};
use crate::{DesktopError, Result};
use deskpilot_linux::headless::wait;

/// Debian's Python: the one that sees python3-gi, pyatspi and PyQt5 (the `python3` first on
/// PATH may be another build).
pub const SYSTEM_PYTHON: &str = "/usr/bin/python3";

/// The fixture apps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fixture {
    Gtk3,
    Gtk4,
    Qt5,
    /// The Qt5 fixture on PyQt6 (`fixtures/qt6/fixture.py`).
    Qt6,
    /// `fixtures/hostile/labels.py`: a GTK 3 window whose one box holds 9,300 labels
    /// (`--labels N` for another count). Its only commands are `quit`.
    HostileLabels,
    /// `fixtures/hostile/fixture.py`: an app speaking AT-SPI by hand, switched into one
    /// misbehaviour at a time (`{"cmd": "mode", "mode": ...}`, see its `MODES`).
    HostileAtspi,
    /// `fixtures/hostile/ok_dialog.py`: a form whose OK ends the program after a silence
    /// (`--on-ok exit`, as zenity's) or freezes it (`--on-ok freeze`).
    HostileOk,
}

impl Fixture {
    /// The fixtures of every common widget, which obey the shared control commands.
    pub const ALL: [Fixture; 4] = [Fixture::Gtk3, Fixture::Gtk4, Fixture::Qt5, Fixture::Qt6];

    /// Name of the fixture (its oracle file is named after it).
    pub fn name(self) -> &'static str {
        match self {
            Fixture::Gtk3 => "gtk3",
            Fixture::Gtk4 => "gtk4",
            Fixture::Qt5 => "qt5",
            Fixture::Qt6 => "qt6",
            Fixture::HostileLabels => "hostile-labels",
            Fixture::HostileAtspi => "hostile",
            Fixture::HostileOk => "hostile-ok",
        }
    }

    /// The title of the fixture's main window.
    pub fn window_title(self) -> &'static str {
        match self {
            Fixture::Gtk3 => "deskpilot GTK3 fixture",
            Fixture::Gtk4 => "deskpilot GTK4 fixture",
            Fixture::Qt5 => "deskpilot Qt5 fixture",
            Fixture::Qt6 => "deskpilot Qt6 fixture",
            Fixture::HostileLabels => "deskpilot hostile labels",
            Fixture::HostileAtspi => "deskpilot hostile",
            Fixture::HostileOk => "deskpilot hostile ok",
        }
    }

    /// The name it registers under on the accessibility bus.
    pub fn app_name(self) -> &'static str {
        match self {
            Fixture::Gtk3 => "deskpilot-gtk3-fixture",
            Fixture::Gtk4 => "deskpilot-gtk4-fixture",
            Fixture::Qt5 => "deskpilot-qt5-fixture",
            Fixture::Qt6 => "deskpilot-qt6-fixture",
            Fixture::HostileLabels => "deskpilot-hostile-labels",
            Fixture::HostileAtspi => "deskpilot-hostile",
            Fixture::HostileOk => "deskpilot-hostile-ok",
        }
    }

    /// Path of the fixture's script.
    pub fn script(self) -> PathBuf {
        match self {
            Fixture::HostileLabels => fixtures_dir().join("hostile").join("labels.py"),
            Fixture::HostileAtspi => fixtures_dir().join("hostile").join("fixture.py"),
            Fixture::HostileOk => fixtures_dir().join("hostile").join("ok_dialog.py"),
            _ => fixtures_dir().join(self.name()).join("fixture.py"),
        }
    }
}

/// `fixtures/` of this repository (or `DESKPILOT_FIXTURES` when set).
pub fn fixtures_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("DESKPILOT_FIXTURES") {
        return dir.into();
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// A running fixture app and the oracle it writes.
pub struct FixtureApp {
    pub fixture: Fixture,
    pub app: App,
    pub oracle: Oracle,
}

impl FixtureApp {
    /// Sends a control command (one JSON object per line on the fixture's stdin), e.g.
    /// `{"cmd": "reorder_list"}`. Lets tests change the app without going through deskpilot.
    pub fn command(&mut self, cmd: &str, args: serde_json::Value) -> std::io::Result<()> {
        let mut line = serde_json::json!({ "cmd": cmd });
        if let (Some(obj), serde_json::Value::Object(extra)) = (line.as_object_mut(), args) {
            obj.extend(extra);
        }
        self.app.send_line(&line.to_string())
    }

    /// Sends a control command and waits (at most 5 s) until the fixture reports it done:
    /// the fixture reports after the command's handler ran, so its change is made.
    pub fn run(&mut self, cmd: &str, args: serde_json::Value) -> Result<()> {
        let before = self.oracle.events()?.len();
        self.command(cmd, args).map_err(|source| DesktopError::Io {
            path: self.oracle.path().to_owned(),
            source,
        })?;
        let done = wait::until(Duration::from_secs(5), || {
            let events = self.oracle.events().ok()?;
            events
                .get(before..)?
                .iter()
                .any(|e| e.widget == "control" && e.value == serde_json::json!(cmd))
                .then_some(())
        });
        done.ok_or_else(|| DesktopError::Oracle(format!("{cmd} not reported done within 5 s")))
    }

    pub fn pid(&self) -> u32 {
        self.app.pid()
    }
}

impl VirtualDesktop {
    /// Launches a fixture app with a fresh oracle file and waits until it is registered on the
    /// AT-SPI bus and has reported `{"widget": "app", "prop": "ready", "value": true}`.
    pub fn launch_fixture(&self, fixture: Fixture) -> Result<FixtureApp> {
        self.launch_fixture_with_args(fixture, &[])
    }

    /// Same as [`Self::launch_fixture`] with extra arguments for the fixture script
    /// (e.g. `--crash-at-start`).
    pub fn launch_fixture_with_args(&self, fixture: Fixture, args: &[&str]) -> Result<FixtureApp> {
        let oracle = Oracle::new(self.log_path(&format!("oracle-{}", fixture.name()), "jsonl"));
        let mut cmd = self.command(SYSTEM_PYTHON);
        cmd.arg(fixture.script())
            .arg("--oracle")
            .arg(oracle.path())
            .args(args);
        let app = self.launch_with(
            cmd,
            LaunchOptions {
                registration: Registration::Within(Duration::from_secs(30)),
            },
        )?;
        oracle.wait_value(
            "app",
            "ready",
            serde_json::Value::Bool(true),
            Duration::from_secs(10),
        )?;
        Ok(FixtureApp {
            fixture,
            app,
            oracle,
        })
    }
}
