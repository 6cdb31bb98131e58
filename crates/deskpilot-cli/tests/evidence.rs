//! No false success on apps nobody tuned for: each step driven through `deskpilot mcp` as an
//! agent would, each effect judged by an oracle that is not deskpilot (a second AT-SPI
//! client, pyatspi, reading what the app holds).

#[path = "support/agent.rs"]
mod agent;
#[path = "support/cli.rs"]
mod cli;

use std::time::Duration;

use agent::{Agent, eventually, launch, text_of};
use deskpilot_testkit::{Fixture, SYSTEM_PYTHON, VirtualDesktop, pyatspi_nodes};
use serde_json::json;

/// Whether pyatspi sees `text` in any of Mousepad's nodes.
fn mousepad_holds(desktop: &VirtualDesktop, text: &str) -> bool {
    pyatspi_nodes(desktop.command(SYSTEM_PYTHON), "mousepad")
        .iter()
        .any(|n| n["text"].as_str().is_some_and(|t| t.contains(text)))
}

/// Whether pyatspi sees a node of `role` named `name` in Mousepad.
fn mousepad_shows(desktop: &VirtualDesktop, role: &str, name: &str) -> bool {
    pyatspi_nodes(desktop.command(SYSTEM_PYTHON), "mousepad")
        .iter()
        .any(|n| n["role"] == role && n["name"] == name)
}

/// Mousepad killed with unsaved text asks at its next start whether to restore it (an alert
/// "Question", its "No" focused): its state lives in the desktop's private XDG directories.
/// Typing with no target then went into the alert (the space pressed "No") and was reported
/// confirmed because the alert closed; it is refused now, naming where the keys would have
/// gone, and after the question is answered the text goes into the document.
#[test]
fn typed_text_never_answers_mousepads_restore_question() {
    let desktop = VirtualDesktop::start().unwrap();
    // Settings that outlive the process (the desktop's are in memory), in the desktop's
    // private config directory: autosave every second (default 30), so that the draft is on
    // disk before the kill.
    let settings = desktop.dir().join("config/glib-2.0/settings");
    std::fs::create_dir_all(&settings).unwrap();
    std::fs::write(
        settings.join("keyfile"),
        "[org/xfce/mousepad/preferences/file]\nautosave-timer=uint32 1\n",
    )
    .unwrap();
    let mousepad = || {
        let mut cmd = desktop.command("mousepad");
        cmd.env("GSETTINGS_BACKEND", "keyfile");
        desktop.launch(cmd).unwrap()
    };
    let mut first = mousepad();
    let mut agent = Agent::start(&desktop);
    agent.connect("mousepad");
    agent.ok("type_text", json!({"text": "a draft nobody saved"}));
    let drafts = desktop.dir().join("data/Mousepad");
    assert!(
        eventually(Duration::from_secs(10), || {
            std::fs::read_dir(&drafts).is_ok_and(|mut d| d.next().is_some())
        }),
        "no autosave in {}",
        drafts.display()
    );
    first.kill();
    let _second = mousepad();
    let mut agent = Agent::start(&desktop);
    agent.connect("mousepad");
    agent.wait_for("alert >> button[name=No]", json!({}));
    // The alert says what it asks, not only its buttons.
    let shown = agent.ok("snapshot", json!({}));
    let text = shown["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("- label \"") && text.contains("restore"),
        "{text}"
    );

    let typed = agent.call("type_text", json!({"text": "Dear diary: typed too early."}));
    let said = text_of(&typed);
    assert_eq!(typed["isError"], true, "{}", agent.transcript());
    assert_eq!(typed["structuredContent"]["code"], "not_editable", "{said}");
    assert!(
        said.contains("button \"No\" in alert \"Question\""),
        "{said}"
    );
    // Oracle: the question is still asked and no document holds the text.
    assert!(mousepad_shows(&desktop, "alert", "Question"));
    assert!(!mousepad_holds(&desktop, "typed too early"));

    agent.ok("click", json!({"target": "alert >> button[name=No]"}));
    agent.wait_for("textbox", json!({"state": "focused"}));
    let typed = agent.ok(
        "type_text",
        json!({"text": "Dear diary: after the question."}),
    );
    assert_eq!(
        typed["structuredContent"]["effect"],
        "confirmed",
        "{}",
        agent.transcript()
    );
    assert!(
        text_of(&typed).contains("the keys went to textbox"),
        "{}",
        agent.transcript()
    );
    assert!(mousepad_holds(&desktop, "Dear diary: after the question."));
    desktop.stop().unwrap();
}

