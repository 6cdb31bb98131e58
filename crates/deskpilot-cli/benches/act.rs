//! `cargo xtask bench act`: how long an action takes from request to report, on the GTK3
//! fixture in a private headless desktop, through the engine as the MCP server drives it
//! (AT-SPI, X11 window list and input), by ref from a snapshot. Prints the median of 10 and
//! writes `target/bench/act.json`.
//!
//! A plain click (no postcondition of its own) is confirmed by what the app announced and a
//! read agrees with (the fixture's counter label), else waits until something changes or the
//! app is done; a checkbox toggle waits for its `checked` state. Then GNOME Calculator's
//! buttons, 6 × 7 = ten times over, each click judged by the display's announced text;
//! pyatspi reads the display at the end. Last, the display server's own input: ten
//! characters typed and a double click (the pointer's rung), on X11 (XTEST), on headless
//! sway (the virtual keyboard and pointer) and on headless GNOME Shell (mutter's remote
//! desktop session).

#[path = "../tests/support/engine.rs"]
mod support_engine;

use std::path::PathBuf;
use std::time::Instant;

use deskpilot_core::{Action, ConnectTarget, Engine, MouseButton, OnOff, SnapshotRequest, Target};
use deskpilot_testkit::{Fixture, FixtureApp, VirtualDesktop};
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

/// A snapshot of `session` once the app's events are trusted (a server that has been
/// running).
async fn warm(
    engine: &Engine,
    backend: &deskpilot_atspi::AtspiBackend,
    session: &str,
) -> deskpilot_core::Rendered {
    let mut rendered = None;
    for _ in 0..30 {
        let before = backend.cache_reads();
        let session = engine.session(session).unwrap();
        rendered = Some(session.snapshot(&SnapshotRequest::default()).await.unwrap());
        if backend.cache_reads() == before {
            break;
        }
    }
    rendered.expect("a snapshot").rendered
}

/// `steps` (a target and an action each) done `rounds` times over: the median, min and max
/// per action in ms, how many were confirmed, and the last report.
async fn timed(
    engine: &Engine,
    session: &str,
    name: &str,
    steps: &[(Target, Action)],
    rounds: usize,
) -> serde_json::Value {
    let (mut times, mut confirmed, mut summary) = (Vec::new(), 0, String::new());
    for _ in 0..rounds {
        for (target, action) in steps {
            let started = Instant::now();
            let session = engine.session(session).unwrap();
            let report = session.act(target, action).await.unwrap();
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            confirmed += usize::from(report.effect == deskpilot_core::Effect::Confirmed);
            summary = deskpilot_core::present::action(&report);
        }
    }
    let min = times.iter().cloned().fold(f64::MAX, f64::min);
    let max = times.iter().cloned().fold(0.0, f64::max);
    let (count, med) = (times.len(), median(&mut times));
    println!("{name:<28} {med:>9.1} {min:>9.1} {max:>9.1}  {confirmed}/{count}  {summary}");
    json!({"action": name, "median_ms": med, "confirmed": confirmed, "actions": count,
        "runs_ms": times, "last": summary})
}

fn click() -> Action {
    Action::Click {
        button: MouseButton::Left,
        double: false,
    }
}

/// The GTK 3 fixture on `desktop`, the engine with a session on it, and a warm snapshot.
async fn on_fixture(
    desktop: &VirtualDesktop,
) -> (FixtureApp, Engine, String, deskpilot_core::Rendered) {
    let fixture = desktop.launch_fixture(Fixture::Gtk3).expect("gtk3 fixture");
    let (backend, engine) = engine_on(desktop).await;
    let title = Fixture::Gtk3.window_title().into();
    let session = engine.connect(&ConnectTarget::WindowTitle(title)).await;
    let session = session.unwrap().id;
    let rendered = warm(&engine, &backend, &session).await;
    (fixture, engine, session, rendered)
}

async fn fixture_rows(desktop: &VirtualDesktop) -> Vec<serde_json::Value> {
    let (_fixture, engine, session, rendered) = on_fixture(desktop).await;
    let button = Target::Ref(ref_of(&rendered, "button \"Count\""));
    let check = Target::Ref(ref_of(&rendered, "\"Enable notifications\""));
    let toggle = |on| Action::Toggle { ensure: Some(on) };
    let toggles = [
        (check.clone(), toggle(OnOff::On)),
        (check, toggle(OnOff::Off)),
    ];
    vec![
        timed(
            &engine,
            &session,
            "plain click (button)",
            &[(button, click())],
            RUNS,
        )
        .await,
        timed(
            &engine,
            &session,
            "toggle on/off (checkbox)",
            &toggles,
            RUNS / 2,
        )
        .await,
    ]
}

/// Typing and a double click on the GTK 3 fixture, through the display server's input.
async fn input_rows(desktop: &VirtualDesktop, server: &str) -> Vec<serde_json::Value> {
    let (_fixture, engine, session, rendered) = on_fixture(desktop).await;
    let name = Target::Ref(ref_of(&rendered, "textbox \"Name\""));
    let button = Target::Ref(ref_of(&rendered, "button \"Count\""));
    let typing = [(name, Action::TypeText("0123456789".into()))];
    let double = Action::Click {
        button: MouseButton::Left,
        double: true,
    };
    vec![
        timed(
            &engine,
            &session,
            &format!("{server}: type 10 chars"),
            &typing,
            RUNS,
        )
        .await,
        timed(
            &engine,
            &session,
            &format!("{server}: double click"),
            &[(button, double)],
            RUNS,
        )
        .await,
    ]
}

async fn calculator_row(desktop: &VirtualDesktop) -> serde_json::Value {
    let _calculator = desktop
        .launch(desktop.command("gnome-calculator"))
        .expect("gnome-calculator");
    let (backend, engine) = engine_on(desktop).await;
    let app = ConnectTarget::AppName("gnome-calculator".into());
    let session = engine.connect(&app).await.unwrap().id;
    let rendered = warm(&engine, &backend, &session).await;
    let steps: Vec<(Target, Action)> = ["6", "×", "7", "="]
        .iter()
        .map(|label| {
            let line = format!("button \"{label}\"");
            (Target::Ref(ref_of(&rendered, &line)), click())
        })
        .collect();
    let mut row = timed(&engine, &session, "calculator 6 × 7 =", &steps, RUNS).await;
    row["pyatspi_reads_42"] = json!(desktop.pyatspi_shows("gnome-calculator", "42"));
    row
}

// The runtime deskpilot's binary uses.
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let desktop = VirtualDesktop::start().expect("desktop");
    println!(
        "{:<28} {:>9} {:>9} {:>9}  confirmed  last",
        "action", "median ms", "min", "max"
    );
    let mut results = fixture_rows(&desktop).await;
    results.push(calculator_row(&desktop).await);
    drop(desktop);
    let x11 = VirtualDesktop::start().expect("desktop");
    results.extend(input_rows(&x11, "X11").await);
    drop(x11);
    let sway = VirtualDesktop::start_sway().expect("sway desktop");
    results.extend(input_rows(&sway, "sway").await);
    drop(sway);
    let gnome = VirtualDesktop::start_gnome().expect("GNOME desktop");
    results.extend(input_rows(&gnome, "GNOME").await);
    let out = target_dir();
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join("act.json");
    let all = json!({"runs": RUNS, "actions": results});
    std::fs::write(&path, serde_json::to_string_pretty(&all).unwrap()).unwrap();
    println!("\nwritten to {}", path.display());
}

fn target_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench")
}
