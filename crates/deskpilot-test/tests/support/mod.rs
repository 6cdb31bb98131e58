//! The GTK3 fixture on a test library desktop, shared by the tests and the benchmark.

use std::time::Duration;

use deskpilot_test::{App, Desktop};
use deskpilot_testkit::{Fixture, Oracle, SYSTEM_PYTHON};
use serde_json::json;

/// The GTK3 fixture launched on `desktop`, with its oracle once it says it is ready.
#[allow(dead_code)] // not every test file uses every fixture
pub async fn gtk3_fixture(desktop: &Desktop) -> (App, Oracle) {
    fixture(desktop, Fixture::Gtk3).await
}

/// A fixture app launched on `desktop`, with its oracle once it says it is ready.
pub async fn fixture(desktop: &Desktop, fixture: Fixture) -> (App, Oracle) {
    let dir = desktop.dir().expect("a headless desktop").to_owned();
    let oracle = Oracle::new(dir.join(format!("oracle-{}.jsonl", fixture.name())));
    let app = desktop
        .launch([
            SYSTEM_PYTHON,
            fixture.script().to_str().unwrap(),
            "--oracle",
            oracle.path().to_str().unwrap(),
        ])
        .await
        .unwrap();
    oracle
        .wait_value("app", "ready", json!(true), Duration::from_secs(10))
        .unwrap();
    (app, oracle)
}
