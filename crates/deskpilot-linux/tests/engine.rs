//! The engine over the AT-SPI backend on a real fixture: refs across snapshots and a reorder,
//! find at any depth, strict resolution.

use std::time::Duration;

use deskpilot_core::{Code, ConnectTarget, Engine, Selector, SnapshotRequest, Target};
use deskpilot_linux::{LinuxEngine, LinuxOptions, linux_engine};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;

fn ref_in(rendered: &deskpilot_core::Rendered, part: &str) -> String {
    let found = rendered.ref_on_line(part);
    found.unwrap_or_else(|| panic!("no ref on a line with {part:?} in\n{}", rendered.text))
}

async fn engine_on(desktop: &VirtualDesktop, fixture: Fixture) -> (Engine, String) {
    // The engine with no display: semantic routes only.
    let options = LinuxOptions::new(desktop.session_bus_address(), None);
    let engine = linux_engine(options).await.unwrap().engine;
    let session = engine
        .connect(&ConnectTarget::WindowTitle(fixture.window_title().into()))
        .await
        .unwrap()
        .id;
    (engine, session)
}

#[tokio::test]
async fn refs_survive_snapshots_and_are_refused_after_a_reorder() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let handle = engine.session(&s).unwrap();
    let first = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let second = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    assert_eq!(
        first.rendered.text, second.rendered.text,
        "same tree, same refs"
    );
    let apple = ref_in(&first.rendered, "listitem \"Apple\"");
    let count = ref_in(&first.rendered, "button \"Count\"");
    assert_eq!(
        handle
            .resolve_ref(&apple)
            .await
            .unwrap()
            .node
            .display_name(),
        "Apple"
    );

    // The fixture rebuilds its list in reverse order.
    fixture.command("reorder_list", json!({})).unwrap();
    fixture
        .oracle
        .wait_value(
            "fruits",
            "order",
            json!(["Date", "Cherry", "Banana", "Apple"]),
            Duration::from_secs(5),
        )
        .unwrap();
    let error = handle.resolve_ref(&apple).await.unwrap_err();
    assert_eq!(error.code, Code::StaleRef, "{}", error.message);
    assert!(error.hint.contains("snapshot"));
    // Untouched elements keep their refs.
    assert_eq!(handle.resolve_ref(&count).await.unwrap().node.name, "Count");
    let third = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    assert_eq!(ref_in(&third.rendered, "button \"Count\""), count);
    let new_apple = ref_in(&third.rendered, "listitem \"Apple\"");
    assert_ne!(new_apple, apple);
    let lines: Vec<&str> = third
        .rendered
        .text
        .lines()
        .filter(|l| l.contains("listitem"))
        .collect();
    assert!(
        lines[0].contains("Date") && lines[3].contains("Apple"),
        "{lines:?}"
    );
}

#[tokio::test]
async fn find_reaches_any_depth_and_resolution_is_strict() {
    let desktop = VirtualDesktop::start().unwrap();
    let _fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let sel = |t: &str| Selector::parse(t).unwrap();
    // A cell far below the visible rows, and a menu item inside a closed menu.
    let handle = engine.session(&s).unwrap();
    let found = handle
        .find(&sel("cell[name=\"Item 150\"]"), None, 5)
        .await
        .unwrap();
    assert_eq!(found.total, 1);
    let found = handle
        .find(&sel("menuitem[name=\"Report.txt\"]"), None, 5)
        .await
        .unwrap();
    assert_eq!(found.total, 1);
    let count = handle
        .resolve(&Target::Selector(sel("button[name=Count]")))
        .await
        .unwrap();
    assert_eq!(count.node.name, "Count");
    let ambiguous = handle
        .resolve(&Target::Selector(sel("radio")))
        .await
        .unwrap_err();
    assert_eq!(ambiguous.code, Code::Ambiguous);
    let within = handle
        .find(&sel("listbox >> listitem"), None, 10)
        .await
        .unwrap();
    assert_eq!(within.total, 4);
}

