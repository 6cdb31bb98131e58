//! The recorded agent session's apps (deskpilot-cli's `tests/python/sdk_record.py`) and how
//! a replay of each is judged: by an oracle that is not deskpilot (pyatspi reading the app,
//! the fixture's own oracle file). The round trip judges the session, its pipeline and its
//! workflow with these; deskpilot-test's `exported` target judges the exported tests.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;

use crate::{Oracle, VirtualDesktop};

/// What the session types into Mousepad.
pub const TYPED: &str = "Dear diary: recorded.";
/// What the session fills into the GTK 3 fixture's name field.
pub const NAME: &str = "Ada Lovelace";
/// The GTK 3 fixture as the session starts it: relative to a crate's directory, where cargo
/// runs tests, so that an export holds no path of this machine.
pub const FIXTURE_SCRIPT: &str = "../../fixtures/gtk3/fixture.py";

/// An app of the recorded session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replayed {
    Mousepad,
    Gtk3Fixture,
    Calculator,
}

impl Replayed {
    pub const ALL: [Replayed; 3] = [
        Replayed::Mousepad,
        Replayed::Gtk3Fixture,
        Replayed::Calculator,
    ];

    /// Its name on the accessibility bus, as the recording's header has it.
    pub fn app(self) -> &'static str {
        match self {
            Replayed::Mousepad => "mousepad",
            Replayed::Gtk3Fixture => "deskpilot-gtk3-fixture",
            Replayed::Calculator => "gnome-calculator",
        }
    }

    /// The module of its golden export in deskpilot-test's `exported` target.
    pub fn module(self) -> &'static str {
        match self {
            Replayed::Mousepad => "mousepad",
            Replayed::Gtk3Fixture => "gtk3_fixture",
            Replayed::Calculator => "gnome_calculator",
        }
    }

    /// Its golden export: `crates/deskpilot-test/tests/exported/MODULE.rs`.
    pub fn golden(self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../deskpilot-test/tests/exported")
            .join(format!("{}.rs", self.module()))
    }

    /// The exported test's name in the `exported` target (the export names its function
    /// after the app).
    pub fn test_name(self) -> String {
        let function = self.app().replace('-', "_");
        format!("{}::{function}_replays", self.module())
    }

    /// Whether what the session did is on `desktop`, by the oracle: Mousepad's text and
    /// Calculator's display read by pyatspi, the fixture's fields by its oracle file.
    pub fn judge(self, desktop: &VirtualDesktop) -> Result<(), String> {
        let shows = |app: &str, text: &str| match desktop.pyatspi_shows(app, text) {
            true => Ok(()),
            false => Err(format!("pyatspi sees no {text:?} in {app}")),
        };
        match self {
            Replayed::Mousepad => shows("mousepad", TYPED),
            Replayed::Calculator => shows("gnome-calculator", "42"),
            Replayed::Gtk3Fixture => {
                let oracle = desktop.fixture_oracle();
                let wait = Duration::from_secs(10);
                let found = [
                    ("name", "text", json!(NAME)),
                    ("check", "checked", json!(true)),
                    ("counter", "clicks", json!(1)),
                ];
                for (widget, prop, value) in found {
                    oracle
                        .wait_value(widget, prop, value, wait)
                        .map_err(|e| format!("the fixture's {widget}.{prop}: {e}"))?;
                }
                Ok(())
            }
        }
    }
}

impl VirtualDesktop {
    /// The oracle a fixture started without `--oracle` writes: in the desktop's
    /// `XDG_STATE_HOME` (`fixtures/fixturelib.py`).
    pub fn fixture_oracle(&self) -> Oracle {
        Oracle::new(
            self.xdg("XDG_STATE_HOME")
                .join("deskpilot-fixtures/oracle.jsonl"),
        )
    }

    /// The layout the fixtures started from now on take (`fixtures/fixturelib.py`'s
    /// `LAYOUTS`): their setting, in the desktop's `XDG_CONFIG_HOME`.
    pub fn set_fixture_layout(&self, layout: &str) -> std::io::Result<()> {
        let dir = self.xdg("XDG_CONFIG_HOME").join("deskpilot-fixtures");
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("layout"), layout)
    }

    fn xdg(&self, variable: &str) -> PathBuf {
        let found = self.env().into_iter().find(|(k, _)| k == variable);
        found.map(|(_, v)| PathBuf::from(v)).expect(variable)
    }
}
