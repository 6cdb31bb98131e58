//! `cargo xtask bench testlib`: how soon an `expect` sees a change after it happens, and what
//! an action through a locator (or a pack's control) costs over the engine's own call, on the
//! GTK3 fixture.
//!
//! The change: the fixture's timer sets a label to "Done" 1.5 s after a click; the moment it
//! happened is when the fixture's oracle file got the line (watched every 2 ms by a thread),
//! not anything deskpilot reports.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use deskpilot_core::{Action, OnOff, Selector, Target};
use deskpilot_test::{Desktop, Role, expect};
use serde_json::json;

#[path = "../tests/support/mod.rs"]
mod support;

const ROUNDS: usize = 12;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// Lines in the oracle file that say the label reads "Done".
fn done_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("\"delayed\"") && l.contains("\"Done\""))
        .count()
}

/// Watches the oracle file on a thread until it has `count` "Done" lines; the moment it saw
/// the last one.
fn watch(
    path: PathBuf,
    count: usize,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Option<Instant>> {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            if done_lines(&path) >= count {
                return Some(Instant::now());
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let desktop = Desktop::headless()
        .await
        .unwrap()
        .with_timeout(Duration::from_secs(10));
    let (app, oracle) = support::gtk3_fixture(&desktop).await;

    // How soon expect sees the label change.
    let start = app.get_by_role(Role::Button).name("Start timer");
    let done = app.get_by_role(Role::Label).name("Done");
    let mut latencies = Vec::new();
    for round in 1..=ROUNDS {
        start.click().await.unwrap();
        expect(&app.get_by_role(Role::Label).name("Waiting"))
            .to_be_visible()
            .await
            .unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = watch(oracle.path().to_owned(), round, stop.clone());
        expect(&done).to_be_visible().await.unwrap();
        let seen = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let happened = watcher.join().unwrap().expect("the oracle saw the change");
        latencies.push(seen.saturating_duration_since(happened).as_secs_f64() * 1000.0);
    }

    // An action through a locator against the engine's own call (a checkbox toggled on and
    // off, confirmed each time), and through the shipped pack's name for it.
    let notify = app.get_by_role(Role::Checkbox).name_contains("notif");
    let by_name = app.locator("@gtk3-fixture/notifications");
    let mut through_pack = Vec::new();
    let selector = Selector::parse("checkbox[name*=notif]").unwrap();
    let engine = desktop.engine();
    let session = app.session().to_owned();
    let mut through_locator = Vec::new();
    let mut through_engine = Vec::new();
    for _ in 0..ROUNDS {
        let t = Instant::now();
        notify.check().await.unwrap().expect_confirmed().unwrap();
        notify.uncheck().await.unwrap().expect_confirmed().unwrap();
        through_locator.push(t.elapsed().as_secs_f64() * 1000.0 / 2.0);
        let t = Instant::now();
        by_name.check().await.unwrap().expect_confirmed().unwrap();
        by_name.uncheck().await.unwrap().expect_confirmed().unwrap();
        through_pack.push(t.elapsed().as_secs_f64() * 1000.0 / 2.0);
        let t = Instant::now();
        for want in [OnOff::On, OnOff::Off] {
            let action = Action::Toggle { ensure: Some(want) };
            engine
                .session(&session)
                .unwrap()
                .act(&Target::Selector(selector.clone()), &action)
                .await
                .unwrap();
        }
        through_engine.push(t.elapsed().as_secs_f64() * 1000.0 / 2.0);
    }
    let (p50, p90) = (
        median(latencies.clone()),
        percentile(latencies.clone(), 0.9),
    );
    let (lib, eng, pack) = (
        median(through_locator),
        median(through_engine),
        median(through_pack),
    );
    println!(
        "expect sees a change: p50 {p50:.1} ms, p90 {p90:.1} ms, max {:.1} ms ({ROUNDS} changes; target p50 <= 50 ms: {})",
        latencies.iter().cloned().fold(0.0, f64::max),
        if p50 <= 50.0 { "met" } else { "not met" }
    );
    println!(
        "a confirmed toggle: through a locator {lib:.1} ms, the engine's own call {eng:.1} ms (overhead {:.1} ms, medians of {ROUNDS})",
        lib - eng
    );
    println!(
        "the same through a pack's control (@gtk3-fixture/notifications): {pack:.1} ms (its selectors tried at each use: {:+.1} ms over the locator)",
        pack - lib
    );
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    std::fs::create_dir_all(&out).unwrap();
    let report = json!({
        "expect_latency_ms": {"p50": p50, "p90": p90, "all": latencies},
        "toggle_ms": {"locator": lib, "engine": eng, "pack_control": pack},
    });
    std::fs::write(out.join("testlib.json"), report.to_string()).unwrap();
}
