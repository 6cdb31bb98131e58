//! The live tree on a real fixture: an action's result carries what it changed (refs usable at
//! once), an unchanged app reads as nothing changed, and a burst of 1,000 changes read as
//! diffs while it runs, applied one after the other, ends where a second engine's cold read
//! does.

#[path = "support/quiet.rs"]
mod support_quiet;

use std::time::{Duration, Instant};

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::live::{Changes, Since, View, apply, lines_text};
use deskpilot_core::present::strip_refs;
use deskpilot_core::{
    Action, ConnectTarget, Engine, Filter, MouseButton, Selector, SnapshotRequest, Target,
};
use deskpilot_linux::{LinuxOptions, linux_engine};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;

async fn engine_on(desktop: &VirtualDesktop, fixture: Fixture) -> (Engine, String) {
    let options = LinuxOptions::new(desktop.session_bus_address(), None);
    let engine = linux_engine(options).await.unwrap().engine;
    let session = engine
        .connect(&ConnectTarget::WindowTitle(fixture.window_title().into()))
        .await
        .unwrap()
        .id;
    (engine, session)
}

fn since_last(filter: Filter) -> SnapshotRequest {
    SnapshotRequest {
        filter,
        since: Some(Since::Last),
        ..SnapshotRequest::default()
    }
}

const CLICK: Action = Action::Click {
    button: MouseButton::Left,
    double: false,
};

#[tokio::test]
async fn gtk3_an_action_result_carries_its_changes() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let handle = engine.session(&s).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    // Nothing changed: the same elements read again are the same lines (tree-view cells
    // included), so there is nothing to say.
    let again = handle
        .snapshot(&since_last(Filter::Interactive))
        .await
        .unwrap();
    match &again.changes {
        Some(Changes::Diff(diff)) => assert!(diff.is_empty(), "{:?}", diff.edits),
        other => panic!("{other:?}"),
    }
    let add = Target::Selector(Selector::parse("button[name=\"Add item\"]").unwrap());
    let report = handle.act(&add, &CLICK).await.unwrap();
    fixture
        .oracle
        .wait_value("dynamic", "count", json!(1), Duration::from_secs(5))
        .unwrap();
    let text = deskpilot_core::present::action(&report);
    let tree = report.tree.expect("the tree after the click");
    assert_eq!((tree.added, tree.removed), (1, 0), "{text}");
    let lines = deskpilot_core::present::tree_update(&tree);
    let line = lines
        .lines()
        .find(|l| l.starts_with('+') && l.contains("button \"Dynamic 1\""))
        .unwrap_or_else(|| panic!("no new button in\n{lines}"));
    let new_ref = line.split("[ref=").nth(1).unwrap().trim_end_matches(']');
    // The ref in the result is usable at once.
    handle
        .act(&Target::Ref(new_ref.into()), &CLICK)
        .await
        .unwrap();
    fixture
        .oracle
        .wait_value("dynamic-1", "clicked", json!(true), Duration::from_secs(5))
        .unwrap();
}

#[tokio::test]
async fn gtk3_a_burst_of_1000_changes_read_as_diffs_ends_as_a_cold_read() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let handle = engine.session(&s).unwrap();
    let first = handle
        .snapshot(&SnapshotRequest {
            filter: Filter::All,
            ..SnapshotRequest::default()
        })
        .await
        .unwrap();
    let mut held = View::lines_of(&first.tree, &first.rendered);
    fixture
        .command(
            "burst",
            // 10 s of changes: enough reads land inside the burst even when each takes a
            // second (seven desktops at once on two cores).
            json!({"changes": 1000, "seed": 7, "per_tick": 2, "tick_ms": 20}),
        )
        .unwrap();
    let mut reads = 0;
    let mut diffs = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let done = burst_done(&fixture);
        let read = handle.snapshot(&since_last(Filter::All)).await.unwrap();
        let new = View::lines_of(&read.tree, &read.rendered);
        held = match &read.changes {
            Some(Changes::Diff(diff)) => {
                diffs += 1;
                apply(&held, &diff.edits).unwrap_or_else(|e| panic!("read {reads}: {e}"))
            }
            _ => new.clone(),
        };
        assert_eq!(
            held, new,
            "read {reads}: the diff applied is not the tree read"
        );
        reads += 1;
        if done {
            break;
        }
        assert!(Instant::now() < deadline, "the burst did not end");
    }
    assert!(diffs >= 5, "only {diffs} of {reads} reads were diffs");
    // Then one change at a time, each read as a diff and checked against a second engine's
    // cold read (its own connection, nothing kept): few changes between two reads is where
    // kept identities are used, and where a change no event names would be missed.
    let cold_engine = Engine::new(std::sync::Arc::new(
        AtspiBackend::connect(ConnectOptions {
            reuse_quiet_cache: false,
            ..ConnectOptions::new(desktop.session_bus_address())
        })
        .await
        .unwrap(),
    ));
    let cold = cold_engine
        .connect(&ConnectTarget::WindowTitle(
            Fixture::Gtk3.window_title().into(),
        ))
        .await
        .unwrap()
        .id;
    let all = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    // The burst leaves up to 6 buttons: removing 7 empties their box, and the box's first
    // new child is the change GTK 3 announces with no event on the box.
    let mut steps: Vec<(&str, serde_json::Value, &str)> =
        vec![("remove_item", json!({}), "dynamic"); 7];
    steps.extend([
        ("add_item", json!({}), "dynamic"),
        ("set_label", json!({"text": "Step"}), "delayed"),
        ("add_item", json!({}), "dynamic"),
        ("set_text", json!({"widget": "name", "text": "Ada"}), "name"),
        ("reorder_list", json!({}), "fruits"),
        ("remove_item", json!({}), "dynamic"),
        ("open_dialog", json!({}), "dialog"),
        ("close_dialog", json!({}), "dialog"),
    ]);
    for (step, (cmd, args, widget)) in steps.into_iter().enumerate() {
        fixture.run(cmd, args).unwrap();
        let read = handle.snapshot(&since_last(Filter::All)).await.unwrap();
        if let Some(Changes::Diff(diff)) = &read.changes {
            held = apply(&held, &diff.edits).unwrap_or_else(|e| panic!("step {step}: {e}"));
        } else {
            held = View::lines_of(&read.tree, &read.rendered);
        }
        let cold_read = cold_engine
            .session(&cold)
            .unwrap()
            .snapshot(&all)
            .await
            .unwrap();
        assert_eq!(
            strip_refs(&lines_text(&held)),
            strip_refs(&cold_read.rendered.text),
            "step {step} ({cmd}, {widget})"
        );
    }
    eprintln!("burst: {reads} reads, {diffs} diffs");
}

