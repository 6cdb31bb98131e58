//! The `deskpilot` CLI against the real fixture desktop: output and exit codes (0 ok, 1 not
//! found, 2 error).

#[path = "support/cli.rs"]
mod support_cli;

use std::process::Output;
use std::time::Duration;

use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;
use support_cli::deskpilot;

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs deskpilot, asserts it succeeded, and gives its stdout.
fn succeeds(desktop: &VirtualDesktop, args: &[&str]) -> String {
    let out = deskpilot(desktop, args);
    assert!(
        out.status.success(),
        "deskpilot {args:?}: {}{}",
        stdout(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout(&out)
}

#[test]
fn the_cli_reads_the_fixture_with_honest_exit_codes() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    fixture
        .command(
            "set_text",
            json!({"widget": "name", "text": "Ada Lovelace"}),
        )
        .unwrap();
    fixture
        .oracle
        .wait_value(
            "name",
            "text",
            json!("Ada Lovelace"),
            Duration::from_secs(5),
        )
        .unwrap();
    let window = Fixture::Gtk3.window_title();

    let apps = deskpilot(&desktop, &["apps"]);
    assert!(apps.status.success());
    assert!(stdout(&apps).contains(window), "{}", stdout(&apps));

    // A reader that goes away (`| head`) ends the output quietly, not with a panic.
    let mut cmd = desktop.command(env!("CARGO_BIN_EXE_deskpilot"));
    cmd.args(["snapshot", window, "--filter", "all"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    drop(child.stdout.take());
    let closed = child.wait_with_output().unwrap();
    assert!(
        closed.status.success(),
        "{:?}: {}",
        closed.status,
        String::from_utf8_lossy(&closed.stderr)
    );

    let snapshot = deskpilot(&desktop, &["snapshot", window]);
    assert!(snapshot.status.success());
    assert!(stdout(&snapshot).contains("- button \"Count\""));
    let json = deskpilot(&desktop, &["snapshot", window, "--json"]);
    let tree: serde_json::Value = serde_json::from_slice(&json.stdout).expect("--json is JSON");
    // The MCP server's snapshot output, its nodes included.
    assert!(tree["json"]["nodes"].as_array().unwrap().len() > 100);
    assert!(
        tree["tree"]
            .as_str()
            .unwrap()
            .contains("- button \"Count\"")
    );

    let within = deskpilot(&desktop, &["snapshot", window, "--within", "listbox"]);
    assert!(within.status.success());
    let lines: Vec<String> = stdout(&within).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 5, "the list box and its 4 rows: {lines:?}");
    assert!(lines[0].starts_with("- listbox"));
    let ambiguous_within = deskpilot(&desktop, &["snapshot", window, "--within", "radio"]);
    assert_eq!(ambiguous_within.status.code(), Some(2));

    let found = deskpilot(&desktop, &["find", window, "checkbox[name*=notif]"]);
    assert_eq!(found.status.code(), Some(0));
    assert!(stdout(&found).contains("checkbox \"Enable notifications\""));
    let nothing = deskpilot(&desktop, &["find", window, "button[name=Nope]"]);
    assert_eq!(nothing.status.code(), Some(1));
    let malformed = deskpilot(&desktop, &["find", window, "buton"]);
    assert_eq!(malformed.status.code(), Some(2));
    let no_window = deskpilot(&desktop, &["snapshot", "no such window"]);
    assert_eq!(no_window.status.code(), Some(1));
    // A CLI user is told the CLI's commands, never the MCP server's tools.
    let said = String::from_utf8_lossy(&no_window.stderr);
    assert!(said.contains("`deskpilot apps`"), "{said}");
    assert!(!said.contains("list_apps"), "{said}");
    let missing = deskpilot(&desktop, &["props", window, "button[name=Nope]"]);
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(said.contains("`deskpilot wait`"), "{said}");
    assert!(!said.contains("wait_for"), "{said}");

    let props = deskpilot(&desktop, &["props", window, "[id=counter]"]);
    assert!(
        props.status.success(),
        "{}",
        String::from_utf8_lossy(&props.stderr)
    );
    let props: serde_json::Value = serde_json::from_slice(&props.stdout).unwrap();
    assert_eq!(props["name"], "Count");
    let ambiguous = deskpilot(&desktop, &["props", window, "radio"]);
    assert_eq!(ambiguous.status.code(), Some(2));

    let text = deskpilot(
        &desktop,
        &["text", window, "textbox[name=Name]", "--offset", "4"],
    );
    assert_eq!(stdout(&text).trim(), "Lovelace");
    let table = deskpilot(
        &desktop,
        &["table", window, "table[name=Inventory]", "--rows", "2"],
    );
    assert_eq!(
        stdout(&table),
        "Name\tQuantity\tStatus\nItem 001\t7\tBackorder\nItem 002\t14\tDiscontinued\n"
    );
}

#[test]
fn the_cli_acts_and_the_fixture_sees_it() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let window = Fixture::Gtk3.window_title();
    let ok = |args: &[&str]| succeeds(&desktop, args);
    let wait = |widget: &str, prop: &str, value: serde_json::Value| {
        fixture
            .oracle
            .wait_value(widget, prop, value, Duration::from_secs(5))
            .unwrap()
    };
    assert!(ok(&["act", window, "checkbox[name*=notif]", "check"]).contains("confirmed"));
    wait("check", "checked", json!(true));
    // Confirmed by the counter label's text, as the app announced it and a read agrees.
    let clicked = ok(&["click", window, "button[name=Count]"]);
    assert!(clicked.contains("confirmed"), "{clicked}");
    assert!(
        clicked.contains("label now shows \"Clicked 1 times\""),
        "{clicked}"
    );
    wait("counter", "clicks", json!(1));
    ok(&["set", window, "textbox[name=Name]", "Ada"]);
    ok(&["type", window, " L", "--into", "textbox[name=Name]"]);
    wait("name", "text", json!("Ada L"));
    ok(&["press", window, "BackSpace", "--on", "textbox[name=Name]"]);
    wait("name", "text", json!("Ada "));
    ok(&["set", window, "slider[name=Volume]", "25", "--number"]);
    wait("volume", "value", json!(25.0));
    let shot = desktop.dir().join("cli.png");
    assert!(ok(&["screenshot", window, "-o", shot.to_str().unwrap()]).contains("refs labelled"));
    assert_eq!(&std::fs::read(&shot).unwrap()[..4], b"\x89PNG");
    ok(&["window", window, "maximize"]);
    wait("window", "maximized", json!(true));
    // A refusal is an error exit with its code.
    let clamped = deskpilot(
        &desktop,
        &[
            "set",
            window,
            "spinbutton[name=Quantity]",
            "500",
            "--number",
        ],
    );
    assert_eq!(clamped.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&clamped.stderr).contains("value_clamped"));
    // An action waits for its element to be actionable (as the MCP tools and the test
    // library do), then refuses saying so: the Locked button stays disabled.
    for wait in ["0", "300"] {
        let locked = deskpilot(
            &desktop,
            &["click", window, "button[name=Locked]", "--timeout-ms", wait],
        );
        let said = String::from_utf8_lossy(&locked.stderr);
        assert_eq!(locked.status.code(), Some(2), "{said}");
        assert!(said.contains("deskpilot: disabled"), "{said}");
        assert!(said.contains(&format!("waited {wait} ms")), "{said}");
    }
}

