//! The engine (sessions, refs, budgets, secrets, waits) on the in-memory backend, where a
//! test changes the app between calls or drives the clock; the rest is data in
//! `tests/cases/` (`cases.rs`).

use std::sync::Arc;

use deskpilot_core::capture::{Region, ShotRequest};
use deskpilot_core::model::Rect;
use deskpilot_core::model::State;
use deskpilot_core::platform::Cover;
use deskpilot_core::{
    Code, ConnectTarget, Engine, Filter, Selector, SnapshotRequest, Target, Wiring,
};
use deskpilot_fake::{FakeBackend, FakeScreen, Flavour, id};

const EDITOR: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" path=/win
    menubar path=/menubar
      menu "File" path=/file [collapsed]
        menuitem "Open" path=/open
    generic
      button "OK" path=/ok id=ok actions=click
      button "OK to all" path=/okall
      button "Cancel" path=/cancel lazy_id=cancel-button
      checkbox "Notify" path=/notify [checked]
      password "Password" path=/pw
      textbox "Name" value=Ada path=/name
    list "Fruits" path=/fruits
      listitem "Apple" path=/apple
      listitem "Banana" path=/banana
    table "Sheet" path=/sheet [managesdescendants] children=2147483647
  window "Other" path=/other
    button "Close" path=/close
"#;

fn engine() -> (Arc<FakeBackend>, Engine) {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(EDITOR);
    let engine = Engine::new(fake.clone());
    (fake, engine)
}

/// The engine over `fake` that takes its screenshots from `screen`.
fn capturing(fake: Arc<FakeBackend>, screen: Arc<FakeScreen>) -> Engine {
    let wiring = Wiring {
        capture: Some(screen),
        ..Wiring::default()
    };
    Engine::wired(fake, wiring)
}

async fn session(engine: &Engine) -> String {
    engine
        .connect(&ConnectTarget::WindowTitle("Main".into()))
        .await
        .unwrap()
        .id
}

fn sel(text: &str) -> Selector {
    Selector::parse(text).unwrap()
}

fn ref_in(rendered: &deskpilot_core::Rendered, part: &str) -> String {
    let found = rendered.ref_on_line(part);
    found.unwrap_or_else(|| panic!("no ref on a line with {part:?} in\n{}", rendered.text))
}

#[tokio::test]
async fn connect_by_pid_name_and_title() {
    let (fake, engine) = engine();
    let by_pid = engine.connect(&ConnectTarget::Pid(42)).await.unwrap();
    assert_eq!(by_pid.app.name, "Editor");
    assert_eq!(by_pid.root, by_pid.app.id);
    let by_title = engine
        .connect(&ConnectTarget::WindowTitle("Oth".into()))
        .await
        .unwrap();
    assert_eq!(by_title.root, id(":1.1", "/other"));
    assert_ne!(by_pid.id, by_title.id);
    let missing = engine
        .connect(&ConnectTarget::AppName("Nope".into()))
        .await
        .unwrap_err();
    assert_eq!(missing.code, Code::NotFound);
    assert!(
        missing.message.contains("\"Editor\" (pid 42)"),
        "{}",
        missing.message
    );
    fake.add_app("application \"Editor\" pid=43\n  window \"Main\"\n");
    let ambiguous = engine
        .connect(&ConnectTarget::AppName("Editor".into()))
        .await
        .unwrap_err();
    assert_eq!(ambiguous.code, Code::Ambiguous);
    // Two registrations on one pid: the one with windows wins.
    fake.add_app("application \"helper\" pid=44\n");
    fake.add_app("application \"Viewer\" pid=44\n  window \"View\"\n");
    let shared = engine.connect(&ConnectTarget::Pid(44)).await.unwrap();
    assert_eq!(shared.app.name, "Viewer");
}

