//! Sessions over whole apps, on third-party apps Debian ships (not our fixtures): connected by
//! the name `apps` shows, a session sees every window of its app on GTK 3 (Mousepad), GTK 4
//! (gnome-calculator) and Qt 5 (FeatherPad); keys without a target go to the active window;
//! a window an action opens comes with a ref, and a renamed window is one window. The file
//! on disk judges the save.

#[path = "support/engine.rs"]
mod support_engine;

use std::time::{Duration, Instant};

use deskpilot_core::{
    Action, Chord, Condition, ConnectTarget, Effect, Engine, InputText, Selector, SnapshotRequest,
    Target, ValueInput, WindowPick,
};
use deskpilot_testkit::{App, VirtualDesktop};
use deskpilot_testkit::{has_state, pyatspi_nodes};
use support_engine::engine_on;

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

fn key(name: &str) -> Action {
    Action::PressKey(name.parse::<Chord>().unwrap())
}

fn launch(desktop: &VirtualDesktop, program: &str) -> App {
    desktop
        .launch(desktop.command(program))
        .unwrap_or_else(|e| panic!("{program}: {e}"))
}

/// Waits until `condition` holds for `selector` (at most `secs`), failing the test otherwise.
async fn until(engine: &Engine, session: &str, selector: &str, condition: Condition, secs: u64) {
    engine
        .session(session)
        .unwrap()
        .wait_for(
            &Selector::parse(selector).unwrap(),
            None,
            &condition,
            Duration::from_secs(secs),
        )
        .await
        .unwrap_or_else(|e| panic!("{selector}: {e:?}"));
}