#[tokio::test]
async fn paging_through_a_real_window_reads_every_node_once() {
    use deskpilot_core::Filter;
    let desktop = VirtualDesktop::start().unwrap();
    let _fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let all = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let handle = engine.session(&s).unwrap();
    let whole = handle.snapshot(&all).await.unwrap();
    let mut expected: Vec<_> = whole.tree.nodes.iter().map(|n| n.node.id.clone()).collect();
    let mut seen = Vec::new();
    let mut request = SnapshotRequest {
        max_nodes: 150,
        ..all
    };
    for _ in 0..50 {
        let page = handle.snapshot(&request).await.unwrap();
        seen.extend(page.tree.nodes.iter().map(|n| n.node.id.clone()));
        match page.truncated.and_then(|t| t.cursor) {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }
    assert!(
        request.cursor.is_some(),
        "the window needs several pages of 150"
    );
    expected.sort();
    seen.sort();
    assert_eq!(seen.len(), expected.len());
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn a_minimized_window_says_so() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let handle = engine.session(&s).unwrap();
    assert!(
        !handle
            .snapshot(&SnapshotRequest::default())
            .await
            .unwrap()
            .minimized
    );
    fixture.command("minimize", json!({})).unwrap();
    fixture
        .oracle
        .wait_value("control", "done", json!("minimize"), Duration::from_secs(5))
        .unwrap();
    // The window manager iconifies it asynchronously: wait for the state, with a deadline.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let snapshot = loop {
        let snapshot = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
        if snapshot.minimized || std::time::Instant::now() > deadline {
            break snapshot;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(snapshot.minimized, "{}", snapshot.rendered.text);
    assert!(
        snapshot
            .rendered
            .text
            .lines()
            .next()
            .unwrap()
            .contains("[minimized]")
    );
}

/// After an action with no postcondition of its own and nothing to show for it (a click on
/// the unnamed button, which counts its clicks silently; the Count button's label announces
/// its text and confirms), an app whose events report every change (GTK 3, and GTK 4 but
/// for scrolls: `kept.rs`) is known to be done once it goes quiet, and the report says so.
async fn plain_click_settles(fixture_kind: Fixture) -> deskpilot_core::ActionReport {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(fixture_kind).unwrap();
    let options = LinuxOptions::new(desktop.session_bus_address(), None);
    let LinuxEngine { engine, backend } = linux_engine(options).await.unwrap();
    let session = engine
        .connect(&ConnectTarget::WindowTitle(
            fixture_kind.window_title().into(),
        ))
        .await
        .unwrap()
        .id;
    // Snapshots until the app's events are trusted: a snapshot that reads no cache.
    let tries = 30;
    // GTK 4's combo box holds an unnamed button too.
    let unnamed = if fixture_kind == Fixture::Gtk4 {
        r#"button[name=""]:nth(1)"#
    } else {
        r#"button[name=""]"#
    };
    for _ in 0..tries {
        let before = backend.cache_reads();
        engine
            .session(&session)
            .unwrap()
            .snapshot(&SnapshotRequest::default())
            .await
            .unwrap();
        if backend.cache_reads() == before {
            break;
        }
    }
    let report = engine
        .session(&session)
        .unwrap()
        .act(
            &Target::Selector(Selector::parse(unnamed).unwrap()),
            &deskpilot_core::Action::Click {
                button: deskpilot_core::MouseButton::Left,
                double: false,
            },
        )
        .await
        .unwrap();
    // The click happened.
    fixture
        .oracle
        .wait_value("unnamed", "clicks", json!(1), Duration::from_secs(5))
        .unwrap();
    report
}

#[tokio::test]
async fn a_quiet_gtk3_app_ends_the_wait_after_a_plain_click() {
    let report = plain_click_settles(Fixture::Gtk3).await;
    assert_eq!(report.effect, deskpilot_core::Effect::Unverified);
    assert!(
        report
            .note
            .as_deref()
            .is_some_and(|n| n.contains("events said it was done")),
        "{}",
        deskpilot_core::present::action(&report)
    );
}

#[tokio::test]
async fn a_quiet_gtk4_app_ends_the_wait_after_a_plain_click() {
    let report = plain_click_settles(Fixture::Gtk4).await;
    assert_eq!(report.effect, deskpilot_core::Effect::Unverified);
    assert!(
        report
            .note
            .as_deref()
            .is_some_and(|n| n.contains("events said it was done")),
        "{}",
        deskpilot_core::present::action(&report)
    );
}

/// How soon each change made from outside (the fixture's control channel) woke a wait whose
/// poll was pushed an hour away; `None` where no event came within 5 s.
struct Woken {
    /// A label's text set by the app.
    label: Option<Duration>,
    /// A text field's text set by the app.
    field: Option<Duration>,
    /// A dialog opened.
    dialog: Option<Duration>,
}

/// The engine's wait wakes on the app's own event, or says it did not. Apps learn of the
/// registration for events asynchronously: a first change is let go before; and a wait's
/// first look (a read of the window) comes before its sleep, here too.
async fn events_wake_a_wait(fixture_kind: Fixture) -> Woken {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(fixture_kind).unwrap();
    let (engine, session) = engine_on(&desktop, fixture_kind).await;
    let handle = engine.session(&session).unwrap();
    let root = handle.info().unwrap().root;
    let hour = Duration::from_secs(3600);
    let mut wake = engine.wake_on(&root, hour).await;
    assert!(wake.wakes().events_watched, "{fixture_kind:?}");
    fixture
        .command("set_label", json!({"text": "Warm"}))
        .unwrap();
    let warm = tokio::time::Instant::now() + Duration::from_secs(3);
    let _ = tokio::time::timeout_at(warm, wake.next(warm + hour)).await;
    // A wait looks before it sleeps: the look reads the window, and toolkits that make an
    // element's accessible object on demand (GTK 3) only send events for those that exist.
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let mut woken = async |command: &str, args: serde_json::Value| {
        let mut wake = engine.wake_on(&root, hour).await;
        let sent = tokio::time::Instant::now();
        fixture.command(command, args).unwrap();
        let woke = tokio::time::timeout(Duration::from_secs(5), wake.next(sent + hour)).await;
        woke.ok().map(|_| {
            assert_eq!(wake.wakes().by_event, 1, "{fixture_kind:?} {command}");
            sent.elapsed()
        })
    };
    let label = woken("set_label", json!({"text": "Woken"})).await;
    let field = woken("set_text", json!({"widget": "name", "text": "Woken"})).await;
    let dialog = woken("open_dialog", json!({})).await;
    eprintln!(
        "{fixture_kind:?}: woken after a label change {label:?}, a field's {field:?}, a dialog {dialog:?}"
    );
    drop(engine);
    desktop.stop().unwrap();
    Woken {
        label,
        field,
        dialog,
    }
}

#[tokio::test]
async fn gtk3_events_wake_a_wait() {
    let woken = events_wake_a_wait(Fixture::Gtk3).await;
    assert!(
        woken.label.is_some(),
        "no event from GTK 3 for a label change"
    );
    assert!(
        woken.field.is_some(),
        "no event from GTK 3 for a field's text"
    );
}

#[tokio::test]
async fn gtk4_events_wake_a_wait() {
    let woken = events_wake_a_wait(Fixture::Gtk4).await;
    assert!(
        woken.label.is_some(),
        "no event from GTK 4 for a label change"
    );
    assert!(
        woken.field.is_some(),
        "no event from GTK 4 for a field's text"
    );
    assert!(woken.dialog.is_some(), "no event from GTK 4 for a dialog");
}

/// Qt 5 announces a field's new text only with `object:text-changed`.
#[tokio::test]
async fn qt5_events_wake_a_wait() {
    let woken = events_wake_a_wait(Fixture::Qt5).await;
    assert!(
        woken.label.is_some(),
        "no event from Qt 5 for a label change"
    );
    assert!(
        woken.field.is_some(),
        "no event from Qt 5 for a field's text"
    );
}
