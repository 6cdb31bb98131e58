//! A frozen app (SIGSTOP) costs one call timeout per operation, counted by the backend's
//! timed-out calls rather than by wall time: the event check, the window check and the first
//! read do not each wait out their own. On gtk3-widget-factory, an app nobody tuned for.

#[path = "support/engine.rs"]
mod support_engine;

use std::future::Future;
use std::time::{Duration, Instant};

use deskpilot_atspi::AtspiBackend;
use deskpilot_core::{
    Action, Code, ConnectTarget, Engine, MouseButton, Selector, SnapshotRequest, Target,
};
use deskpilot_testkit::VirtualDesktop;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use support_engine::engine_on;

/// Freezes the app, runs `operation`, thaws it; returns the failure's code and how many calls
/// timed out meanwhile. Waits until the app answers again before returning.
async fn frozen<T: std::fmt::Debug>(
    backend: &AtspiBackend,
    engine: &Engine,
    session: &str,
    pid: u32,
    operation: impl Future<Output = Result<T, deskpilot_core::Error>>,
) -> (Code, u64) {
    let pid = Pid::from_raw(pid as i32);
    kill(pid, Signal::SIGSTOP).unwrap();
    let before = backend.timeouts();
    let started = Instant::now();
    let result = operation.await;
    let timeouts = backend.timeouts() - before;
    println!(
        "on the frozen app: {timeouts} timed-out calls, {} ms",
        started.elapsed().as_millis()
    );
    kill(pid, Signal::SIGCONT).unwrap();
    let code = result.expect_err("a stopped app cannot answer").code;
    let deadline = Instant::now() + Duration::from_secs(20);
    while engine
        .session(session)
        .unwrap()
        .snapshot(&SnapshotRequest::default())
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "the app never answered again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (code, timeouts)
}

#[tokio::test]
async fn a_frozen_app_costs_one_timeout_per_operation() {
    let desktop = VirtualDesktop::start().unwrap();
    let app = desktop
        .launch(desktop.command("gtk3-widget-factory"))
        .unwrap();
    let (backend, engine) = engine_on(&desktop).await;
    let session = engine
        .connect(&ConnectTarget::AppName("gtk3-widget-factory".into()))
        .await
        .unwrap()
        .id;
    // Read once while it answers: what is kept of it must not hide the freeze.
    let handle = engine.session(&session).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();

    let request = SnapshotRequest::default();
    let snapshot = handle.snapshot(&request);
    let (code, timeouts) = frozen(&backend, &engine, &session, app.pid(), snapshot).await;
    assert_eq!((code, timeouts), (Code::AppNotResponding, 1), "snapshot");

    let selector = Selector::parse("button").unwrap();
    let find = handle.find(&selector, None, 5);
    let (code, timeouts) = frozen(&backend, &engine, &session, app.pid(), find).await;
    assert_eq!((code, timeouts), (Code::AppNotResponding, 1), "find");

    let target = Target::Selector(Selector::parse("button:nth(0)").unwrap());
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    let act = handle.act(&target, &click);
    let (code, timeouts) = frozen(&backend, &engine, &session, app.pid(), act).await;
    assert_eq!((code, timeouts), (Code::AppNotResponding, 1), "act");
    desktop.stop().unwrap();
}