/// Connects by app name once the app shows a window.
async fn connect_by_name(engine: &Engine, name: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let apps = engine.apps().await.unwrap_or_default();
        if apps.iter().any(|a| a.name == name && !a.windows.is_empty()) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{name} showed no window: {apps:#?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    engine
        .connect(&ConnectTarget::AppName(name.into()))
        .await
        .unwrap()
        .id
}

/// GTK 4 reports ChildCount 0 on its application object: a session on the app still reads
/// its window, and finds in it.
#[tokio::test]
async fn a_gtk4_app_is_read_by_its_name() {
    let desktop = VirtualDesktop::start().unwrap();
    let _calculator = launch(&desktop, "gnome-calculator");
    let (_, engine) = engine_on(&desktop).await;
    let session = connect_by_name(&engine, "gnome-calculator").await;
    let handle = engine.session(&session).unwrap();
    let snapshot = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    assert!(snapshot.rendered.lines > 20, "{}", snapshot.rendered.text);
    assert!(
        snapshot.rendered.text.contains("window \"Calculator\""),
        "{}",
        snapshot.rendered.text
    );
    let found = handle
        .find(&Selector::parse("button").unwrap(), None, 100)
        .await
        .unwrap();
    assert!(found.total > 10, "{found:?}");
    drop(engine);
    desktop.stop().unwrap();
}

/// Mousepad (GTK 3), connected by name: typing without a target goes to its window (the
/// application object has no enabled state), ctrl+s opens a file chooser that the report
/// names with a ref, the session's snapshot shows the chooser in full and the main window in
/// one line, and the chooser's own fields save the file (judged on disk).
#[tokio::test]
async fn mousepad_saves_through_its_file_chooser_in_an_app_session() {
    let desktop = VirtualDesktop::start().unwrap();
    let _mousepad = launch(&desktop, "mousepad");
    let (_, engine) = engine_on(&desktop).await;
    let session = connect_by_name(&engine, "mousepad").await;

    let handle = engine.session(&session).unwrap();
    let typed = handle
        .act_on_window(&Action::TypeText(InputText::plain("hello app")))
        .await
        .unwrap();
    // The title gains a star: one window renamed, not one opened and another closed.
    assert!(
        typed
            .changes
            .iter()
            .any(|c| c.starts_with("window renamed:")),
        "{}",
        deskpilot_core::present::action(&typed)
    );
    assert!(
        !typed.changes.iter().any(|c| c.starts_with("window opened")),
        "{}",
        deskpilot_core::present::action(&typed)
    );

    let saved = handle.act_on_window(&key("ctrl+s")).await.unwrap();
    let opened = saved
        .changes
        .iter()
        .find(|c| c.starts_with("window opened: filechooser"))
        .unwrap_or_else(|| panic!("{}", deskpilot_core::present::action(&saved)));
    let chooser_ref = opened
        .split("[ref=")
        .nth(1)
        .and_then(|r| r.strip_suffix(']'))
        .unwrap_or_else(|| panic!("no ref in {opened:?}"))
        .to_owned();

    let snapshot = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let text = &snapshot.rendered.text;
    assert!(text.contains("[folded]"), "{text}");
    assert!(
        text.contains(&format!(
            "filechooser \"Save As\" [modal] [ref={chooser_ref}]"
        )),
        "{text}"
    );
    // The main window on request, the chooser folded.
    let main = handle
        .snapshot(&SnapshotRequest {
            window: Some(WindowPick::Title("Mousepad".into())),
            ..SnapshotRequest::default()
        })
        .await
        .unwrap();
    assert!(
        main.rendered.text.contains(&format!(
            "filechooser \"Save As\" [modal] [ref={chooser_ref}] [folded]"
        )),
        "{}",
        main.rendered.text
    );

    let path = desktop.dir().join("note.txt");
    let name = handle
        .act(
            &by("textbox[name=\"Name:\"]"),
            &Action::SetValue(ValueInput::Text(InputText::plain(path.to_str().unwrap()))),
        )
        .await
        .unwrap();
    assert_eq!(
        name.effect,
        Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&name)
    );
    // The chooser enables Save once it has looked at the name (asynchronously).
    let enabled = Condition::State {
        state: deskpilot_core::model::State::Enabled,
        on: true,
    };
    until(
        &engine,
        &session,
        "filechooser >> button[name=Save]",
        enabled,
        10,
    )
    .await;
    let closed = handle
        .act(
            &by("filechooser >> button[name=Save]"),
            &Action::Click {
                button: deskpilot_core::MouseButton::Left,
                double: false,
            },
        )
        .await
        .unwrap();
    assert!(
        closed
            .changes
            .iter()
            .any(|c| c.starts_with("window closed: filechooser")),
        "{}",
        deskpilot_core::present::action(&closed)
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let written = loop {
        if let Ok(text) = std::fs::read_to_string(&path) {
            break text;
        }
        assert!(
            Instant::now() < deadline,
            "{} was not written",
            path.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(written.trim_end(), "hello app");
    drop(engine);
    desktop.stop().unwrap();
}

/// FeatherPad (Qt 5), connected by name: keys without a target reach its editor.
/// FeatherPad's File menu is closed: its items are there but not shown. `wait_for` appears
/// means visible (attached finds them), and acting on one is refused `not_visible`, naming
/// the menu to open; a selector whose matches are all in closed menus is not ambiguous about
/// what to do.
#[tokio::test]
async fn items_of_a_closed_menu_are_not_visible() {
    let desktop = VirtualDesktop::start().unwrap();
    let _featherpad = launch(&desktop, "featherpad");
    let (_, engine) = engine_on(&desktop).await;
    let session = connect_by_name(&engine, "FeatherPad").await;
    let save = Selector::parse("menuitem[name*=Save]").unwrap();
    let handle = engine.session(&session).unwrap();
    let appears = handle
        .wait_for(&save, None, &Condition::Appears, Duration::from_millis(800))
        .await;
    assert!(appears.is_err(), "met by a closed menu's item: {appears:?}");
    let attached = handle
        .wait_for(&save, None, &Condition::Attached, Duration::from_secs(5))
        .await
        .unwrap();
    assert!(!attached.element.unwrap().visible);
    let refused = handle
        .act(
            &by("menuitem[name=\"Save As\"]"),
            &Action::Click {
                button: deskpilot_core::MouseButton::Left,
                double: false,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(
        refused.code,
        deskpilot_core::Code::NotVisible,
        "{refused:?}"
    );
    assert!(refused.message.contains("\"File\""), "{}", refused.message);
    drop(engine);
    desktop.stop().unwrap();
}

/// Mousepad's Save As dialog holds a hidden textbox named "Name" beside the visible "Name:":
/// a selector matching both resolves to the visible one; the hidden one is refused, never
/// set and reported confirmed.
#[tokio::test]
async fn strictness_counts_visible_matches_and_hidden_fields_are_refused() {
    let desktop = VirtualDesktop::start().unwrap();
    let _mousepad = launch(&desktop, "mousepad");
    let (_, engine) = engine_on(&desktop).await;
    let session = connect_by_name(&engine, "mousepad").await;
    let handle = engine.session(&session).unwrap();
    handle.act_on_window(&key("ctrl+shift+s")).await.unwrap();
    let name = Selector::parse("filechooser >> textbox[name*=Name]").unwrap();
    until(
        &engine,
        &session,
        "filechooser >> textbox[name*=Name]",
        Condition::Appears,
        10,
    )
    .await;
    let resolved = handle.resolve(&Target::Selector(name)).await.unwrap();
    assert_eq!(resolved.node.display_name(), "Name:");
    let hidden = handle
        .act(
            &by("filechooser >> textbox[name=\"Name\"]"),
            &Action::SetValue(ValueInput::Text(InputText::plain("x.txt"))),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(
            hidden.code,
            deskpilot_core::Code::Offscreen | deskpilot_core::Code::NotVisible
        ),
        "{hidden:?}"
    );
    drop(engine);
    desktop.stop().unwrap();
}

/// When the app quits, the session's calls answer `app_gone` with a hint to connect again;
/// started again under the same name, it is connected to by that name.
#[tokio::test]
async fn a_session_outlives_its_app_with_a_clear_answer() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut mousepad = launch(&desktop, "mousepad");
    let (_, engine) = engine_on(&desktop).await;
    let session = connect_by_name(&engine, "mousepad").await;
    mousepad.kill();
    let deadline = Instant::now() + Duration::from_secs(10);
    let gone = loop {
        match engine
            .session(&session)
            .unwrap()
            .snapshot(&SnapshotRequest::default())
            .await
        {
            Err(e) if e.code == deskpilot_core::Code::AppGone => break e,
            other => {
                assert!(Instant::now() < deadline, "still answering: {other:?}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let hint = deskpilot_core::hint::in_tool_names(&gone.hint);
    assert!(hint.contains("connect again"), "{gone:?}");
    let _again = launch(&desktop, "mousepad");
    let session = connect_by_name(&engine, "mousepad").await;
    let snapshot = engine
        .session(&session)
        .unwrap()
        .snapshot(&SnapshotRequest::default())
        .await
        .unwrap();
    assert!(
        snapshot.rendered.text.contains("Mousepad"),
        "{}",
        snapshot.rendered.text
    );
    drop(engine);
    desktop.stop().unwrap();
}

/// A session on Mousepad's window (by title) covers the file chooser that window opens: the
/// chooser is in its snapshot and find, whatever its role, without connecting again.
#[tokio::test]
async fn a_window_session_covers_the_file_chooser_it_opens() {
    let desktop = VirtualDesktop::start().unwrap();
    let _mousepad = launch(&desktop, "mousepad");
    let (_, engine) = engine_on(&desktop).await;
    connect_by_name(&engine, "mousepad").await;
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Untitled 1 - Mousepad".into()))
        .await
        .unwrap()
        .id;
    let handle = engine.session(&session).unwrap();
    handle.act_on_window(&key("ctrl+shift+s")).await.unwrap();
    let name = "filechooser >> textbox[name=\"Name:\"]";
    until(&engine, &session, name, Condition::Appears, 10).await;
    let snapshot = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    assert!(
        snapshot.rendered.text.contains("filechooser \"Save As\""),
        "{}",
        snapshot.rendered.text
    );
    drop(engine);
    desktop.stop().unwrap();
}

/// Mousepad's quit confirmation is "Question" on AT-SPI and "Save Changes" on the display:
/// keys still reach it (it was refused window_not_foreground). Oracle: pyatspi sees the alert
/// go, and Mousepad still runs.
#[tokio::test]
async fn keys_reach_a_dialog_titled_otherwise_on_the_display() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut mousepad = launch(&desktop, "mousepad");
    let (_, engine) = engine_on(&desktop).await;
    let session = connect_by_name(&engine, "mousepad").await;
    let handle = engine.session(&session).unwrap();
    handle
        .act_on_window(&Action::TypeText(InputText::plain("draft")))
        .await
        .unwrap();
    handle.act_on_window(&key("ctrl+q")).await.unwrap();
    until(&engine, &session, "alert", Condition::Appears, 10).await;
    let escaped = handle.act_on_window(&key("Escape")).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while pyatspi_nodes(
        desktop.command(deskpilot_testkit::SYSTEM_PYTHON),
        "mousepad",
    )
    .iter()
    .any(|n| n["role"] == "alert")
    {
        assert!(
            Instant::now() < deadline,
            "the alert stayed: {}",
            deskpilot_core::present::action(&escaped)
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(mousepad.is_running());
    drop(engine);
    desktop.stop().unwrap();
}

/// A wait wakes on a third-party app's own event for a change: with the fallback poll an hour
/// away, text a second AT-SPI client (pyatspi, not deskpilot) inserts into the app's document
/// wakes the sleep between two looks. pyatspi reads the text back as the oracle of the change.
async fn a_change_by_another_client_wakes_the_wait(program: &str, name: &str) {
    use std::io::{BufRead, Write};

    let desktop = VirtualDesktop::start().unwrap();
    let _app = launch(&desktop, program);
    let (_, engine) = engine_on(&desktop).await;
    let session = connect_by_name(&engine, name).await;
    let root = engine.session(&session).unwrap().info().unwrap().root;
    let hour = Duration::from_secs(3600);
    let mut client = desktop
        .command(deskpilot_testkit::SYSTEM_PYTHON)
        .arg(deskpilot_testkit::fixtures_dir().join("pyatspi_insert.py"))
        .args([name, "typed by pyatspi"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(client.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "ready", "{name}");
    // The events of pyatspi's own reading (objects created on demand) and of the
    // registration come first: let them pass until 300 ms go by without one (at most 10 s).
    let quiet_by = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let mut wake = engine.wake_on(&root, hour).await;
        let spell = tokio::time::Instant::now() + Duration::from_millis(300);
        if tokio::time::timeout_at(spell, wake.next(spell + hour))
            .await
            .is_err()
        {
            break;
        }
        assert!(
            tokio::time::Instant::now() < quiet_by,
            "{name} never went quiet"
        );
    }
    let mut wake = engine.wake_on(&root, hour).await;
    writeln!(client.stdin.take().unwrap(), "go").unwrap();
    let woke = tokio::time::timeout(
        Duration::from_secs(5),
        wake.next(tokio::time::Instant::now() + hour),
    )
    .await;
    let read_back = lines.next().unwrap().unwrap();
    assert!(client.wait().unwrap().success(), "{name}: pyatspi failed");
    assert!(
        read_back.starts_with("typed by pyatspi"),
        "{name}: pyatspi read back {read_back:?}"
    );
    assert!(woke.is_ok(), "{name} sent no event for the inserted text");
    assert_eq!(wake.wakes().by_event, 1, "{name}");
    drop(engine);
    desktop.stop().unwrap();
}

#[tokio::test]
async fn mousepad_text_changes_wake_a_wait() {
    a_change_by_another_client_wakes_the_wait("mousepad", "mousepad").await;
}

#[tokio::test]
async fn featherpad_text_changes_wake_a_wait() {
    a_change_by_another_client_wakes_the_wait("featherpad", "FeatherPad").await;
}

/// The focus from focus events on a third-party app: after Tab moves the focus in
/// gnome-calculator (GTK 4), `get_focus` answers in a few calls (the element the app's latest
/// focus event named, read afresh), and a second AT-SPI client (pyatspi) sees that same element
/// focused.
#[tokio::test]
async fn the_calculators_focus_comes_from_its_focus_events() {
    let desktop = VirtualDesktop::start().unwrap();
    let _calculator = launch(&desktop, "gnome-calculator");
    let (backend, engine) = engine_on(&desktop).await;
    let session = connect_by_name(&engine, "gnome-calculator").await;
    let handle = engine.session(&session).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    // GTK 4 has no Component.GrabFocus: the focus moves with keys, as a person moves it.
    for _ in 0..3 {
        handle.act_on_window(&key("Tab")).await.unwrap();
    }
    let before = backend.calls();
    let focused = handle.focus().await.unwrap().expect("a focused element");
    let calls = backend.calls() - before;
    // pyatspi sees the toolkit's name (GTK 4.8 says a button's label twice: ") )").
    let name = focused
        .node
        .raw_name
        .clone()
        .unwrap_or_else(|| focused.name.clone());
    // A walk, for comparison (what get_focus did before).
    let before = backend.calls();
    handle
        .find(&Selector::parse("button").unwrap(), None, 5)
        .await
        .unwrap();
    let walk = backend.calls() - before;
    eprintln!("focus: {calls} calls, a walk {walk}");
    assert!(
        calls * 2 < walk,
        "{calls} calls vs a walk's {walk}: a walk, not the focus event"
    );
    let nodes = deskpilot_testkit::pyatspi_nodes(
        desktop.command(deskpilot_testkit::SYSTEM_PYTHON),
        "gnome-calculator",
    );
    let seen: Vec<&str> = nodes
        .iter()
        .filter(|n| has_state(n, "focused"))
        .map(|n| n["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(seen, [name.as_str()], "pyatspi sees focused: {seen:?}");
    drop(engine);
    desktop.stop().unwrap();
}
