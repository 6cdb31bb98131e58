//! A second AT-SPI client as an oracle: the nodes of an app as pyatspi reads them
//! (`fixtures/pyatspi_dump.py`), independently of deskpilot.

use std::process::Command;

use serde_json::Value;

use crate::fixtures_dir;

/// The nodes of app `name` (role, name, text (never a password's), chars, states, bounds
/// `[x, y, width, height]` on the screen or null), read by
/// pyatspi through `python`: a Command for the system Python with the desktop's environment
/// (`desktop.command(SYSTEM_PYTHON)`).
pub fn pyatspi_nodes(python: Command, name: &str) -> Vec<Value> {
    String::from_utf8_lossy(&run(python, "pyatspi_dump.py", &[name]))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Whether a node `pyatspi_nodes` gave says it has `state` (pyatspi's name: `focused`).
pub fn has_state(node: &Value, state: &str) -> bool {
    node["states"]
        .as_array()
        .is_some_and(|states| states.iter().any(|s| s == state))
}

/// pyatspi's walk of the window whose title contains `title` (`fixtures/pyatspi_walk.py`),
/// `runs` times after a warm-up, reading what deskpilot's snapshot reads: (nodes, ms of each
/// run). `python` as for `pyatspi_nodes`.
pub fn pyatspi_walks(python: Command, title: &str, runs: usize) -> (usize, Vec<f64>) {
    let output = run(python, "pyatspi_walk.py", &[title, &runs.to_string()]);
    let v: Value = serde_json::from_slice(&output).expect("pyatspi JSON");
    let times = v["ms"].as_array().expect("times").iter();
    let times = times.filter_map(Value::as_f64).collect();
    (v["nodes"].as_u64().unwrap_or(0) as usize, times)
}

/// What `script` (in `fixtures/`) printed, run by `python` with `args`; panics on failure.
fn run(mut python: Command, script: &str, args: &[&str]) -> Vec<u8> {
    let output = python
        .arg(fixtures_dir().join(script))
        .args(args)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "pyatspi: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}