/// Ctrl+Q with unsaved text asks "save changes?" with Save focused: typing with no target
/// pressed Save and went on into the file chooser's name, reported confirmed. Refused now;
/// no file chooser opens.
#[test]
fn typed_text_never_answers_mousepads_save_question() {
    let desktop = VirtualDesktop::start().unwrap();
    let _mousepad = launch(&desktop, "mousepad");
    let mut agent = Agent::start(&desktop);
    agent.connect("mousepad");
    agent.ok("type_text", json!({"text": "a first line"}));
    agent.ok("press_key", json!({"key": "ctrl+q"}));
    agent.wait_for("alert >> button[name*=Save]", json!({}));

    let typed = agent.call("type_text", json!({"text": " and a sentence after it."}));
    let said = text_of(&typed);
    assert_eq!(typed["isError"], true, "{}", agent.transcript());
    assert_eq!(typed["structuredContent"]["code"], "not_editable", "{said}");
    assert!(said.contains("in alert"), "{said}");
    // Oracle: no file chooser opened, the question is still there, the document unchanged.
    let nodes = pyatspi_nodes(desktop.command(SYSTEM_PYTHON), "mousepad");
    assert!(!nodes.iter().any(|n| n["role"] == "file chooser"));
    assert!(nodes.iter().any(|n| n["role"] == "alert"));
    assert!(!mousepad_holds(&desktop, "a sentence after it"));
    desktop.stop().unwrap();
}

/// The GTK 3 fixture's modal "Confirm" with its OK button focused: typing with no target is
/// refused, naming the button. Oracle: the fixture reports no response and the dialog open.
#[test]
fn typed_text_never_presses_a_focused_button_of_a_modal() {
    let desktop = VirtualDesktop::start().unwrap();
    let app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let mut agent = Agent::start(&desktop);
    agent.connect_window(Fixture::Gtk3.window_title());
    agent.ok("click", json!({"target": "button[name*=\"Open dialog\"]"}));
    agent.wait_for("dialog >> button[name=OK]", json!({"state": "focused"}));
    let typed = agent.call("type_text", json!({"text": "yes please"}));
    let said = text_of(&typed);
    assert_eq!(typed["structuredContent"]["code"], "not_editable", "{said}");
    assert!(
        said.contains("button \"OK\" in dialog \"Confirm\""),
        "{said}"
    );
    assert_eq!(app.oracle.last("dialog", "response").unwrap(), None);
    assert_eq!(
        app.oracle.last("dialog", "open").unwrap(),
        Some(json!(true))
    );
    desktop.stop().unwrap();
}

/// Thunar's detailed list: report.txt dragged onto the folder inbox. The press alone selected
/// the row and opened the drag's windows, which was reported confirmed while the file never
/// moved; the drop now lands (the pointer paced as a person's), and is confirmed by the row
/// leaving. Oracle: the file system.
#[test]
fn a_file_dragged_onto_a_folder_in_thunar_lands_there() {
    let desktop = VirtualDesktop::start().unwrap();
    let folder = desktop.dir().join("files");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::write(folder.join("report.txt"), "quarterly numbers\n").unwrap();
    let mut cmd = desktop.command("thunar");
    cmd.arg(&folder);
    let _thunar = desktop.launch(cmd).unwrap();
    let mut agent = Agent::start(&desktop);
    agent.connect("thunar");
    agent.ok("press_key", json!({"key": "ctrl+2"}));
    agent.wait_for("columnheader[name=Name]", json!({}));
    let dragged = agent.ok(
        "drag",
        json!({"from": "[name=\"report.txt\"]", "to": "[name=\"inbox\"]"}),
    );
    assert_eq!(
        dragged["structuredContent"]["effect"],
        "confirmed",
        "{}",
        agent.transcript()
    );
    assert!(
        eventually(Duration::from_secs(10), || folder
            .join("inbox/report.txt")
            .exists()),
        "the file never landed:\n{}",
        agent.transcript()
    );
    assert!(!folder.join("report.txt").exists());
    desktop.stop().unwrap();
}

