//! `cargo xtask bench screenshot`: a 1280x800 window of the GTK3 fixture captured, labelled
//! with the refs of a snapshot, and PNG encoded, end to end through the engine. Median of 20;
//! target: at most 30 ms. Results go to target/bench/screenshot.json.

#[path = "../tests/support/engine.rs"]
mod support_engine;

use std::time::{Duration, Instant};

use deskpilot_core::capture::{Region, ShotRequest};
use deskpilot_core::{ConnectTarget, SnapshotRequest};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use support_engine::engine_on;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConfigureWindowAux, ConnectionExt};

const RUNS: usize = 20;
const TARGET_MS: f64 = 30.0;

/// Resizes the fixture's window to 1280x800 and waits until the window system says so.
fn resize(desktop: &VirtualDesktop, title: &str) {
    let windows = deskpilot_x11::X11Windows::connect(desktop.display()).unwrap();
    let (conn, _) = x11rb::connect(Some(desktop.display())).unwrap();
    let xid = windows
        .client_windows()
        .unwrap()
        .into_iter()
        .find(|w| w.title == title)
        .expect("the fixture's window")
        .id;
    conn.configure_window(
        xid.0 as u32,
        &ConfigureWindowAux::new().width(1280).height(800),
    )
    .unwrap();
    conn.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = windows.client_windows().unwrap();
        if now
            .iter()
            .any(|w| w.id == xid && w.bounds.width == 1280 && w.bounds.height == 800)
        {
            return;
        }
        assert!(Instant::now() < deadline, "window not resized: {now:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let desktop = VirtualDesktop::start().unwrap();
        let _app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
        let title = Fixture::Gtk3.window_title();
        resize(&desktop, title);
        let (_, engine) = engine_on(&desktop).await;
        let session = engine
            .connect(&ConnectTarget::WindowTitle(title.into()))
            .await
            .unwrap()
            .id;
        // The window's AT-SPI bounds follow the resize asynchronously: wait for them.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            engine
                .session(&session).unwrap().snapshot(&SnapshotRequest::default())
                .await
                .unwrap();
            let shot = engine
                .session(&session).unwrap().screenshot(
                    &ShotRequest {
                        region: Region::Window,
                        annotate: true,
                        max_side: 1280,
                    },
                )
                .await
                .unwrap();
            if (shot.width, shot.height) == (1280, 800) {
                break;
            }
            assert!(Instant::now() < deadline, "capture is {}x{}", shot.width, shot.height);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let request = ShotRequest {
            region: Region::Window,
            annotate: true,
            max_side: 1280,
        };
        let mut times = Vec::with_capacity(RUNS);
        let mut last = None;
        for _ in 0..RUNS {
            let started = Instant::now();
            let shot = engine.session(&session).unwrap().screenshot(&request).await.unwrap();
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            last = Some(shot);
        }
        times.sort_by(f64::total_cmp);
        let median = times[RUNS / 2];
        let shot = last.unwrap();
        println!(
            "screenshot: {}x{} window, {} refs labelled, PNG {} KB; median {median:.1} ms (min {:.1}, max {:.1}) of {RUNS}; target <= {TARGET_MS} ms: {}",
            shot.width,
            shot.height,
            shot.labels,
            shot.png.len() / 1024,
            times[0],
            times[RUNS - 1],
            if median <= TARGET_MS { "met" } else { "MISSED" }
        );
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
        std::fs::create_dir_all(&dir).unwrap();
        let json = serde_json::json!({
            "width": shot.width, "height": shot.height, "labels": shot.labels,
            "png_bytes": shot.png.len(), "median_ms": median, "min_ms": times[0],
            "max_ms": times[RUNS - 1], "runs": RUNS, "target_ms": TARGET_MS,
        });
        std::fs::write(dir.join("screenshot.json"), serde_json::to_string_pretty(&json).unwrap())
            .unwrap();
    });
}