#[tokio::test]
async fn refs_are_stable_while_identity_role_and_name_hold() {
    let (fake, engine) = engine();
    let s = session(&engine).await;
    let handle = engine.session(&s).unwrap();
    let first = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let second = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    assert_eq!(first.rendered.text, second.rendered.text);
    let ok = ref_in(&first.rendered, "button \"OK\"");
    assert_eq!(handle.resolve_ref(&ok).await.unwrap().node.name, "OK");

    // Renamed in place: the old ref is refused, never resolved to the renamed element.
    fake.edit(&id(":1.1", "/ok"), |n| n.node.name = "Apply".into());
    let error = handle.resolve_ref(&ok).await.unwrap_err();
    assert_eq!(error.code, Code::StaleRef);
    assert!(
        error
            .message
            .contains("was button \"OK\" and is now button \"Apply\""),
        "{}",
        error.message
    );
    assert!(deskpilot_core::hint::in_tool_names(&error.hint).contains("new snapshot"));
    let third = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let apply = ref_in(&third.rendered, "button \"Apply\"");
    assert_ne!(apply, ok);
    assert!(
        handle
            .resolve_ref(&ok)
            .await
            .unwrap_err()
            .message
            .contains("changed since")
    );

    // Removed: stale.
    fake.remove(&id(":1.1", "/cancel"));
    let cancel = ref_in(&third.rendered, "button \"Cancel\"");
    assert_eq!(
        handle.resolve_ref(&cancel).await.unwrap_err().code,
        Code::StaleRef
    );
}

#[tokio::test]
async fn a_reordered_list_never_maps_a_ref_to_its_neighbour() {
    let (fake, engine) = engine();
    let s = session(&engine).await;
    let handle = engine.session(&s).unwrap();
    let snap = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let apple = ref_in(&snap.rendered, "\"Apple\"");
    let banana = ref_in(&snap.rendered, "\"Banana\"");
    // The app reorders by reusing its row objects: same paths, swapped content.
    fake.edit(&id(":1.1", "/apple"), |n| n.node.name = "Banana".into());
    fake.edit(&id(":1.1", "/banana"), |n| n.node.name = "Apple".into());
    for r in [&apple, &banana] {
        assert_eq!(
            handle.resolve_ref(r).await.unwrap_err().code,
            Code::StaleRef
        );
    }
    let fresh = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let new_apple = ref_in(&fresh.rendered, "\"Apple\"");
    let resolved = handle.resolve_ref(&new_apple).await.unwrap();
    assert_eq!(resolved.node.id, id(":1.1", "/banana"));
}

#[tokio::test]
async fn refs_are_bound_to_their_session() {
    let (_, engine) = engine();
    let a = session(&engine).await;
    let b = session(&engine).await;
    let on_a = engine.session(&a).unwrap();
    let snap_a = on_a.snapshot(&SnapshotRequest::default()).await.unwrap();
    let on_b = engine.session(&b).unwrap();
    let snap_b = on_b.snapshot(&SnapshotRequest::default()).await.unwrap();
    let ok_a = ref_in(&snap_a.rendered, "button \"OK\"");
    let ok_b = ref_in(&snap_b.rendered, "button \"OK\"");
    assert_ne!(ok_a, ok_b, "refs are unique across the whole engine");
    let error = on_b.resolve_ref(&ok_a).await.unwrap_err();
    assert_eq!(error.code, Code::StaleRef);
    assert!(
        error.message.contains(&format!("belongs to session {a}")),
        "{}",
        error.message
    );
    let closed = on_a;
    closed.disconnect().unwrap();
    // A closed session is refused when it is asked for, and by a handle kept from before.
    assert_eq!(engine.session(&a).unwrap_err().code, Code::UnknownSession);
    assert_eq!(
        closed.resolve_ref(&ok_a).await.unwrap_err().code,
        Code::UnknownSession
    );
    assert_eq!(
        on_b.resolve_ref("e99999").await.unwrap_err().code,
        Code::StaleRef
    );
    assert_eq!(
        on_b.resolve_ref("OK").await.unwrap_err().code,
        Code::InvalidArguments
    );
}

#[tokio::test]
async fn ids_a_snapshot_left_unread_are_read_when_a_selector_asks() {
    let (_, engine) = engine();
    let s = session(&engine).await;
    let handle = engine.session(&s).unwrap();
    let snap = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let cancel = snap
        .tree
        .nodes
        .iter()
        .find(|n| n.node.name == "Cancel")
        .unwrap();
    assert!(cancel.node.accessible_id.is_none() && cancel.node.accessible_id_unread);
    let found = handle
        .find(&sel("[id=cancel-button]"), None, 5)
        .await
        .unwrap();
    assert_eq!(found.total, 1);
    assert_eq!(found.matches[0].name, "Cancel");
    let found = handle.find(&sel("[id~=/^cancel/]"), None, 5).await.unwrap();
    assert_eq!(found.total, 1);
}