#[test]
fn the_cli_launches_a_program_and_closes_its_window() {
    let desktop = VirtualDesktop::start().unwrap();
    let oracle_path = desktop.dir().join("cli-launch.jsonl");
    let script = Fixture::Gtk3.script();
    // Run with the desktop's environment: what it launches is torn down with the desktop.
    let run = |args: &[&str]| {
        // Global options first: after `launch --` everything is the program's argv.
        desktop
            .command(env!("CARGO_BIN_EXE_deskpilot"))
            .args(["--bus", desktop.session_bus_address()])
            .args(["--display", desktop.display()])
            .args(args)
            .output()
            .expect("deskpilot runs")
    };
    let launched = run(&[
        "launch",
        "--",
        "/usr/bin/python3",
        script.to_str().unwrap(),
        "--oracle",
        oracle_path.to_str().unwrap(),
    ]);
    assert!(launched.status.success(), "{launched:?}");
    assert!(
        stdout(&launched).contains(Fixture::Gtk3.window_title()),
        "{launched:?}"
    );
    let oracle = deskpilot_testkit::Oracle::new(&oracle_path);
    oracle
        .wait_value("app", "ready", json!(true), Duration::from_secs(10))
        .unwrap();
    let closed = run(&["window", Fixture::Gtk3.window_title(), "close"]);
    assert!(stdout(&closed).contains("confirmed"), "{closed:?}");
    let missing = run(&["launch", "--timeout", "5", "--", "/nonexistent/program"]);
    assert_eq!(
        missing.status.code(),
        Some(1),
        "not found exits 1: {missing:?}"
    );
}

