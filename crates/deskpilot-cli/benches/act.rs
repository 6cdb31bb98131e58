//! `cargo xtask bench act`: how long an action takes from request to report, on the GTK3
//! fixture in a private headless desktop, through the engine as the MCP server drives it
//! (AT-SPI, X11 window list and input), by ref from a snapshot. Prints the median of 10 and
//! writes `target/bench/act.json`.
//!
//! A plain click (no postcondition of its own) waits until something changes or the app is
//! done; a checkbox toggle waits for its `checked` state.

#[path = "../tests/support/engine.rs"]
mod support_engine;

use std::path::PathBuf;
use std::time::Instant;

use deskpilot_core::{Action, ConnectTarget, MouseButton, OnOff, SnapshotRequest, Target};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;
use support_engine::engine_on;

const RUNS: usize = 10;

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values[values.len() / 2]
}

fn ref_of(rendered: &deskpilot_core::Rendered, part: &str) -> String {
    let found = rendered.ref_on_line(part);
    found.unwrap_or_else(|| panic!("no ref on a line with {part:?} in\n{}", rendered.text))
}

// The runtime deskpilot's binary uses.
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let desktop = VirtualDesktop::start().expect("desktop");
    let _fixture = desktop.launch_fixture(Fixture::Gtk3).expect("gtk3 fixture");
    let (backend, engine) = engine_on(&desktop).await;
    let session = engine
        .connect(&ConnectTarget::WindowTitle(
            Fixture::Gtk3.window_title().into(),
        ))
        .await
        .unwrap()
        .id;
    // A server that has been running: snapshots until the app's events are trusted.
    let mut rendered = None;
    for _ in 0..30 {
        let before = backend.cache_reads();
        rendered = Some(
            engine
                .session(&session)
                .unwrap()
                .snapshot(&SnapshotRequest::default())
                .await
                .unwrap()
                .rendered,
        );
        if backend.cache_reads() == before {
            break;
        }
    }
    let rendered = rendered.expect("a snapshot");
    let button = Target::Ref(ref_of(&rendered, "button \"Count\""));
    let check = Target::Ref(ref_of(&rendered, "\"Enable notifications\""));
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    let mut results = Vec::new();
    println!(
        "{:<28} {:>9} {:>9} {:>9}  effect",
        "action", "median ms", "min", "max"
    );
    for (name, target, actions) in [
        ("plain click (button)", &button, vec![click.clone()]),
        (
            "toggle on/off (checkbox)",
            &check,
            vec![
                Action::Toggle {
                    ensure: Some(OnOff::On),
                },
                Action::Toggle {
                    ensure: Some(OnOff::Off),
                },
            ],
        ),
    ] {
        let mut times = Vec::new();
        let mut summary = String::new();
        for run in 0..RUNS {
            let action = &actions[run % actions.len()];
            let started = Instant::now();
            let report = engine
                .session(&session)
                .unwrap()
                .act(target, action)
                .await
                .unwrap();
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            summary = deskpilot_core::present::action(&report);
        }
        let (min, max) = (
            times.iter().cloned().fold(f64::MAX, f64::min),
            times.iter().cloned().fold(0.0, f64::max),
        );
        let med = median(&mut times);
        println!("{name:<28} {med:>9.1} {min:>9.1} {max:>9.1}  {summary}");
        results.push(json!({"action": name, "median_ms": med, "runs_ms": times, "last": summary}));
    }
    let out = target_dir();
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join("act.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&json!({"runs": RUNS, "actions": results})).unwrap(),
    )
    .unwrap();
    println!("\nwritten to {}", path.display());
}

fn target_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench")
}