#[tokio::test]
async fn budgets_truncate_honestly() {
    let (_, engine) = engine();
    let s = session(&engine).await;
    let request = SnapshotRequest {
        max_nodes: 5,
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let snap = engine
        .session(&s)
        .unwrap()
        .snapshot(&request)
        .await
        .unwrap();
    assert_eq!(snap.tree.len(), 5);
    let truncated = snap.truncated.expect("said truncated");
    assert_eq!(truncated.reason.name(), "nodes");
    assert!(truncated.cursor.is_some(), "and says how to continue");
    assert!(
        snap.rendered.text.contains("more: nodes]"),
        "{}",
        snap.rendered.text
    );
}

#[tokio::test]
async fn a_truncated_snapshot_continues_from_its_cursor_until_everything_was_read() {
    let (_, engine) = engine();
    let s = session(&engine).await;
    let all = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let handle = engine.session(&s).unwrap();
    let whole = handle.snapshot(&all).await.unwrap();
    assert!(whole.truncated.is_none());
    let mut seen = Vec::new();
    let mut request = SnapshotRequest {
        max_nodes: 4,
        ..all.clone()
    };
    let mut pages = 0;
    loop {
        let page = handle.snapshot(&request).await.unwrap();
        pages += 1;
        assert!(page.tree.len() <= 4);
        seen.extend(page.tree.nodes.iter().map(|n| n.node.id.clone()));
        if pages > 1 {
            assert!(
                page.rendered.text.starts_with("# continued under "),
                "{}",
                page.rendered.text
            );
        }
        match page.truncated.and_then(|t| t.cursor) {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
        assert!(pages < 20, "paging does not end");
    }
    let mut expected: Vec<_> = whole.tree.nodes.iter().map(|n| n.node.id.clone()).collect();
    expected.sort();
    seen.sort();
    assert_eq!(seen, expected, "every node exactly once over {pages} pages");
    // A cursor is used once.
    let error = handle.snapshot(&request).await.unwrap_err();
    assert_eq!(error.code, Code::InvalidArguments);
}

#[tokio::test]
async fn secrets_and_frozen_apps() {
    let (fake, engine) = engine();
    let s = session(&engine).await;
    let found = engine
        .session(&s)
        .unwrap()
        .find(&sel("password[value*=\"\"]"), None, 10)
        .await
        .unwrap();
    assert_eq!(found.total, 0, "a secret's value never matches");
    let app_wide = engine.connect(&ConnectTarget::Pid(42)).await.unwrap().id;
    fake.set_frozen(&id(":1.1", "/"), true);
    // A window session and an app session alike: an app session showed the app alone, no
    // window, as if it had none (the 9,300-label box, busy, under load).
    for session in [&s, &app_wide] {
        let error = engine
            .session(session)
            .unwrap()
            .snapshot(&SnapshotRequest::default())
            .await
            .unwrap_err();
        assert_eq!(error.code, Code::AppNotResponding, "{error:?}");
        assert!(error.retryable());
    }
    fake.set_frozen(&id(":1.1", "/"), false);
    fake.set_busy_when_listed(&id(":1.1", "/"), true);
    let error = engine
        .session(&app_wide)
        .unwrap()
        .snapshot(&SnapshotRequest::default())
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::AppNotResponding, "{error:?}");
}

/// A virtualized list that cannot say how many items it has (UIA's often cannot) shows what
/// it realized and an unknown count, and a find says it could not search the rest.
#[tokio::test]
async fn a_list_of_unknown_length_says_so() {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(
        r#"
application "Mail" pid=11
  window "Inbox" path=/win
    list "Messages" path=/list [managesdescendants] children=?
      listitem "Hello" path=/m1
      listitem "Invoice" path=/m2
"#,
    );
    let engine = Engine::new(fake.clone());
    let s = engine
        .connect(&ConnectTarget::AppName("Mail".into()))
        .await
        .unwrap()
        .id;
    let handle = engine.session(&s).unwrap();
    let snap = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    assert!(
        snap.rendered.text.contains("[2 of ? realized]"),
        "{}",
        snap.rendered.text
    );
    let found = handle
        .find(&sel("listitem[name=Receipt]"), None, 5)
        .await
        .unwrap();
    assert_eq!(found.total, 0);
    let unsearched = format!("{:?}", found.unsearched);
    assert!(
        unsearched.contains("only 2 of ? children realized"),
        "{unsearched}"
    );
}

/// A virtual screen whose origin is negative (a monitor left of the primary one) is captured
/// whole, from its own origin.
#[tokio::test]
async fn a_screen_left_of_the_origin_is_captured_whole() {
    let (fake, _) = engine();
    let screen = Arc::new(FakeScreen::new(Rect::new(-1920, -200, 3840, 1280)));
    let engine = capturing(fake, screen.clone());
    let s = session(&engine).await;
    let request = ShotRequest {
        region: Region::Screen,
        annotate: false,
        max_side: 4000,
    };
    let shot = engine
        .session(&s)
        .unwrap()
        .screenshot(&request)
        .await
        .unwrap();
    assert_eq!(screen.captured(), vec![Rect::new(-1920, -200, 3840, 1280)]);
    assert_eq!((shot.width, shot.height), (3840, 1280));
    assert_eq!(shot.region, Rect::new(-1920, -200, 3840, 1280));
}

/// A window another window covers is captured as such: the shot says so, and so does its
/// line, so an agent does not read the covering window's pixels as the app's.
#[tokio::test]
async fn a_covered_window_is_reported_covered() {
    let (fake, _) = engine();
    fake.edit(&id(":1.1", "/win"), |n| {
        n.node.bounds = Some(Rect::new(0, 0, 800, 600))
    });
    let screen = Arc::new(FakeScreen::new(Rect::new(0, 0, 1920, 1080)).with_cover(Cover::Shown));
    let engine = capturing(fake, screen.clone());
    let s = session(&engine).await;
    let request = ShotRequest {
        region: Region::Window,
        annotate: false,
        max_side: 4000,
    };
    let handle = engine.session(&s).unwrap();
    let shot = handle.screenshot(&request).await.unwrap();
    assert_eq!(shot.cover, Some(Cover::Shown));
    let line = deskpilot_core::present::shot(&shot);
    assert!(line.contains("another window covers part of it"), "{line}");
    let request = ShotRequest {
        region: Region::Screen,
        ..request
    };
    let shot = handle.screenshot(&request).await.unwrap();
    assert_eq!(shot.cover, None, "a screen has no cover");
}

/// Where a bulk read could bring values with everything else (UIA's cache requests), what is
/// secret is learnt first (`ValueAdmission`): a password field's value, and what lies inside
/// it, is never requested, by a snapshot, a single read or a hit test.
#[tokio::test]
async fn a_uia_read_never_requests_a_secrets_value() {
    let fake = Arc::new(FakeBackend::with_flavour(Flavour::Uia));
    fake.add_app(
        r#"
application "Login" pid=12
  window "Sign in" path=/win bounds=0,0,300,200
    textbox "User" path=/user value=ada bounds=10,10,200,30
    password "PIN" path=/pin value=1234 bounds=10,50,200,30
      label "Shown" path=/inner value=1234 bounds=12,52,50,20
"#,
    );
    let engine = Engine::new(fake.clone());
    let s = engine
        .connect(&ConnectTarget::AppName("Login".into()))
        .await
        .unwrap()
        .id;
    let request = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let handle = engine.session(&s).unwrap();
    let snap = handle.snapshot(&request).await.unwrap();
    assert!(snap.rendered.text.contains("ada"), "{}", snap.rendered.text);
    for target in ["textbox", "password", "label"] {
        handle
            .properties(&Target::Selector(sel(target)))
            .await
            .unwrap();
    }
    let _ = handle.hit_test(20, 60).await;
    assert!(
        !snap.rendered.text.contains("1234"),
        "{}",
        snap.rendered.text
    );
    let requested = fake.value_requests();
    assert!(requested.contains(&id(":1.1", "/user")), "{requested:?}");
    let secret = [id(":1.1", "/pin"), id(":1.1", "/inner")];
    assert!(
        !requested.iter().any(|r| secret.contains(r)),
        "{requested:?}"
    );
}

/// An elevated app is listed, but reading it answers `access_denied`: not retryable, with a
/// hint that says so, never a hang or an empty tree.
#[tokio::test]
async fn an_elevated_app_is_denied_not_empty() {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(
        r#"
application "Admin tool" pid=9 denied
  window "Settings" path=/win
    button "Apply" path=/apply
"#,
    );
    let engine = Engine::new(fake.clone());
    let apps = engine.apps().await.unwrap();
    assert_eq!(apps[0].name, "Admin tool");
    let s = engine
        .connect(&ConnectTarget::AppName("Admin tool".into()))
        .await
        .unwrap()
        .id;
    let error = engine
        .session(&s)
        .unwrap()
        .snapshot(&SnapshotRequest::default())
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::AccessDenied, "{error:?}");
    assert!(!error.retryable());
    assert!(error.hint.contains("elevated"), "{}", error.hint);
}