/// The CLI has the MCP server's verbs and reads, with the same words: a named action, a verb's
/// options (and their refusal where they do not go), the hit test, the focus, waits, and the
/// server's capabilities. Judged by the fixture's oracle where something changes.
#[test]
fn the_cli_has_the_servers_verbs_and_reads() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let window = Fixture::Gtk3.window_title();
    let run = |args: &[&str]| deskpilot(&desktop, args);
    let ok = |args: &[&str]| succeeds(&desktop, args);
    // activate: the element's own action by name.
    ok(&[
        "act",
        window,
        "button[name=Count]",
        "activate",
        "--name",
        "click",
    ]);
    fixture
        .oracle
        .wait_value("counter", "clicks", json!(1), Duration::from_secs(5))
        .unwrap();
    // toggle --ensure: sent once, then nothing to do.
    ok(&[
        "act",
        window,
        "checkbox[name*=notif]",
        "toggle",
        "--ensure",
        "on",
    ]);
    fixture
        .oracle
        .wait_value("check", "checked", json!(true), Duration::from_secs(5))
        .unwrap();
    let again = ok(&[
        "act",
        window,
        "checkbox[name*=notif]",
        "toggle",
        "--ensure",
        "on",
    ]);
    assert!(again.contains("nothing sent"), "{again}");
    // An option that does not go with the verb is refused before anything is sent.
    let wrong = run(&[
        "act",
        window,
        "button[name=Count]",
        "select",
        "--ensure",
        "on",
    ]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&wrong.stderr).contains("ensure goes with verb toggle only"),
        "{wrong:?}"
    );
    let unknown = run(&["act", window, "button[name=Count]", "press_hard"]);
    assert_eq!(
        unknown.status.code(),
        Some(2),
        "clap refuses an unknown verb"
    );
    // at: what is at the centre of the Count button.
    let props: serde_json::Value =
        serde_json::from_str(&ok(&["props", window, "button[name=Count]"])).unwrap();
    let b = &props["bounds"];
    let (x, y) = (
        b["x"].as_i64().unwrap() + b["width"].as_i64().unwrap() / 2,
        b["y"].as_i64().unwrap() + b["height"].as_i64().unwrap() / 2,
    );
    let at = ok(&["at", window, &x.to_string(), &y.to_string()]);
    assert!(at.contains("button \"Count\""), "{at}");
    // focused and wait.
    let focused = ok(&["focused", window]);
    assert!(
        focused.contains("[ref=e") || focused.contains("nothing"),
        "{focused}"
    );
    let met = ok(&["wait", window, "button[name=Count]"]);
    assert!(met.contains("# met after"), "{met}");
    let late = run(&["wait", window, "button[name=Nope]", "--timeout-ms", "300"]);
    assert_eq!(late.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&late.stderr).contains("timeout"),
        "{late:?}"
    );
    // The server's capabilities: files need a directory.
    let no_dir = run(&["mcp", "--allow", "files"]);
    assert_eq!(no_dir.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&no_dir.stderr).contains("--files-dir"),
        "{no_dir:?}"
    );
}