fn burst_done(fixture: &deskpilot_testkit::FixtureApp) -> bool {
    fixture
        .oracle
        .events()
        .unwrap()
        .iter()
        .any(|e| e.widget == "control" && e.prop == "done" && e.value == json!("burst"))
}

/// A wait woken by the app's event reads first only what the event named (with its
/// ancestors), and that look agrees with a full one: same element, shown.
#[tokio::test]
async fn gtk3_a_wait_reads_what_the_event_named_first() {
    a_wait_reads_what_the_event_named_first(Fixture::Gtk3).await;
}

#[tokio::test]
async fn gtk4_a_wait_reads_what_the_event_named_first() {
    a_wait_reads_what_the_event_named_first(Fixture::Gtk4).await;
}

#[tokio::test]
async fn qt5_a_wait_reads_what_the_event_named_first() {
    a_wait_reads_what_the_event_named_first(Fixture::Qt5).await;
}

/// Waits one after another with no snapshot between, as an agent waits after each change. A
/// wait's whole look that the look on events beat is finished apart, so later waits' looks
/// come to a kept tree. Before, each was dropped unfinished and GTK 4 was walked afresh at
/// every wait (`bench live`: 125 ms a wait; none of these waits read a kept tree).
#[tokio::test]
async fn gtk4_waits_in_a_row_come_to_a_kept_tree() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk4).unwrap();
    let options = LinuxOptions::new(desktop.session_bus_address(), None);
    let linux = linux_engine(options).await.unwrap();
    let title = ConnectTarget::WindowTitle(Fixture::Gtk4.window_title().into());
    let s = linux.engine.connect(&title).await.unwrap().id;
    let handle = linux.engine.session(&s).unwrap();
    let kept = || linux.backend.kept_reuses() + linux.backend.kept_patches();
    // Rounds until one reads a kept tree: the read finished apart takes seconds on GTK 4.
    let mut rounds = 0;
    while kept() == 0 && rounds < 20 {
        let text = format!("Round {rounds}");
        let selector = Selector::parse(&format!("label[name=\"{text}\"]")).unwrap();
        let appears = deskpilot_core::Condition::Appears;
        let wait = handle.wait_for(&selector, None, &appears, Duration::from_secs(10));
        let change = async {
            // While the wait's first look reads the app.
            tokio::time::sleep(Duration::from_millis(300)).await;
            fixture.command("set_label", json!({"text": text})).unwrap();
        };
        let (outcome, ()) = tokio::join!(wait, change);
        assert!(outcome.unwrap().element.is_some());
        rounds += 1;
    }
    assert!(kept() > 0, "no wait in {rounds} read a kept tree");
}

