//! A second AT-SPI client as an oracle: the nodes of an app as pyatspi reads them
//! (tests/tasks/pyatspi_dump.py), independently of deskpilot. Included with `#[path]`.

use std::path::Path;

use deskpilot_testkit::VirtualDesktop;
use serde_json::Value;

/// The nodes of app `name`: role, name, text (never a password's), chars, states.
pub fn pyatspi_nodes(desktop: &VirtualDesktop, name: &str) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tasks/pyatspi_dump.py");
    let output = desktop
        .command(deskpilot_testkit::SYSTEM_PYTHON)
        .arg(script)
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
