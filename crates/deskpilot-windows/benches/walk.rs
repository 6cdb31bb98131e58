//! `cargo xtask bench windows`: what reading a whole app costs through `FakeUia`, whose
//! calls run one at a time per app and cost 5 ms each plus 0.05 ms per property read (a
//! cached element carries 52), on tokio's paused clock: simulated time, not this machine's.
//! Nothing here ran on Windows. Writes `target/bench/windows.json`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use deskpilot_platform::model::Realization;
use deskpilot_platform::{Backend, WalkLimits};
use deskpilot_windows::{FakeUia, WindowsBackend};

const PID: u32 = 6;

/// A tree: its name, and the fake's text of an app.
struct Shape {
    name: &'static str,
    text: String,
}

fn main() {
    let shapes = [
        app("medium", 199, |g| {
            let mut group = String::new();
            for item in 0..8 {
                group.push_str(&format!("      Text \"t{g}.{item}\"\n"));
            }
            group + &format!("      Edit \"e{g}\" patterns=Value value=v{g}\n")
        }),
        app("form", 199, |g| {
            (0..9)
                .map(|i| format!("      Edit \"e{g}.{i}\" patterns=Value value=v{i}\n"))
                .collect()
        }),
        app("deep", 199, |g| {
            format!(
                "      Group \"in{g}\"\n        Group \"deeper{g}\"\n          Button \"b{g}\"\n"
            )
        }),
    ];
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("runtime");
    let results: Vec<serde_json::Value> =
        shapes.iter().map(|s| runtime.block_on(read(s))).collect();
    for result in &results {
        println!("{result}");
    }
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    std::fs::create_dir_all(&out).expect("target/bench");
    let json = serde_json::json!({ "trees": results });
    std::fs::write(out.join("windows.json"), json.to_string()).expect("windows.json");
}

/// An app of one window over `groups` groups, each holding what `group` writes.
fn app(name: &'static str, groups: usize, group: impl Fn(usize) -> String) -> Shape {
    let mut text = format!(
        "process \"{name}.exe\" pid={PID} started=1\n  Window \"W\" hwnd=0x8000 patterns=Window\n"
    );
    for g in 0..groups {
        text.push_str(&format!("    Group \"g{g}\"\n"));
        text.push_str(&group(g));
    }
    Shape { name, text }
}

/// One snapshot of the app, timed on the paused clock.
async fn read(shape: &Shape) -> serde_json::Value {
    let fake = Arc::new(FakeUia::new(&shape.text));
    fake.slow_down(PID, Duration::from_millis(5));
    fake.cost_per_property(PID, Duration::from_micros(50));
    let backend = WindowsBackend::new(fake.clone(), deskpilot_windows::CALL_TIMEOUT);
    let apps = backend.apps().await.expect("apps");
    let root = apps[0].id.clone();
    let started = tokio::time::Instant::now();
    let tree = backend.snapshot(&root, &WalkLimits::default()).await;
    let simulated = started.elapsed();
    let tree = tree.expect("snapshot");
    let whole = tree.cut().is_none()
        && tree
            .nodes
            .iter()
            .all(|n| n.realization == Realization::Complete);
    serde_json::json!({
        "tree": shape.name,
        "nodes": tree.nodes.len(),
        "simulated_ms": simulated.as_millis() as u64,
        "read_whole": u8::from(whole),
        "values": tree.nodes.iter().filter(|n| n.node.value.is_some()).count(),
        "children_calls": fake.calls("children"),
        "count_calls": fake.calls("child_counts"),
        "value_calls": fake.calls("values_below"),
    })
}