#[tokio::test]
async fn wait_for_appears_changes_and_times_out_saying_what_it_saw() {
    use deskpilot_core::{Condition, TextMatch};
    use std::time::Duration;

    let (fake, engine) = engine();
    let engine = Arc::new(engine);
    let s = session(&engine).await;
    let handle = engine.session(&s).unwrap();
    let present = handle
        .wait_for(
            &sel("button[name=OK]"),
            None,
            &Condition::Appears,
            Duration::from_secs(1),
        )
        .await
        .unwrap();
    assert_eq!(present.element.unwrap().name, "OK");
    assert_eq!(present.wakes.looks(), 1);

    // A state that changes while waiting.
    let edit = {
        let fake = fake.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(250)).await;
            fake.edit(&id(":1.1", "/notify"), |n| {
                n.node.states.set(State::Checked, false)
            });
        })
    };
    let unchecked = handle
        .wait_for(
            &sel("checkbox[name=Notify]"),
            None,
            &Condition::State {
                state: State::Checked,
                on: false,
            },
            Duration::from_secs(5),
        )
        .await
        .unwrap();
    assert!(unchecked.wakes.looks() > 1, "it had to wait");
    edit.await.unwrap();

    let value = handle
        .wait_for(
            &sel("textbox"),
            None,
            &Condition::Value(TextMatch::Exact("Ada".into())),
            Duration::from_secs(1),
        )
        .await
        .unwrap();
    assert_eq!(value.element.unwrap().name, "Name");

    let error = handle
        .wait_for(
            &sel("button[name=OK]"),
            None,
            &Condition::Disappears,
            Duration::from_millis(300),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::Timeout);
    assert!(
        error
            .message
            .contains("last seen: 1 match(es): button \"OK\""),
        "{}",
        error.message
    );
}