async fn a_wait_reads_what_the_event_named_first(kind: Fixture) {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(kind).unwrap();
    let (engine, s) = engine_on(&desktop, kind).await;
    // One whole read first: GTK makes an object when it is first read, and each announces
    // itself with events (about a thousand on the GTK3 fixture's first find), which would wake
    // the wait for a full look instead.
    let selector = Selector::parse("label[name=\"Targeted\"]").unwrap();
    let handle = engine.session(&s).unwrap();
    handle.find(&selector, None, 5).await.unwrap();
    // Until those are over (a loaded machine reads slowly, and they would come during the
    // wait's first look).
    let app = handle.info().unwrap().app.id;
    let mut events = engine.backend().events().changes(&app).await.unwrap();
    support_quiet::quiet(&mut events).await;
    let wait = handle.wait_for(
        &selector,
        None,
        &deskpilot_core::Condition::Appears,
        Duration::from_secs(10),
    );
    let change = async {
        // After the wait's first look, while it sleeps.
        tokio::time::sleep(Duration::from_millis(600)).await;
        fixture
            .command("set_label", json!({"text": "Targeted"}))
            .unwrap();
    };
    let (outcome, ()) = tokio::join!(wait, change);
    let outcome = outcome.unwrap();
    assert_eq!(outcome.wakes.targeted, 1, "{outcome:?}");
    let element = outcome.element.expect("the label");
    assert!(element.visible);
    let full = handle.find(&selector, None, 5).await.unwrap();
    assert_eq!(full.matches.len(), 1);
    assert_eq!(full.matches[0].reference, element.reference);
    assert_eq!(full.matches[0].visible, element.visible);
}

/// The focus comes from the app's focus events: the element the latest one named, read
/// afresh with its ancestors, in a few calls instead of a walk; and it is the element a walk
/// finds focused.
#[tokio::test]
async fn gtk3_the_focus_comes_from_focus_events() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let options = LinuxOptions::new(desktop.session_bus_address(), None);
    let linux = linux_engine(options).await.unwrap();
    let (backend, engine) = (linux.backend, linux.engine);
    let s = engine
        .connect(&ConnectTarget::WindowTitle(
            Fixture::Gtk3.window_title().into(),
        ))
        .await
        .unwrap()
        .id;
    let handle = engine.session(&s).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let name = Target::Selector(Selector::parse("textbox[name=Name]").unwrap());
    handle.act(&name, &Action::Focus).await.unwrap();
    let _ = &fixture;
    let before = backend.calls();
    let focused = handle.focus().await.unwrap().expect("a focused element");
    let calls = backend.calls() - before;
    assert_eq!(
        (focused.role, focused.name.as_str()),
        (deskpilot_core::model::Role::TextBox, "Name")
    );
    assert!(calls < 60, "{calls} calls: a walk, not the focus event");
    // A walk finds the same element.
    let walked = handle
        .find(&Selector::parse("textbox[focused]").unwrap(), None, 5)
        .await
        .unwrap();
    assert_eq!(walked.matches[0].reference, focused.reference);
}

/// A flood while a wait sleeps (the table's 200 rows replaced by 300 new ones: more events
/// than are remembered one by one): the look it wakes reads the whole tree and the wait says
/// so; and the changes since the last read, longer than the tree, come as the whole tree with
/// why.
#[tokio::test]
async fn gtk3_a_flood_falls_back_to_a_full_read_and_says_so() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let all = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let handle = engine.session(&s).unwrap();
    handle.snapshot(&all).await.unwrap();
    // A poll may wake the look that sees the flood first (a full look anyway): then again,
    // until a look on the flood's events saw it.
    let mut on_events = None;
    for attempt in 0..4 {
        let prefix = format!("Flood{attempt}");
        // The last new row's cell (scrolled out of view: attached, not visible).
        let selector = Selector::parse(&format!("cell[name=\"{prefix} 299\"]")).unwrap();
        // The app replaces the rows 1.5 s from now, while the wait sleeps after a look.
        fixture
            .command(
                "fill_table",
                json!({"rows": 300, "prefix": prefix, "after_ms": 1500}),
            )
            .unwrap();
        let outcome = handle
            .wait_for(
                &selector,
                None,
                &deskpilot_core::Condition::Attached,
                Duration::from_secs(20),
            )
            .await
            .unwrap();
        if outcome.wakes.by_event > 0 {
            on_events = Some(outcome);
            break;
        }
    }
    let outcome = on_events.expect("no look on the flood's events in 4 tries");
    let text = deskpilot_core::present::waited(&outcome);
    assert!(outcome.wakes.flooded >= 1, "{outcome:?}");
    assert!(
        text.contains("after a flood of events read the whole tree")
            || text.contains("after floods of events read the whole tree"),
        "{text}"
    );
    let read = handle.snapshot(&since_last(Filter::All)).await.unwrap();
    match &read.changes {
        Some(Changes::Whole { why }) => assert!(why.contains("longer than the tree"), "{why}"),
        other => panic!("{other:?}"),
    }
    let trailer = deskpilot_core::present::snapshot(&read)
        .trailer
        .unwrap_or_default();
    assert!(
        trailer.contains("the whole tree (the changes since v"),
        "{trailer}"
    );
}
