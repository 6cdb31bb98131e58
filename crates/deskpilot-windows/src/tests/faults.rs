//! Failures: a frozen app costs one timeout and only its own calls, an element gone between
//! two calls is defunct, an elevated app is denied (never read as empty), a recycled pid
//! names nothing, a failing element cuts only its subtree, a gone app leaves nothing behind.

use std::time::Duration;

use deskpilot_platform::model::{CutReason, ElementId, Realization};
use deskpilot_platform::{Backend, BackendError, Secrecy, WalkLimits};

use super::{DESKTOP, SIGNIN, backend, named, root_of, tree_of};

/// A frozen app answers `app_not_responding` after one call timeout; its next call fails at
/// once; another app reads meanwhile; once it answers a probe again it reads again.
#[tokio::test(start_paused = true)]
async fn a_frozen_app_costs_one_timeout_and_only_its_own_calls() {
    let (fake, backend) = backend(&format!("{DESKTOP}{SIGNIN}"));
    let notepad = root_of(&backend, 4242).await;
    let signin = root_of(&backend, 77).await;
    fake.freeze(4242, true);
    let started = tokio::time::Instant::now();
    let error = backend
        .snapshot(&notepad, &WalkLimits::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, BackendError::AppNotResponding { .. }),
        "{error:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let asked = fake.calls("children");
    let again = tokio::time::Instant::now();
    let error = backend
        .snapshot(&notepad, &WalkLimits::default())
        .await
        .unwrap_err();
    assert!(matches!(error, BackendError::AppNotResponding { .. }));
    assert_eq!(
        again.elapsed(),
        Duration::ZERO,
        "a stalled app fails at once"
    );
    // Only the probe asks it (an element read, one at a time), never the walk.
    assert_eq!(fake.calls("children"), asked);
    assert!(
        backend
            .snapshot(&signin, &WalkLimits::default())
            .await
            .is_ok()
    );
    fake.freeze(4242, false);
    // The probe's ping in flight times out, the next one answers.
    tokio::time::advance(Duration::from_secs(3)).await;
    for _ in 0..100 {
        if backend
            .snapshot(&notepad, &WalkLimits::default())
            .await
            .is_ok()
        {
            return;
        }
        tokio::task::yield_now().await;
    }
    panic!("the app never read again after it thawed");
}

/// An element read once and gone since is defunct, never another element.
#[tokio::test]
async fn an_element_gone_between_two_calls_is_defunct() {
    let (_, backend) = backend(
        r#"
process "app.exe" pid=3 started=1
  Window "Main" patterns=Window
    Button "Transient" patterns=Invoke gone
"#,
    );
    let tree = tree_of(&backend, 3).await;
    let id = named(&tree, "Transient").id.clone();
    let error = backend.node(&id, Secrecy::Plain).await.unwrap_err();
    assert_eq!(error, BackendError::Defunct { id });
}

/// An element whose calls fail cuts its own subtree only, marked unreachable; read alone it
/// fails with its `HRESULT` in the message.
#[tokio::test]
async fn a_failing_element_cuts_only_its_subtree() {
    let (_, backend) = backend(
        r#"
process "app.exe" pid=3 started=1
  Window "Main" patterns=Window
    Pane "Broken" hresult=80004005
      Text "Inside"
    Button "OK" patterns=Invoke
"#,
    );
    let tree = tree_of(&backend, 3).await;
    let broken = tree.nodes.iter().find(|n| n.node.name == "Broken").unwrap();
    assert_eq!(
        broken.realization,
        Realization::Cut {
            reason: CutReason::Unreachable
        }
    );
    let ok = named(&tree, "OK");
    let error = backend
        .node(&broken.node.id, Secrecy::Plain)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("0x80004005"), "{error}");
    assert!(backend.node(&ok.id, Secrecy::Plain).await.is_ok());
}

/// An elevated app is listed, and every read of it is denied before any call reaches it:
/// never a hang, never an empty tree.
#[tokio::test]
async fn an_elevated_app_is_denied_never_read_as_empty() {
    let (fake, backend) = backend(DESKTOP);
    let admin = root_of(&backend, 9).await;
    let error = backend
        .snapshot(&admin, &WalkLimits::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, BackendError::AccessDenied { .. }),
        "{error:?}"
    );
    assert!(!error.retryable());
    assert!(error.to_string().contains("elevated"), "{error}");
    assert_eq!(fake.calls("children") + fake.calls("element"), 0);
    assert!(fake.value_requests().is_empty());
}

