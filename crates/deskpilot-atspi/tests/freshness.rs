//! An app's `Cache.GetItems` answer is kept between snapshots, and what the app's events name
//! (here a label whose text changed) is read again: the next snapshot shows the change
//! without reading the whole cache again.

use std::time::{Duration, Instant};

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::{Backend, WalkLimits};
use deskpilot_desktop::{Fixture, VirtualDesktop};
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
                tree.nodes
                    .iter()
                    .find(|n| ["Waiting", "Changed by the test"].contains(&n.node.name.as_str()))
            })
            .map(|n| n.node.name.clone())
    };

    // Snapshots until two in a row read no cache (the app is quiet and its answer kept).
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut quiet_in_a_row = 0;
    while quiet_in_a_row < 2 {
        let before = backend.cache_reads();
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
        assert!(Instant::now() < deadline, "the cache was never reused");
    }

    fixture
        .command("set_label", json!({"text": "Changed by the test"}))
        .unwrap();
    fixture
        .oracle
        .wait_value(
            "delayed",
            "text",
            json!("Changed by the test"),
            Duration::from_secs(5),
        )
        .unwrap();
    let before = backend.cache_reads();
    let tree = backend
        .snapshot(&window, &WalkLimits::default())
        .await
        .unwrap();
    assert_eq!(
        label(&tree).as_deref(),
        Some("Changed by the test"),
        "the change was seen"
    );
    assert_eq!(
        backend.cache_reads(),
        before,
        "only what the event named was read again, not the whole cache"
    );
}