/// The Qt 5 fixture's list reorders by drag and drop: Apple dropped on Cherry. Oracle: the
/// order the fixture reports.
#[test]
fn a_row_dragged_in_a_qt_list_moves() {
    let desktop = VirtualDesktop::start().unwrap();
    let app = desktop.launch_fixture(Fixture::Qt5).unwrap();
    let mut agent = Agent::start(&desktop);
    agent.connect_window(Fixture::Qt5.window_title());
    let dragged = agent.ok(
        "drag",
        json!({"from": "listitem[name=Apple]", "to": "listitem[name=Cherry]"}),
    );
    let moved = app
        .oracle
        .wait_for(Duration::from_secs(5), |e| {
            e.is("fruits", "order") && e.value.get(0) != Some(&json!("Apple"))
        })
        .unwrap_or_else(|e| panic!("{e}\n{}", agent.transcript()));
    assert_eq!(
        dragged["structuredContent"]["effect"],
        "confirmed",
        "{} (order {})",
        agent.transcript(),
        moved.value
    );
    desktop.stop().unwrap();
}

/// Mousepad's Save As (a GTK 3 file chooser) opens with no name and Save disabled: a click that
/// does not wait is refused `disabled` (retryable, saying what it saw), and a click that waits
/// lands once a second agent has named the file (the chooser then enables Save). Then
/// `wait_for` enabled and a click that does not wait agree on the same button. Oracle: the
/// files on disk.
#[test]
fn mousepads_save_as_waits_for_save_to_be_enabled() {
    let desktop = VirtualDesktop::start().unwrap();
    let _mousepad = launch(&desktop, "mousepad");
    let path = desktop.dir().join("named-meanwhile.txt");
    let mut agent = Agent::start(&desktop);
    agent.connect("mousepad");
    agent.ok("type_text", json!({"text": "saved once enabled"}));
    agent.ok("press_key", json!({"key": "ctrl+shift+s"}));
    let name = "filechooser >> textbox[name=\"Name:\"]";
    let save = "filechooser >> button[name=Save]";
    agent.wait_for(name, json!({}));
    let refused = agent.call("click", json!({"target": save, "timeout_ms": 0}));
    assert_eq!(
        refused["structuredContent"]["code"],
        "disabled",
        "{}",
        agent.transcript()
    );
    assert_eq!(refused["structuredContent"]["retryable"], true);
    assert!(text_of(&refused).contains("last seen"));

    // The click waits; meanwhile another agent names the file.
    let args = json!({"session": agent.session, "target": save, "timeout_ms": 10000});
    let click = agent
        .server
        .send_request("tools/call", json!({"name": "click", "arguments": args}));
    let mut other = Agent::start(&desktop);
    other.connect("mousepad");
    other.ok(
        "set_value",
        json!({"target": name, "value": path.to_str().unwrap()}),
    );
    let clicked = agent.server.reply_to(click);
    assert_eq!(
        clicked["result"]["isError"],
        false,
        "{clicked}\n{}",
        other.transcript()
    );
    assert_eq!(agent::file_text(&path).trim_end(), "saved once enabled");

    // Once wait_for says Save is enabled, a click that does not wait finds it enabled too.
    let again = desktop.dir().join("again.txt");
    agent.ok("press_key", json!({"key": "ctrl+shift+s"}));
    agent.wait_for(name, json!({}));
    agent.ok(
        "set_value",
        json!({"target": name, "value": again.to_str().unwrap()}),
    );
    agent.wait_for(save, json!({"state": "enabled"}));
    agent.ok("click", json!({"target": save, "timeout_ms": 0}));
    assert_eq!(agent::file_text(&again).trim_end(), "saved once enabled");
    desktop.stop().unwrap();
}

/// AbiWord's Save As, the other GTK 3 file chooser where Save clicked right after the name
/// was refused `disabled`: the click waits until the chooser enables it. Oracle: the file on
/// disk holds the typed text.
#[test]
fn abiwords_save_as_saves_right_after_naming() {
    let desktop = VirtualDesktop::start().unwrap();
    let _abiword = launch(&desktop, "abiword");
    let path = desktop.dir().join("letter.abw");
    let mut agent = Agent::start(&desktop);
    agent.connect("abiword");
    agent.ok("type_text", json!({"text": "Dear reader"}));
    agent.ok("press_key", json!({"key": "ctrl+shift+s"}));
    let name = "filechooser >> textbox[name=\"Name:\"]";
    agent.wait_for(name, json!({}));
    agent.ok(
        "set_value",
        json!({"target": name, "value": path.to_str().unwrap()}),
    );
    agent.ok(
        "click",
        json!({"target": "filechooser >> button[name=Save]"}),
    );
    assert!(
        agent::file_text(&path).contains("Dear reader"),
        "{}",
        agent.transcript()
    );
    desktop.stop().unwrap();
}