/// A wait for a count holds only when exactly that many visible elements match (one removed
/// while waiting makes it so); a wait for part of a value matches it in any case.
#[tokio::test]
async fn wait_for_a_count_and_a_part_of_a_value() {
    use deskpilot_core::{Condition, ConditionWords};
    use std::time::Duration;

    let (fake, engine) = engine();
    let s = session(&engine).await;
    let words = |count, part: Option<&str>| {
        Condition::from_words(ConditionWords {
            count,
            value_contains: part.map(str::to_owned),
            ..ConditionWords::default()
        })
        .unwrap()
    };
    let remove = {
        let fake = fake.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(250)).await;
            fake.remove(&id(":1.1", "/banana"));
        })
    };
    // The sheet's 2^31 cells are never searched: only a count within the list is certain.
    let handle = engine.session(&s).unwrap();
    let error = handle
        .wait_for(
            &sel("listitem"),
            None,
            &words(Some(2), None),
            Duration::from_millis(100),
        )
        .await
        .unwrap_err();
    assert!(error.message.contains("not searched"), "{}", error.message);
    let list = Target::Selector(sel("list[name=Fruits]"));
    let one = handle
        .wait_for(
            &sel("listitem"),
            Some(&list),
            &words(Some(1), None),
            Duration::from_secs(5),
        )
        .await
        .unwrap();
    assert!(one.wakes.looks() > 1, "two list items at first");
    assert_eq!(one.element.unwrap().name, "Apple");
    remove.await.unwrap();

    let error = handle
        .wait_for(
            &sel("listitem"),
            Some(&list),
            &words(Some(2), None),
            Duration::from_millis(300),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::Timeout);

    let part = handle
        .wait_for(
            &sel("textbox"),
            None,
            &words(None, Some("aD")),
            Duration::from_secs(1),
        )
        .await
        .unwrap();
    assert_eq!(part.element.unwrap().name, "Name");
    let both = Condition::from_words(ConditionWords {
        count: Some(1),
        value: Some("Ada".into()),
        ..ConditionWords::default()
    });
    assert_eq!(both.unwrap_err().code, Code::InvalidArguments);
}