/// A hung app costs a listing of the desktop's apps one connection timeout (UIA asks every
/// window's provider), and still lists it; another app's snapshot asks no provider but its
/// own, and costs nothing (review A3).
#[tokio::test(start_paused = true)]
async fn a_hung_app_costs_the_listing_one_connection_timeout_and_others_nothing() {
    let (fake, backend) = backend(&format!("{DESKTOP}{SIGNIN}"));
    let signin = root_of(&backend, 77).await;
    fake.freeze(4242, true);
    let started = tokio::time::Instant::now();
    let tree = backend.snapshot(&signin, &WalkLimits::default()).await;
    assert!(tree.is_ok(), "{tree:?}");
    assert_eq!(started.elapsed(), Duration::ZERO, "no other provider asked");
    let started = tokio::time::Instant::now();
    let apps = backend.apps().await.unwrap();
    assert!(
        started.elapsed() <= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    let pids: Vec<Option<u32>> = apps.iter().map(|a| a.pid).collect();
    assert!(
        pids.contains(&Some(4242)) && pids.contains(&Some(77)),
        "{pids:?}"
    );
}

/// A process whose token deskpilot cannot read (another user's, a protected one) is refused
/// too, and said so: it is not called elevated (review D4).
#[tokio::test]
async fn a_process_whose_rights_cannot_be_read_is_refused_as_such() {
    let (fake, backend) = backend(
        r#"
process "service.exe" pid=12 started=3 unreadable
  Window "Service" hwnd=0x7000 patterns=Window
    Button "Stop" patterns=Invoke
"#,
    );
    let root = root_of(&backend, 12).await;
    let error = backend
        .snapshot(&root, &WalkLimits::default())
        .await
        .unwrap_err();
    assert!(
        matches!(error, BackendError::AccessDenied { .. }),
        "{error:?}"
    );
    let text = error.to_string();
    assert!(
        text.contains("cannot be read") && !text.contains("elevated"),
        "{text}"
    );
    assert_eq!(fake.calls("children") + fake.calls("element"), 0);
}

/// An id whose pid now belongs to another process (created later) names nothing; an id no
/// Windows read issued is defunct.
#[tokio::test]
async fn a_recycled_pid_names_nothing() {
    let (_, backend) = backend(SIGNIN);
    let tree = tree_of(&backend, 77).await;
    let user = named(&tree, "User").id.clone();
    let recycled = ElementId::new("w:77:abd", user.object.clone());
    let error = backend.node(&recycled, Secrecy::Plain).await.unwrap_err();
    assert_eq!(
        error,
        BackendError::AppGone {
            app: "w:77:abd".into()
        }
    );
    let foreign = ElementId::new(":1.42", "/org/a11y/atspi/accessible/root");
    assert!(matches!(
        backend.node(&foreign, Secrecy::Plain).await,
        Err(BackendError::Defunct { .. })
    ));
}

/// An app that ended is no longer listed, and nothing of it is kept.
#[tokio::test]
async fn a_gone_app_leaves_nothing_behind() {
    let (fake, backend) = backend(&format!("{DESKTOP}{SIGNIN}"));
    tree_of(&backend, 77).await;
    assert!(backend.remembered_apps().contains(&"w:77:abc".to_owned()));
    fake.end(77);
    let apps = backend.apps().await.unwrap();
    assert!(apps.iter().all(|a| a.pid != Some(77)));
    assert!(!backend.remembered_apps().contains(&"w:77:abc".to_owned()));
    let error = backend
        .snapshot(&ElementId::new("w:77:abc", "app"), &WalkLimits::default())
        .await
        .unwrap_err();
    assert_eq!(
        error,
        BackendError::AppGone {
            app: "w:77:abc".into()
        }
    );
}

/// Whether an app runs is asked of the system: a frozen app runs, an ended one or a recycled
/// pid does not (the ladder's check for an action that ended its app).
#[tokio::test]
async fn whether_an_app_runs_is_asked_of_the_system() {
    let (fake, backend) = backend(&format!("{DESKTOP}{SIGNIN}"));
    let signin = root_of(&backend, 77).await;
    fake.freeze(77, true);
    assert_eq!(backend.app_running(&signin).await, Some(true));
    let recycled = ElementId::new("w:77:abd", signin.object.clone());
    assert_eq!(backend.app_running(&recycled).await, Some(false));
    fake.end(77);
    assert_eq!(backend.app_running(&signin).await, Some(false));
}

/// Counts that lie are bounded: a grid claiming 2^31 rows is never enumerated, a list whose
/// items give a negative set size has an unknown count.
#[tokio::test]
async fn counts_that_lie_are_bounded() {
    let (fake, backend) = backend(
        r#"
process "liar.exe" pid=6 started=1
  Window "Liar" patterns=Window
    DataGrid "Sheet" patterns=Grid,Table grid=2147483647:16384
      DataItem "row 1"
    List "Items" patterns=Selection,ItemContainer
      ListItem "a" patterns=SelectionItem sizeofset=-3
      ListItem "b" patterns=SelectionItem sizeofset=-3
"#,
    );
    let tree = tree_of(&backend, 6).await;
    let at = |name: &str| tree.nodes.iter().find(|n| n.node.name == name).unwrap();
    assert_eq!(
        at("Sheet").realization,
        Realization::NotRealized {
            logical: Some(2147483647)
        }
    );
    assert!(at("Sheet").children.is_empty());
    assert_eq!(
        at("Items").realization,
        Realization::Partial {
            realized: 2,
            logical: None
        }
    );
    // The window and the list: never the grid. The list's items are counted leaves; the
    // window's children are not counted (that would list the grid's rows and the list's
    // items, past the budgets).
    assert_eq!(fake.calls("children"), 2);
    assert_eq!(fake.calls("child_counts"), 1);
}

/// An app answers one call at a time (its worker), each here in 300 ms: a walk that sends a
/// window's 20 groups' calls at once waits 6 s for the last, and each call's deadline counts
/// from its turn, so none times out and the app is not stalled (review
/// `windows-2026-12-03.md`, A1). Timed from submission, the tail timed out and stalled it.
#[tokio::test(start_paused = true)]
async fn a_slow_app_answering_in_turn_is_read_whole_and_not_stalled() {
    let (fake, backend) = backend(
        r#"
process "slow.exe" pid=5 started=1
  Window "Slow" patterns=Window
    Pane "groups" patterns=LegacyIAccessible
      Group "g0" patterns=LegacyIAccessible
        Text "t0"
      Group "g1" patterns=LegacyIAccessible
        Text "t1"
      Group "g2" patterns=LegacyIAccessible
        Text "t2"
      Group "g3" patterns=LegacyIAccessible
        Text "t3"
      Group "g4" patterns=LegacyIAccessible
        Text "t4"
      Group "g5" patterns=LegacyIAccessible
        Text "t5"
      Group "g6" patterns=LegacyIAccessible
        Text "t6"
      Group "g7" patterns=LegacyIAccessible
        Text "t7"
      Group "g8" patterns=LegacyIAccessible
        Text "t8"
      Group "g9" patterns=LegacyIAccessible
        Text "t9"
      Group "g10" patterns=LegacyIAccessible
        Text "t10"
      Group "g11" patterns=LegacyIAccessible
        Text "t11"
      Group "g12" patterns=LegacyIAccessible
        Text "t12"
      Group "g13" patterns=LegacyIAccessible
        Text "t13"
      Group "g14" patterns=LegacyIAccessible
        Text "t14"
      Group "g15" patterns=LegacyIAccessible
        Text "t15"
      Group "g16" patterns=LegacyIAccessible
        Text "t16"
      Group "g17" patterns=LegacyIAccessible
        Text "t17"
      Group "g18" patterns=LegacyIAccessible
        Text "t18"
      Group "g19" patterns=LegacyIAccessible
        Text "t19"
"#,
    );
    let root = root_of(&backend, 5).await;
    fake.slow_down(5, Duration::from_millis(300));
    let tree = backend
        .snapshot(&root, &WalkLimits::with_timeout(Duration::from_secs(60)))
        .await
        .unwrap();
    let cut = tree
        .nodes
        .iter()
        .filter(|n| n.realization != Realization::Complete)
        .map(|n| (n.node.name.clone(), n.realization))
        .collect::<Vec<_>>();
    assert!(cut.is_empty(), "{cut:?}");
    assert_eq!(
        tree.nodes
            .iter()
            .filter(|n| n.node.name.starts_with('t'))
            .count(),
        20
    );
    assert!(!backend.calls.stalled(5));
}

/// A medium app: 2,000 elements over 200 containers, its calls one at a time. Each costs
/// 5 ms and 0.05 ms per property read (a cached element carries 52). It is read whole, its
/// values too, uncut and within the snapshot's 10 s on tokio's paused clock; the app is not
/// stalled (review A1, A2). `cargo xtask bench windows` reports the time.
#[tokio::test(start_paused = true)]
async fn a_medium_app_is_read_whole_and_not_stalled() {
    let mut text = String::from(
        "process \"medium.exe\" pid=6 started=1\n  Window \"Medium\" hwnd=0x8000 patterns=Window\n",
    );
    for group in 0..199 {
        text.push_str(&format!("    Group \"g{group}\"\n"));
        for item in 0..8 {
            text.push_str(&format!("      Text \"t{group}.{item}\"\n"));
        }
        text.push_str(&format!(
            "      Edit \"e{group}\" patterns=Value value=v{group}\n"
        ));
    }
    let (fake, backend) = backend(&text);
    fake.slow_down(6, Duration::from_millis(5));
    fake.cost_per_property(6, Duration::from_micros(50));
    let root = root_of(&backend, 6).await;
    let started = tokio::time::Instant::now();
    let tree = backend
        .snapshot(&root, &WalkLimits::default())
        .await
        .unwrap();
    let took = started.elapsed();
    assert!(took <= Duration::from_secs(10), "took {took:?}");
    assert_eq!(
        tree.nodes.len(),
        1 + 1 + 199 * 10,
        "the app, its window, every element"
    );
    assert_eq!(tree.cut(), None);
    let values = tree.nodes.iter().filter(|n| n.node.value.is_some()).count();
    assert_eq!(values, 199, "every edit's value");
    assert_eq!(fake.calls("values_below"), 1, "the window's, all at once");
    assert!(!backend.calls.stalled(6));
}

/// A grid page of 50 rows by 10 columns, in an app whose calls cost 5 ms and 0.05 ms per
/// property. Read a row per call, each in the app's turn, it comes back whole and the app
/// is not stalled (review A5: two calls per cell took 5 s under one 2 s deadline).
#[tokio::test(start_paused = true)]
async fn a_grid_page_is_read_a_row_per_call() {
    let mut text = String::from(
        "process \"grid.exe\" pid=7 started=1\n  Window \"G\" hwnd=0x9000 patterns=Window\n    DataGrid \"Sheet\" patterns=Grid,Table grid=60:10\n",
    );
    for row in 0..60 {
        text.push_str(&format!("      DataItem \"row {row}\"\n"));
        for column in 0..10 {
            text.push_str(&format!(
                "        Text \"r{row}c{column}\" patterns=GridItem\n"
            ));
        }
    }
    let (fake, backend) = backend(&text);
    let tree = tree_of(&backend, 7).await;
    let sheet = named(&tree, "Sheet").id.clone();
    fake.slow_down(7, Duration::from_millis(5));
    fake.cost_per_property(7, Duration::from_micros(50));
    let page = backend.table(&sheet, 5, 50).await.unwrap();
    assert_eq!(page.rows.len(), 50);
    assert_eq!(page.rows[49][9], "r54c9");
    let cells = backend.table_cell_names(&sheet, 5, 50).await.unwrap();
    assert_eq!((cells.cells.len(), cells.next_row), (500, 55));
    assert_eq!(cells.cells[499].1, "r54c9");
    assert!(!backend.calls.stalled(7));
}

/// A long document (a 4 MB log) in an app whose calls cost 5 ms and 0.05 ms per property,
/// 100 characters handed over costing a property. Its first page is read within the call
/// deadline, with the document's length (review A6: the whole text took over 2 s).
#[tokio::test(start_paused = true)]
async fn a_long_documents_page_is_read_without_the_whole() {
    let line = "0123456789 a line of a long log, with no carriage return in it.\\n";
    let text = format!(
        "process \"log.exe\" pid=9 started=1\n  Window \"Log\" hwnd=0x9100 patterns=Window\n    Document \"journal\" patterns=Text text=\"{}\"\n",
        line.repeat(64_000)
    );
    let (fake, backend) = backend(&text);
    let tree = tree_of(&backend, 9).await;
    let log = named(&tree, "journal").id.clone();
    fake.slow_down(9, Duration::from_millis(5));
    fake.cost_per_property(9, Duration::from_micros(50));
    let page = backend.text(&log, 10, Some(20)).await.unwrap();
    assert_eq!((page.text.as_str(), page.total), (" a line of", 4_096_000));
    assert!(!backend.calls.stalled(9));
}
