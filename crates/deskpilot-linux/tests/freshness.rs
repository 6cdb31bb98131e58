//! An app's `Cache.GetItems` answer is kept between snapshots while the app sends no event;
//! after a change (here a label's text) the next snapshot shows it, and the action names of
//! the elements no event named are not asked for again.

use std::time::{Duration, Instant};

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::model::{Capability, State};
use deskpilot_core::{Backend, WalkLimits};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;

#[tokio::test]
async fn a_quiet_apps_cache_is_reused_and_a_change_is_seen() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let backend = AtspiBackend::connect(ConnectOptions::new(desktop.session_bus_address()))
        .await
        .unwrap();
    let window = backend
        .apps()
        .await
        .unwrap()
        .into_iter()
        .flat_map(|a| a.windows)
        .find(|w| w.title == Fixture::Gtk3.window_title())
        .unwrap()
        .id;
    let label = |tree: &deskpilot_core::model::Tree| {
        tree.nodes
            .iter()
            .find(|n| n.node.accessible_id.as_deref() == Some("delayed"))
            .or_else(|| {
                tree.nodes.iter().find(|n| {
                    ["Waiting", "Changed by the test", "Changed again"]
                        .contains(&n.node.name.as_str())
                })
            })
            .map(|n| n.node.name.clone())
    };

    // Snapshots until two in a row read no cache (the app is quiet and its answer kept).
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut quiet_in_a_row = 0;
    let mut quiet = None;
    while quiet_in_a_row < 2 {
        let (before, calls_before) = (backend.cache_reads(), backend.calls());
        let tree = backend
            .snapshot(&window, &WalkLimits::default())
            .await
            .unwrap();
        assert_eq!(label(&tree).as_deref(), Some("Waiting"));
        quiet_in_a_row = if backend.cache_reads() == before {
            quiet_in_a_row + 1
        } else {
            0
        };
        quiet = Some((tree, backend.calls() - calls_before));
        assert!(Instant::now() < deadline, "the cache was never reused");
    }

    // A quiet app's action names are not asked again, and are the same as a fresh read's.
    let (quiet, quiet_calls) = quiet.unwrap();
    let fresh_backend = AtspiBackend::connect(ConnectOptions {
        reuse_quiet_cache: false,
        ..ConnectOptions::new(desktop.session_bus_address())
    })
    .await
    .unwrap();
    let fresh = fresh_backend
        .snapshot(&window, &WalkLimits::default())
        .await
        .unwrap();
    let fresh_calls = fresh_backend.calls();
    let actions = |tree: &deskpilot_core::model::Tree| {
        tree.nodes
            .iter()
            .map(|n| (n.node.id.clone(), n.node.actions.clone()))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    assert_eq!(actions(&quiet), actions(&fresh));
    // Only what the cache holds is kept: the transient children of a container that manages
    // its descendants (tree and table cells) are read by calls every time.
    let transient = |index: usize| {
        let mut parent = quiet.nodes[index].parent;
        while let Some(p) = parent {
            if quiet.nodes[p].node.states.is(State::ManagesDescendants) {
                return true;
            }
            parent = quiet.nodes[p].parent;
        }
        false
    };
    let actionable = (0..quiet.nodes.len())
        .filter(|&i| {
            quiet.nodes[i]
                .node
                .capabilities
                .contains(Capability::Actions)
                && !transient(i)
        })
        .count() as u64;
    assert!(actionable > 20, "{actionable} actionable nodes");
    assert!(
        quiet_calls + actionable <= fresh_calls,
        "a quiet snapshot made {quiet_calls} calls, a fresh one {fresh_calls}: the \
         {actionable} action lists were asked again"
    );

    set_label(&mut fixture, "Changed by the test");
    let (before, patches) = (backend.cache_reads(), backend.kept_patches());
    let calls_before = backend.calls();
    let tree = backend
        .snapshot(&window, &WalkLimits::default())
        .await
        .unwrap();
    assert_eq!(
        label(&tree).as_deref(),
        Some("Changed by the test"),
        "the change was seen"
    );
    // A few elements named: the kept tree is patched, the cache not read again.
    assert_eq!(backend.kept_patches(), patches + 1);
    assert_eq!(backend.cache_reads(), before);
    // What moved with no event is asked under the nearest container that kept its size, not
    // in the whole window (42 calls for the window's 733 nodes; 1,390 when every bound in
    // the window was asked again).
    let calls = backend.calls() - calls_before;
    assert!(
        calls * 10 <= tree.len() as u64,
        "the patched snapshot made {calls} calls for {} nodes (a fresh read: {fresh_calls})",
        tree.len()
    );

    // A tree not kept after a change: the whole cache is read again (GTK 3 changes states
    // with no event naming the element: `kept.rs` measures it), but the action names of
    // what no event named are not asked again.
    set_label(&mut fixture, "Changed again");
    let (before, calls_before) = (backend.cache_reads(), backend.calls());
    let limits = WalkLimits {
        max_depth: 40,
        ..WalkLimits::default()
    };
    let tree = backend.snapshot(&window, &limits).await.unwrap();
    assert_eq!(label(&tree).as_deref(), Some("Changed again"));
    assert_eq!(backend.cache_reads(), before + 1);
    let calls = backend.calls() - calls_before;
    assert!(
        calls + actionable <= fresh_calls,
        "after the change {calls} calls, a fresh snapshot {fresh_calls}: the {actionable} \
         action lists were asked again"
    );
}

/// Sets the fixture's label and waits until the fixture says it shows `text`.
fn set_label(fixture: &mut deskpilot_testkit::FixtureApp, text: &str) {
    fixture
        .command("set_label", json!({ "text": text }))
        .unwrap();
    let shown = fixture
        .oracle
        .wait_value("delayed", "text", json!(text), Duration::from_secs(5));
    shown.unwrap();
}
