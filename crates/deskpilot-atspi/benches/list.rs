//! `cargo xtask bench list`: how long listing the apps takes while one of them is frozen
//! (SIGSTOP), on a private headless desktop with two GTK3 fixtures. A frozen app should cost
//! one call timeout (1.5 s) per listing, not several rounds of them. Prints the median of 5
//! and the timed-out calls per listing; writes `target/bench/list.json`.

use std::path::PathBuf;
use std::time::Instant;

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::Backend;
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
    kill(Pid::from_raw(frozen.pid() as i32), Signal::SIGSTOP).expect("SIGSTOP");
    let timeouts = backend.timeouts();
    let with_frozen = time_listings(&backend).await;
    let per_listing = (backend.timeouts() - timeouts) as f64 / RUNS as f64;
    kill(Pid::from_raw(frozen.pid() as i32), Signal::SIGCONT).expect("SIGCONT");
    println!(
        "list_apps, 2 GTK3 fixtures: {healthy:.1} ms; one frozen: {with_frozen:.1} ms, \
         {per_listing} timed-out calls per listing (median of {RUNS})"
    );
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    std::fs::create_dir_all(&out).expect("target/bench");
    std::fs::write(
        out.join("list.json"),
        serde_json::json!({
            "healthy_ms": healthy,
            "one_frozen_ms": with_frozen,
            "timeouts_per_listing": per_listing,
        })
        .to_string(),
    )
    .expect("list.json");
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