/// The engine's waits run on tokio's clock, which a test drives: a minute-long wait that can
/// never succeed ends at once in paused time, having polled the whole minute.
#[tokio::test(start_paused = true)]
async fn waits_run_on_a_clock_tests_can_drive() {
    use deskpilot_core::Condition;
    use std::time::Duration;

    let (_fake, engine) = engine();
    let s = session(&engine).await;
    let wall = std::time::Instant::now();
    let error = engine
        .session(&s)
        .unwrap()
        .wait_for(
            &sel("button[name=Nope]"),
            None,
            &Condition::Appears,
            Duration::from_secs(60),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::Timeout);
    assert!(error.message.contains("60"), "{}", error.message);
    assert!(
        wall.elapsed() < Duration::from_secs(10),
        "the wait took real time: {:?}",
        wall.elapsed()
    );
}

/// Nothing inside a password field shows its text, whichever way it is reached: a snapshot, a
/// snapshot within it, a later page, a hit-test, properties, read_text, a selector.
#[tokio::test]
async fn text_inside_a_password_field_never_shows() {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(
        r#"
application "Vault" pid=60
  window "Login" bounds=0,0,400,300
    button "Go" bounds=10,10,50,20
    password "Secret" path=/pw bounds=10,50,200,30
      textbox "inner" path=/inner value=hunter2 bounds=12,52,190,26
      listitem path=/li bounds=12,70,50,5
        label "peek" bounds=12,70,50,5
"#,
    );
    let engine = Engine::new(fake);
    let s = engine.connect(&ConnectTarget::Pid(60)).await.unwrap().id;
    let leaks = |text: &str| text.contains("hunter2");
    let all = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let whole = engine.session(&s).unwrap().snapshot(&all).await.unwrap();
    assert!(!leaks(&whole.rendered.text), "{}", whole.rendered.text);
    let item = whole
        .tree
        .nodes
        .iter()
        .find(|n| n.node.id.object == "/li")
        .unwrap();
    assert_eq!(
        item.node.derived_name, None,
        "no name is derived from inside a secret"
    );
    let inner = whole
        .tree
        .nodes
        .iter()
        .find(|n| n.node.name == "inner")
        .unwrap();
    assert!(inner.node.is_secret());
    assert!(!matches!(
        inner.node.value,
        Some(deskpilot_core::model::NodeValue::Text { .. })
    ));

    let within = SnapshotRequest {
        within: Some(Target::Selector(sel("password"))),
        ..all.clone()
    };
    let page = engine.session(&s).unwrap().snapshot(&within).await.unwrap();
    assert!(!leaks(&page.rendered.text), "{}", page.rendered.text);

    // A page cut right at the password field, then continued.
    let mut request = SnapshotRequest {
        max_nodes: 4,
        ..all.clone()
    };
    loop {
        let page = engine
            .session(&s)
            .unwrap()
            .snapshot(&request)
            .await
            .unwrap();
        assert!(!leaks(&page.rendered.text), "{}", page.rendered.text);
        match page.truncated.and_then(|t| t.cursor) {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }

    // A fresh session, so no earlier snapshot has marked the ref secret.
    let s = engine.connect(&ConnectTarget::Pid(60)).await.unwrap().id;
    let path = engine.session(&s).unwrap().hit_test(20, 60).await.unwrap();
    let deepest = path.last().unwrap();
    assert_eq!(deepest.name, "inner");
    let props = engine
        .session(&s)
        .unwrap()
        .properties(&Target::Ref(deepest.reference.clone()))
        .await
        .unwrap();
    assert!(!matches!(
        props.node.value,
        Some(deskpilot_core::model::NodeValue::Text { .. })
    ));
    let refused = engine
        .session(&s)
        .unwrap()
        .read_text(&Target::Ref(deepest.reference.clone()), 0, None)
        .await
        .unwrap_err();
    assert_eq!(refused.code, Code::Unsupported);
    let found = engine
        .session(&s)
        .unwrap()
        .find(&sel("[value*=hunter]"), None, 5)
        .await
        .unwrap();
    assert_eq!(found.total, 0);
}
