//! What an agent did, kept and replayed: a session on Mousepad, the GTK 3 fixture and GNOME
//! Calculator through the official MCP Python SDK (tests/python/sdk_record.py) is recorded
//! by `deskpilot mcp --record`, then exported three ways. Each test export must equal its
//! committed golden file (deskpilot-test's `exported` target runs and judges those). The
//! pipelines run through `deskpilot run` and the workflows through `deskpilot workflow`,
//! each kind on a fresh desktop. The session, the pipelines and the workflows are judged by
//! one oracle per app that is not deskpilot (`deskpilot_testkit::Replayed::judge`). A
//! password typed into the fixture (not flagged secret) is in no file the recording or an
//! export wrote.

use std::path::{Path, PathBuf};
use std::process::Command;

use deskpilot_testkit::{FIXTURE_SCRIPT, Replayed, TYPED, VirtualDesktop};
use serde_json::{Value, json};

const PASSWORD: &str = "correct-horse-battery-staple";
const WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// `deskpilot` on `desktop`, in this crate's directory (where the fixture's script is found
/// as the session gave it).
fn deskpilot(desktop: &VirtualDesktop) -> Command {
    let mut command = desktop.command(env!("CARGO_BIN_EXE_deskpilot"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// `deskpilot export LOG --as KIND`'s output. It needs no desktop; its rustfmt is the one
/// beside the cargo that built this test (`cargo fmt` keeps the golden files so).
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

/// The logs the recording wrote, each with its text.
fn logs(record: &Path) -> Vec<(PathBuf, String)> {
    let dir = std::fs::read_dir(record).unwrap();
    let paths = dir.map(|e| e.unwrap().path());
    paths
        .map(|p| (p.clone(), std::fs::read_to_string(p).unwrap()))
        .collect()
}

/// The session's log of `app`: the one that typed no secret when `secret` is false.
fn log_of(logs: &[(PathBuf, String)], app: &str, secret: bool) -> PathBuf {
    let header = format!(r#""app":{{"name":"{app}""#);
    let found = logs
        .iter()
        .find(|(_, text)| text.contains(&header) && text.contains("${secret.") == secret);
    let (path, _) = found.unwrap_or_else(|| panic!("no log of {app}: {logs:?}"));
    path.clone()
}

/// The agent's session, recorded into `record` on `desktop`; what the agent saw.
fn agent_session(desktop: &VirtualDesktop, record: &Path) -> Value {
    let python = deskpilot_testkit::sdk_python();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/sdk_record.py");
    let mut agent = desktop.command(python);
    agent.current_dir(env!("CARGO_MANIFEST_DIR"));
    agent.arg(script).arg(env!("CARGO_BIN_EXE_deskpilot"));
    agent.arg(record).args([TYPED, PASSWORD, FIXTURE_SCRIPT]);
    serde_json::from_slice(&succeeds(agent).stdout).unwrap()
}

#[test]
fn a_recorded_session_replays_as_a_test_a_pipeline_and_a_workflow() {
    let desktop = VirtualDesktop::start().unwrap();
    // Outside the desktop's directory, which goes with it.
    let kept = tempfile::tempdir().unwrap();
    let record = kept.path().join("recordings");
    let report = agent_session(&desktop, &record);
    assert_eq!(report["typed"], json!([false, "confirmed"]));
    assert_eq!(report["resource"], true);
    assert_eq!(report["password"][0], false, "{report}");
    let fixture = &report["fixture"];
    assert_eq!(fixture[0], json!([false, "confirmed"]), "{report}");
    assert_eq!(fixture[1], json!([false, "confirmed"]), "{report}");
    let calculator = &report["calculator"];
    assert_eq!(calculator[1][0], true, "the wrong name fails: {report}");
    for app in Replayed::ALL {
        app.judge(&desktop)
            .unwrap_or_else(|e| panic!("the session: {e}"));
    }
    let length = json!(PASSWORD.len());
    let typed = desktop
        .fixture_oracle()
        .wait_value("password", "length", length, WAIT);
    typed.expect("the fixture got the password");
    let logs = logs(&record);
    assert_eq!(logs.len(), 4, "{logs:?}");

    // The password is in no log, and in no export of one.
    let secret_log = log_of(&logs, Replayed::Gtk3Fixture.app(), true);
    let test = export(&secret_log, "test");
    let mut written: Vec<String> = logs.iter().map(|(_, text)| text.clone()).collect();
    written.extend([test.clone(), export(&secret_log, "workflow")]);
    for text in &written {
        assert!(!text.contains(PASSWORD), "the password was written: {text}");
    }
    assert!(test.contains("DESKPILOT_SECRET_PASSWORD_1"), "{test}");

    let exported: Vec<(Replayed, PathBuf)> = Replayed::ALL
        .into_iter()
        .map(|app| (app, log_of(&logs, app.app(), false)))
        .collect();
    for (app, log) in &exported {
        the_test_is_the_golden_file(*app, log);
    }
    drop(desktop);
    pipelines_replay(&exported);
    workflows_replay(&exported);
}

/// The test export of `log`: its committed golden file, word for word.
fn the_test_is_the_golden_file(app: Replayed, log: &Path) {
    let test = export(log, "test");
    let golden = app.golden();
    if std::env::var_os("DESKPILOT_UPDATE_EXPORTS").is_some() {
        std::fs::write(&golden, &test).unwrap();
    }
    let committed = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        test == committed,
        "the export differs from {} (DESKPILOT_UPDATE_EXPORTS=1 writes it):\n{test}",
        golden.display()
    );
}

/// Each pipeline export through `deskpilot run`, on one fresh desktop.
fn pipelines_replay(exported: &[(Replayed, PathBuf)]) {
    let fresh = VirtualDesktop::start().unwrap();
    for (app, log) in exported {
        let file = fresh.dir().join(format!("{}.json", app.module()));
        std::fs::write(&file, export(log, "pipeline")).unwrap();
        let mut run = deskpilot(&fresh);
        run.arg("run").arg(&file);
        succeeds(run);
        app.judge(&fresh)
            .unwrap_or_else(|e| panic!("the pipeline of {app:?}: {e}"));
    }
}

/// Each workflow export, in a pack of its own, through `deskpilot workflow`, on one fresh
/// desktop.
fn workflows_replay(exported: &[(Replayed, PathBuf)]) {
    let fresh = VirtualDesktop::start().unwrap();
    let root = fresh.dir().join("packs");
    for (app, log) in exported {
        let made: Value = serde_json::from_str(&export(log, "workflow")).unwrap();
        let id = app.module().replace('_', "-");
        let program = pack(&root.join(&id), &id, *app, log, &made);
        let workflow = made["workflow"]["id"].as_str().unwrap();
        let mut run = deskpilot(&fresh);
        run.env(PROGRAM_VAR, program);
        run.args(["workflow", &format!("{id}/{workflow}"), "--packs"])
            .arg(&root);
        succeeds(run);
        app.judge(&fresh)
            .unwrap_or_else(|e| panic!("the workflow of {app:?}: {e}"));
    }
}

/// The variable `pack` tells the packs' profiles to take their program's path from.
const PROGRAM_VAR: &str = "RECORDED_PROGRAM";

/// A pack for `app` in `dir`: started as the session started it, with the exported
/// workflow and the controls it needs; the program's path, for `PROGRAM_VAR`.
fn pack(dir: &Path, id: &str, app: Replayed, log: &Path, made: &Value) -> String {
    let header: Value = {
        let text = std::fs::read_to_string(log).unwrap();
        serde_json::from_str(text.lines().next().unwrap()).unwrap()
    };
    let argv: Vec<String> = serde_json::from_value(header["app"]["launched"].clone()).unwrap();
    // A pack names its program; a path (Debian's python) comes from the variable.
    let name = Path::new(&argv[0]).file_name().unwrap().to_str().unwrap();
    let launch = json!({"programs": [name], "path_env": PROGRAM_VAR, "args": argv[1..]});
    std::fs::create_dir_all(dir).unwrap();
    let files = [
        ("manifest.json", json!({"id": id, "version": "1.0.0"})),
        (
            "profile.json",
            json!({"launch": launch, "main_window": {"app": app.app()}}),
        ),
        ("controls.json", json!({"controls": made["controls"]})),
        ("workflows.json", json!({"workflows": [made["workflow"]]})),
    ];
    for (name, value) in files {
        std::fs::write(dir.join(name), value.to_string()).unwrap();
    }
    argv[0].clone()
}
