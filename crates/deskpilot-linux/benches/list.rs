//! `cargo xtask bench list`: what a frozen app (SIGSTOP) costs, on a private headless desktop
//! with two GTK3 fixtures: listing the apps (the first listing after the freeze, then the
//! median of 5 more), and a snapshot of the frozen app's window, each in wall time and
//! timed-out calls. A frozen app should cost one call timeout (1.5 s), once: later calls to
//! it fail at once until it answers again. Writes `target/bench/list.json`.

use std::future::Future;
use std::path::PathBuf;
use std::time::Instant;

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::model::ElementId;
use deskpilot_core::{Backend, WalkLimits};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

const RUNS: usize = 5;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let desktop = VirtualDesktop::start().expect("desktop");
    let frozen = desktop.launch_fixture(Fixture::Gtk3).expect("gtk3 fixture");
    let _alive = desktop.launch_fixture(Fixture::Gtk3).expect("gtk3 fixture");
    let backend = AtspiBackend::connect(ConnectOptions::new(desktop.session_bus_address()))
        .await
        .expect("backend");
    let healthy = time_listings(&backend).await;
    let window = backend.apps().await.expect("apps");
    let window = window
        .iter()
        .find(|a| a.pid == Some(frozen.pid()))
        .expect("the fixture listed")
        .windows[0]
        .id
        .clone();
    let pid = Pid::from_raw(frozen.pid() as i32);

    kill(pid, Signal::SIGSTOP).expect("SIGSTOP");
    let (first, first_timeouts) = timed(&backend, backend.apps()).await;
    let timeouts = backend.timeouts();
    let with_frozen = time_listings(&backend).await;
    let per_listing = (backend.timeouts() - timeouts) as f64 / RUNS as f64;
    thaw(&backend, pid, &window).await;

    kill(pid, Signal::SIGSTOP).expect("SIGSTOP");
    let limits = WalkLimits::default();
    let (snapshot, snapshot_timeouts) = timed(&backend, backend.snapshot(&window, &limits)).await;
    thaw(&backend, pid, &window).await;
    println!(
        "list_apps, 2 GTK3 fixtures: {healthy:.1} ms; one frozen: first listing {first:.1} ms \
         ({first_timeouts} timed-out calls), then {with_frozen:.1} ms ({per_listing} per \
         listing, median of {RUNS}); snapshot of the frozen app: {snapshot:.1} ms \
         ({snapshot_timeouts} timed-out calls)"
    );
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    std::fs::create_dir_all(&out).expect("target/bench");
    std::fs::write(
        out.join("list.json"),
        serde_json::json!({
            "healthy_ms": healthy,
            "first_frozen_listing_ms": first,
            "first_frozen_listing_timeouts": first_timeouts,
            "one_frozen_ms": with_frozen,
            "timeouts_per_listing": per_listing,
            "frozen_snapshot_ms": snapshot,
            "frozen_snapshot_timeouts": snapshot_timeouts,
        })
        .to_string(),
    )
    .expect("list.json");
}

/// The wall time of one call (ms) and the calls that timed out meanwhile.
async fn timed<T>(backend: &AtspiBackend, call: impl Future<Output = T>) -> (f64, u64) {
    let timeouts = backend.timeouts();
    let started = Instant::now();
    call.await;
    (
        started.elapsed().as_secs_f64() * 1000.0,
        backend.timeouts() - timeouts,
    )
}

/// Lets the app run again, and waits until it answers.
async fn thaw(backend: &AtspiBackend, pid: Pid, window: &ElementId) {
    kill(pid, Signal::SIGCONT).expect("SIGCONT");
    let limits = WalkLimits::default();
    while backend.snapshot(window, &limits).await.is_err() {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The median wall time of `RUNS` listings, in ms.
async fn time_listings(backend: &AtspiBackend) -> f64 {
    let mut times: Vec<f64> = Vec::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        backend.apps().await.expect("apps");
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    times[RUNS / 2]
}
