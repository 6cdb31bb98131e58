//! Each session's tree as an MCP resource, subscribed to with the official MCP Python SDK (PyPI
//! `mcp`, in the venv `cargo xtask test` makes) in both protocol eras, while this test changes
//! the app through the fixture's control channel (not through deskpilot): 2025-11-25
//! `resources/subscribe` gets `notifications/resources/updated` and a read gives the diff;
//! 2026-07-28 `subscriptions/listen` gets the update, and the stream ends gracefully when the
//! app quits.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;

#[test]
fn tree_subscriptions_work_in_both_eras_with_the_python_sdk() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = root.join("target/mcp-venv/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run `cargo xtask test` (it creates the venv with the MCP Python SDK)",
        python.display()
    );
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let mut client = Command::new(python)
        .arg(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/python/sdk_subscriptions.py"),
        )
        .args([
            env!("CARGO_BIN_EXE_deskpilot"),
            desktop.session_bus_address(),
            desktop.display(),
            Fixture::Gtk3.window_title(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(client.stdout.take().unwrap());
    let mut report = None;
    for line in stdout.lines() {
        let line = line.unwrap();
        match line.as_str() {
            "legacy-subscribed" => fixture
                .command("set_text", json!({"widget": "name", "text": "Sub 1"}))
                .unwrap(),
            "modern-listening" => fixture
                .command("set_text", json!({"widget": "name", "text": "Sub 2"}))
                .unwrap(),
            "modern-quit" => fixture.command("quit", json!({})).unwrap(),
            json => report = Some(serde_json::from_str::<serde_json::Value>(json).unwrap()),
        }
    }
    let output = client.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = report.expect("the client's report");
    println!("python SDK subscriptions: {report:#}");
    assert_eq!(report["legacy_protocol"], "2025-11-25");
    assert_eq!(report["legacy_subscribe_capability"], true);
    assert_eq!(report["legacy_listed"], true);
    assert_eq!(report["legacy_first_read_whole"], true);
    assert_eq!(report["legacy_notified_uri"], true);
    assert_eq!(
        report["legacy_read_is_diff"], true,
        "{}",
        report["legacy_read"]
    );
    assert_eq!(
        report["legacy_read_has_change"], true,
        "{}",
        report["legacy_read"]
    );
    assert_eq!(report["modern_protocol"], "2026-07-28");
    assert_eq!(report["modern_honored"].as_array().unwrap().len(), 1);
    assert_eq!(report["modern_event_uri"], true);
    assert_eq!(
        report["modern_read_has_change"], true,
        "{}",
        report["modern_read"]
    );
    assert_eq!(report["modern_ended"], "graceful");
}