/// A form whose OK ends its program after a silence, as zenity's did: `click OK` answered
/// `app_not_responding (retryable)` while the program had printed the form and exited, and
/// an agent told to retry presses OK on whatever is there next. It is confirmed now, with
/// "the app exited". The same OK freezing the program instead is still not responding; once
/// the program is gone, the next call says `app_gone`. Oracles: what the form printed, the
/// fixture's own record of the OK, the process.
#[test]
fn an_ok_that_ends_its_program_is_confirmed_and_one_that_freezes_it_is_not() {
    let desktop = VirtualDesktop::start().unwrap();
    for on_ok in ["exit", "freeze"] {
        let mut form = desktop
            .launch_fixture_with_args(Fixture::HostileOk, &["--on-ok", on_ok])
            .unwrap();
        let mut agent = Agent::start(&desktop);
        agent.connect("deskpilot-hostile-ok");
        agent.ok(
            "set_value",
            json!({"target": "textbox[name=Name]", "value": "Ada"}),
        );
        let clicked = agent.call("click", json!({"target": "button[name=OK]"}));
        let said = text_of(&clicked);
        let sent = |e: &deskpilot_testkit::OracleEvent| e.is("order", "sent");
        form.oracle.wait_for(Duration::from_secs(5), sent).unwrap();
        if on_ok == "exit" {
            assert_eq!(clicked["isError"], false, "{said}");
            assert!(
                said.contains("confirmed") && said.contains("the app exited"),
                "{said}"
            );
            assert!(form.app.wait_exit(Duration::from_secs(5)).is_some());
            assert_eq!(form.app.stdout_text().trim(), "Ada");
            continue;
        }
        assert_eq!(
            clicked["structuredContent"]["code"], "app_not_responding",
            "{said}"
        );
        assert!(form.app.is_running());
        form.app.kill();
        let next = agent.call("snapshot", json!({}));
        assert_eq!(next["structuredContent"]["code"], "app_gone", "{next}");
        assert_eq!(next["structuredContent"]["retryable"], false, "{next}");
    }
    desktop.stop().unwrap();
}

/// The lines of `tree` shown `[focused]`.
fn focused_lines(tree: &str) -> Vec<&str> {
    tree.lines().filter(|l| l.contains("[focused]")).collect()
}

/// KWrite (Qt 5, KDE Frameworks): Qt says `focused` of every widget whose focus proxy has the
/// focus, so the tree showed six elements focused at once (the text area and five status-bar
/// buttons). One is shown per window, the text area, both by a server that heard the app's
/// focus event and by a fresh CLI that heard none. Oracle: pyatspi sees the app claim
/// several, and the typed text land in that text area.
#[test]
fn a_qt_window_shows_one_focused_element_the_one_that_takes_keys() {
    let desktop = VirtualDesktop::start().unwrap();
    let _kwrite = launch(&desktop, "kwrite");
    let mut agent = Agent::start(&desktop);
    agent.connect("kwrite");
    // A first start shows a welcome page: a new document opens the editor.
    agent.wait_for("button[name=\"New File\"]", json!({}));
    agent.ok("click", json!({"target": "button[name=\"New File\"]"}));
    agent.wait_for("textbox[focused]", json!({}));
    let claimed = pyatspi_nodes(desktop.command(SYSTEM_PYTHON), "kwrite")
        .iter()
        .filter(|n| {
            n["states"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s == "focused")
        })
        .count();
    assert!(claimed > 2, "KWrite claims {claimed} focused elements");
    let tree = text_of(&agent.ok("snapshot", json!({})));
    let focused = focused_lines(&tree);
    assert_eq!(focused.len(), 1, "{tree}");
    assert!(focused[0].contains("textbox \"Untitled\""), "{tree}");
    let fresh = cli::deskpilot(&desktop, &["snapshot", "kwrite"]);
    let fresh = String::from_utf8_lossy(&fresh.stdout).into_owned();
    assert_eq!(focused_lines(&fresh).len(), 1, "{fresh}");
    assert!(
        focused_lines(&fresh)[0].contains("textbox \"Untitled\""),
        "{fresh}"
    );
    agent.ok("type_text", json!({"text": "only here"}));
    assert!(desktop.pyatspi_shows("kwrite", "only here"));
    desktop.stop().unwrap();
}
