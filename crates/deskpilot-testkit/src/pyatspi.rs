//! A second AT-SPI client as an oracle: the nodes of an app as pyatspi reads them
//! (`fixtures/pyatspi_dump.py`), independently of deskpilot.

use std::process::Command;

use serde_json::Value;

use crate::fixtures_dir;

/// The nodes of app `name` (role, name, text (never a password's), chars, states, bounds
/// `[x, y, width, height]` on the screen or null), read by
/// pyatspi through `python`: a Command for the system Python with the desktop's environment
/// (`desktop.command(SYSTEM_PYTHON)`).
pub fn pyatspi_nodes(mut python: Command, name: &str) -> Vec<Value> {
    let output = python
        .arg(fixtures_dir().join("pyatspi_dump.py"))
        .arg(name)
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "pyatspi: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
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