/// `snapshot --save FILE` keeps a snapshot; `--since FILE` prints only what changed since
/// (the app changed through its control channel, not through deskpilot), without refs,
/// which belong to one process.
#[test]
fn the_cli_prints_what_changed_since_a_saved_snapshot() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let window = Fixture::Gtk3.window_title();
    let saved = desktop.dir().join("tree.json");
    let saved = saved.to_str().unwrap();
    succeeds(&desktop, &["snapshot", window, "--save", saved]);
    let same = succeeds(&desktop, &["snapshot", window, "--since", saved]);
    assert!(same.starts_with("# nothing changed since"), "{same}");
    fixture.command("add_item", json!({})).unwrap();
    fixture
        .oracle
        .wait_value("dynamic", "count", json!(1), Duration::from_secs(5))
        .unwrap();
    let changed = succeeds(
        &desktop,
        &["snapshot", window, "--since", saved, "--save", saved],
    );
    assert!(changed.starts_with("# since "), "{changed}");
    assert!(
        changed.contains(": 0 changed, 1 added, 0 removed"),
        "{changed}"
    );
    assert!(
        changed.contains("\n+ - button \"Dynamic 1\"\n"),
        "{changed}"
    );
    assert!(!changed.contains("[ref="), "{changed}");
    // The file now holds that snapshot: nothing changed since.
    let again = succeeds(&desktop, &["snapshot", window, "--since", saved]);
    assert!(again.starts_with("# nothing changed since"), "{again}");
}

/// `deskpilot run` runs a pipeline as the server runs one: its step acts (the fixture's
/// oracle: the checkbox went on), a line per step, exit 0; `--check` lists a pipeline's
/// problems and exits 1 without running it (the counter never clicked).
#[test]
fn the_cli_runs_and_checks_pipelines() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let window = Fixture::Gtk3.window_title();
    let file = desktop.dir().join("pipeline.json");
    let path = file.to_str().unwrap();
    let check = "checkbox[name*=notif]";
    let pipeline = json!({"steps": [
        {"id": "open", "tool": "connect", "args": {"window": window}},
        {"id": "on", "tool": "act",
         "args": {"session": "${open.session}", "target": check, "verb": "toggle", "ensure": "on"},
         "expect": {"selector": check, "state": "checked"}}
    ]});
    std::fs::write(&file, pipeline.to_string()).unwrap();
    let out = succeeds(&desktop, &["run", path]);
    assert!(out.contains("passed \"on\" (act)"), "{out}");
    fixture
        .oracle
        .wait_value("check", "checked", json!(true), Duration::from_secs(5))
        .unwrap();
    let unsafe_retry = json!({"steps": [
        {"id": "open", "tool": "connect", "args": {"window": window}},
        {"id": "press", "tool": "click", "retry": 2,
         "args": {"session": "${open.session}", "target": "button[name=Count]"}}
    ]});
    std::fs::write(&file, unsafe_retry.to_string()).unwrap();
    for args in [vec!["run", "--check", path], vec!["run", path]] {
        let refused = deskpilot(&desktop, &args);
        assert_eq!(
            refused.status.code(),
            Some(1),
            "{args:?}: {}",
            stdout(&refused)
        );
        assert!(
            stdout(&refused).contains("unsafe_retry"),
            "{}",
            stdout(&refused)
        );
    }
    let events = fixture.oracle.events().unwrap();
    assert!(
        events.iter().all(|e| !e.is("counter", "clicks")),
        "{events:?}"
    );
}
