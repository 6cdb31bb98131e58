//! What an agent did, kept and replayed: a session on Mousepad through the official MCP
//! Python SDK (tests/python/sdk_record.py) is recorded by `deskpilot mcp --record`, then
//! exported three ways. The test export must equal the committed golden file (which the
//! test library's suite runs as an ordinary test, `exported_mousepad`). The pipeline runs
//! through `deskpilot run` and the workflow through `deskpilot workflow`, each on a fresh
//! desktop. Each typing is judged by pyatspi, as the session's was. A password typed into
//! the GTK 3 fixture (not flagged secret) is in no file the recording or an export wrote.

use std::path::{Path, PathBuf};
use std::process::Command;

use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::{Value, json};

const TEXT: &str = "Dear diary: recorded.";
const PASSWORD: &str = "correct-horse-battery-staple";

/// The golden export, run by deskpilot-test's suite.
fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../deskpilot-test/tests/exported_mousepad.rs")
}

fn deskpilot(desktop: &VirtualDesktop) -> Command {
    desktop.command(env!("CARGO_BIN_EXE_deskpilot"))
}

/// `deskpilot export LOG --as KIND`'s output. It needs no desktop; its rustfmt is the one
/// beside the cargo that built this test (`cargo fmt` keeps the golden file so).
fn export(log: &Path, kind: &str) -> String {
    let cargo_bin = Path::new(env!("CARGO")).parent().unwrap().to_owned();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(cargo_bin).chain(std::env::split_paths(&path));
    let mut command = Command::new(env!("CARGO_BIN_EXE_deskpilot"));
    command.env("PATH", std::env::join_paths(dirs).unwrap());
    command.args(["export", "--as", kind]).arg(log);
    String::from_utf8(succeeds(command).stdout).unwrap()
}

/// Runs `command` to success; its output.
fn succeeds(mut command: Command) -> std::process::Output {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn a_recorded_session_replays_as_a_test_a_pipeline_and_a_workflow() {
    let python = deskpilot_testkit::sdk_python();
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let record = desktop.dir().join("recordings");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/sdk_record.py");
    let mut agent = desktop.command(python);
    agent.arg(script).arg(env!("CARGO_BIN_EXE_deskpilot"));
    agent.arg(&record).arg(TEXT).arg(PASSWORD);
    let out = succeeds(agent);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["typed"], json!([false, "confirmed"]));
    assert_eq!(report["resource"], true);
    assert_eq!(report["password"][0], false, "{report}");
    assert!(desktop.pyatspi_shows("mousepad", TEXT), "the session typed");
    let events = fixture.oracle.events().unwrap();
    let typed = events
        .iter()
        .any(|e| e.widget == "password" && e.prop == "length");
    assert!(typed, "the fixture got the password: {events:?}");
    let logs: Vec<PathBuf> = std::fs::read_dir(&record)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(logs.len(), 2, "{logs:?}");
    let of = |app: &str| {
        let header = format!(r#""app":{{"name":"{app}""#);
        let found = logs
            .iter()
            .find(|l| std::fs::read_to_string(l).unwrap().contains(&header));
        found
            .unwrap_or_else(|| panic!("no log of {app}: {logs:?}"))
            .clone()
    };
    let (log, secret_log) = (&of("mousepad"), of("deskpilot-gtk3-fixture"));

    // The password is in no log, and in no export of one.
    let test = export(&secret_log, "test");
    let mut written: Vec<String> = logs
        .iter()
        .map(|l| std::fs::read_to_string(l).unwrap())
        .collect();
    written.extend([test.clone(), export(&secret_log, "workflow")]);
    for text in &written {
        assert!(!text.contains(PASSWORD), "the password was written: {text}");
    }
    assert!(test.contains("DESKPILOT_SECRET_PASSWORD_1"), "{test}");

    // The test: the committed golden file, word for word.
    let test = export(log, "test");
    if std::env::var_os("DESKPILOT_UPDATE_EXPORTS").is_some() {
        std::fs::write(golden(), &test).unwrap();
    }
    let committed = std::fs::read_to_string(golden()).unwrap_or_default();
    assert!(
        test == committed,
        "the export differs from {} (DESKPILOT_UPDATE_EXPORTS=1 writes it):\n{test}",
        golden().display()
    );

    // The pipeline, on a fresh desktop.
    let pipeline = export(log, "pipeline");
    let fresh = VirtualDesktop::start().unwrap();
    let file = fresh.dir().join("replay.json");
    std::fs::write(&file, &pipeline).unwrap();
    let mut run = deskpilot(&fresh);
    run.arg("run").arg(&file);
    succeeds(run);
    assert!(fresh.pyatspi_shows("mousepad", TEXT), "the pipeline typed");
    drop(fresh);

    // The workflow, in a pack of its own, on a fresh desktop.
    let made: Value = serde_json::from_str(&export(log, "workflow")).unwrap();
    let fresh = VirtualDesktop::start().unwrap();
    let root = fresh.dir().join("packs");
    let dir = root.join("recorded");
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        (
            "manifest.json",
            json!({"id": "recorded", "version": "1.0.0"}),
        ),
        (
            "profile.json",
            json!({"launch": {"programs": ["mousepad"]}, "main_window": {"app": "mousepad"}}),
        ),
        ("controls.json", json!({"controls": made["controls"]})),
        ("workflows.json", json!({"workflows": [made["workflow"]]})),
    ];
    for (name, value) in files {
        std::fs::write(dir.join(name), value.to_string()).unwrap();
    }
    let id = made["workflow"]["id"].as_str().unwrap();
    let mut run = deskpilot(&fresh);
    run.args(["workflow", &format!("recorded/{id}"), "--packs"])
        .arg(&root);
    succeeds(run);
    assert!(fresh.pyatspi_shows("mousepad", TEXT), "the workflow typed");
}
