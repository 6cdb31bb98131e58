//! Pipelines through `deskpilot mcp --allow input`, driven by the official MCP Python SDK
//! (PyPI `mcp`, in the venv `cargo xtask test` makes), on the GTK 3 fixture and two
//! third-party apps in one desktop. Every effect is judged by an oracle that is not
//! deskpilot: the fixture's event file (a restore put back, a cancelled run's next step
//! never sent, refused runs sending nothing), the file Mousepad writes after a continued run
//! (its text typed once), and pyatspi reading gnome-calculator after a background run.

#[path = "support/agent.rs"]
mod agent;

use agent::{file_text, launch};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn pipelines_restore_continue_cancel_and_refuse_through_the_python_sdk() {
    let python = deskpilot_testkit::sdk_python();
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let _mousepad = launch(&desktop, "mousepad");
    let _calculator = launch(&desktop, "gnome-calculator");
    let diary = desktop.dir().join("diary.txt");
    let mut client = Command::new(python)
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/sdk_pipelines.py"))
        .args([
            env!("CARGO_BIN_EXE_deskpilot"),
            desktop.session_bus_address(),
            desktop.display(),
            Fixture::Gtk3.window_title(),
            diary.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(client.stdout.take().unwrap());
    let mut report = Value::Null;
    for line in stdout.lines() {
        let line = line.unwrap();
        match line.as_str() {
            // The cancelled run's slow step waits for this label: it ends after the cancel.
            "cancelled" => fixture
                .command("set_label", json!({"text": "Go on"}))
                .unwrap(),
            json => report = serde_json::from_str(json).unwrap(),
        }
    }
    let output = client.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    println!("{report}");

    // The failure in the middle: its code, the steps after it not run, the restore read back.
    let restore = &report["restore"];
    assert_eq!(restore["is_error"], true);
    assert_eq!(restore["code"], "timeout", "{restore}");
    assert_eq!(restore["failed_step"], "never");
    assert_eq!(
        restore["statuses"],
        json!(["passed", "passed", "failed", "not_run"])
    );
    assert_eq!(restore["restore"], json!(["restored", true]));
    assert_eq!(restore["finally"], json!(["passed"]));
    assert_eq!(
        report["unsafe_retry"],
        json!({"problems": [["press", "unsafe_retry"]], "run_code": "invalid_arguments"})
    );
    assert_eq!(report["background"], json!(["invalid_arguments", true]));
    assert_eq!(report["cancelled"], true);
    // The fixture's oracle: the checkbox went on and was put back off, and nothing else
    // touched it (not the refused runs, not the step after the cancel); the cancelled run's
    // first step and its finally reached the name field, the step after the failure never.
    let events = fixture.oracle.events().unwrap();
    let checks: Vec<&Value> = events
        .iter()
        .filter(|e| e.is("check", "checked"))
        .map(|e| &e.value)
        .collect();
    assert_eq!(checks, [&json!(true), &json!(false)], "{events:?}");
    let names: Vec<&Value> = events
        .iter()
        .filter(|e| e.is("name", "text"))
        .map(|e| &e.value)
        .collect();
    assert!(names.contains(&&json!("before the cancel")), "{names:?}");
    assert_eq!(names.last(), Some(&&json!("cleaned up")), "{names:?}");
    assert!(!names.contains(&&json!("not reached")), "{names:?}");

    // Mousepad: the run failed waiting for the chooser, the agent opened it, the run went
    // on from there: the file holds the text typed once.
    assert_eq!(report["mousepad_first"], json!(["chooser", "timeout"]));
    assert_eq!(
        report["mousepad_continued"],
        json!([
            false,
            ["passed", "passed", "passed", "passed", "passed", "passed"]
        ])
    );
    assert_eq!(file_text(&diary).trim_end(), "Dear diary");

    // gnome-calculator in background mode: every click by the buttons' own action, nothing
    // raised or pointed; pyatspi reads the product.
    assert_eq!(
        report["calculator"],
        json!([
            false,
            [],
            ["passed", "passed", "passed", "passed", "passed"]
        ])
    );
    assert!(
        desktop.pyatspi_shows("gnome-calculator", "42"),
        "pyatspi never read 42"
    );
    desktop.stop().unwrap();
}
