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
    let python = deskpilot_testkit::sdk_python();
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

/// On a third-party app: a subscriber to Mousepad's tree is told when a second AT-SPI client
/// (pyatspi) inserts text into its document, and the read after the notification shows the
/// document's new text as a change; pyatspi reads the text back.
#[test]
fn a_mousepad_subscriber_sees_text_another_client_inserts() {
    use std::io::Write;
    use std::time::{Duration, Instant};

    use deskpilot_testkit::McpClient;

    let desktop = VirtualDesktop::start().unwrap();
    let _app = desktop
        .launch(desktop.command("mousepad"))
        .unwrap_or_else(|e| panic!("mousepad: {e}"));
    let cmd = McpClient::deskpilot_command(&desktop, env!("CARGO_BIN_EXE_deskpilot"), &[]);
    let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
    server.initialize();
    let deadline = Instant::now() + Duration::from_secs(30);
    let connected = loop {
        let connected = server.call("connect", json!({"app": "mousepad"}));
        if connected["isError"] != json!(true) || Instant::now() > deadline {
            break connected;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let session = connected["structuredContent"]["session"]
        .as_str()
        .unwrap_or_else(|| panic!("{connected}"))
        .to_owned();
    let uri = format!("deskpilot://session/{session}/tree");
    let first = server.request("resources/read", json!({"uri": uri}));
    let first_text = first["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(first_text.contains("the whole tree"), "{first_text}");
    let mut client = desktop
        .command(deskpilot_testkit::SYSTEM_PYTHON)
        .arg(deskpilot_testkit::fixtures_dir().join("pyatspi_insert.py"))
        .args(["mousepad", "typed by pyatspi"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(client.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "ready");
    let subscribed = server.request("resources/subscribe", json!({"uri": uri}));
    assert!(subscribed.get("error").is_none(), "{subscribed}");
    // pyatspi's own reading made objects, each announced: let those updates pass.
    while server.receive_within(Duration::from_millis(500)).is_some() {}
    writeln!(client.stdin.take().unwrap(), "go").unwrap();
    let read_back = lines.next().unwrap().unwrap();
    assert!(client.wait().unwrap().success(), "pyatspi failed");
    assert!(read_back.starts_with("typed by pyatspi"), "{read_back:?}");
    let notified = server
        .receive_within(Duration::from_secs(5))
        .expect("a notification for the inserted text");
    assert_eq!(
        notified["method"], "notifications/resources/updated",
        "{notified}"
    );
    assert_eq!(notified["params"]["uri"], json!(uri));
    let changed = server.request("resources/read", json!({"uri": uri}));
    let text = changed["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("# v2 since v1:"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with('+') && l.contains("typed by pyatspi")),
        "{text}"
    );
    server.close(Duration::from_secs(5));
}
