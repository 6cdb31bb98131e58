//! `cargo xtask bench hostile`: what hostile apps cost. The 9,300-label GTK 3 box read by the
//! CLI (a fresh process: it meets the slow answer) and by the engine (first and later reads);
//! and the latency of another app's snapshot (the GTK 3 fixture, already met, median of 5)
//! while the hostile AT-SPI app is read in each misbehaviour. Results go to
//! target/bench/hostile.json.

#[path = "../tests/support/cli.rs"]
mod support_cli;
#[path = "../tests/support/engine.rs"]
mod support_engine;

use std::time::Instant;

use deskpilot_core::{ConnectTarget, Engine, Filter, Selector, SnapshotRequest};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::{Map, Value, json};
use support_cli::deskpilot;
use support_engine::engine_on;

const RUNS: usize = 5;
const MODES: [&str; 17] = [
    "normal",
    "cycle",
    "shared",
    "bad_index",
    "count_zero",
    "count_million",
    "deep",
    "huge_name",
    "forged",
    "wrong_types",
    "slow",
    "flaky",
    "vanishing",
    "items_100k",
    "nan_value",
    "unknown_states",
    "flood",
];

fn ms(started: Instant) -> f64 {
    (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0
}

/// The CLI's snapshot of `title`, in ms (it must succeed).
fn cli_snapshot(desktop: &VirtualDesktop, title: &str) -> f64 {
    let started = Instant::now();
    let out = deskpilot(desktop, &["snapshot", "--filter", "all", title]);
    let took = ms(started);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

async fn connect(engine: &Engine, name: &str) -> String {
    let target = ConnectTarget::AppName(name.into());
    engine.connect(&target).await.unwrap().id
}

/// One snapshot's wall time in ms (it may fail: a hostile app's may).
async fn snapshot_ms(engine: &Engine, session: &str) -> f64 {
    let request = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let started = Instant::now();
    let _ = engine.session(session).unwrap().snapshot(&request).await;
    ms(started)
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let desktop = VirtualDesktop::start().unwrap();
        let _other = desktop.launch_fixture(Fixture::Gtk3).unwrap();
        let _labels = desktop.launch_fixture(Fixture::HostileLabels).unwrap();
        let mut hostile = desktop.launch_fixture(Fixture::HostileAtspi).unwrap();
        let title = Fixture::HostileLabels.window_title();
        let labels_cli = json!({
            "first_ms": cli_snapshot(&desktop, title),
            "again_ms": cli_snapshot(&desktop, title),
        });
        let (_, engine) = engine_on(&desktop).await;
        let labels = connect(&engine, Fixture::HostileLabels.app_name()).await;
        let labels_engine = json!({
            "first_ms": snapshot_ms(&engine, &labels).await,
            "again_ms": snapshot_ms(&engine, &labels).await,
        });
        println!("9,300 labels: CLI {labels_cli}, engine {labels_engine}");

        let other = connect(&engine, Fixture::Gtk3.app_name()).await;
        // Read once first: every mode's figure is then a read of an app already met (what is
        // kept of it reused while its events say nothing changed).
        snapshot_ms(&engine, &other).await;
        let session = connect(&engine, Fixture::HostileAtspi.app_name()).await;
        let labels_selector = Selector::parse("label").unwrap();
        let mut others = Map::new();
        for mode in MODES {
            hostile.run("mode", json!({ "mode": mode })).unwrap();
            let hostile_reads = async {
                for _ in 0..RUNS {
                    snapshot_ms(&engine, &session).await;
                    let _ = engine
                        .session(&session)
                        .unwrap()
                        .find(&labels_selector, None, 10)
                        .await;
                }
            };
            let other_reads = async {
                let mut times = Vec::new();
                for _ in 0..RUNS {
                    times.push(snapshot_ms(&engine, &other).await);
                }
                times.sort_by(f64::total_cmp);
                times[RUNS / 2]
            };
            let ((), median) = tokio::join!(hostile_reads, other_reads);
            println!("{mode}: the other app's snapshot {median} ms (median of {RUNS})");
            others.insert(mode.to_owned(), Value::from(median));
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
        std::fs::create_dir_all(&dir).unwrap();
        let json = json!({
            "labels_9300_cli": labels_cli,
            "labels_9300_engine": labels_engine,
            "other_app_snapshot_median_ms": others,
        });
        std::fs::write(
            dir.join("hostile.json"),
            serde_json::to_string_pretty(&json).unwrap(),
        )
        .unwrap();
    });
}
