//! Reads of a backend that keeps trees beside one that keeps nothing, shared by the tests
//! of kept trees.

use std::sync::Arc;
use std::time::{Duration, Instant};

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::model::{ElementId, Tree};
use deskpilot_core::{Backend, WalkLimits};
use deskpilot_testkit::VirtualDesktop;

/// What a read says of each node, element ids left out (tree-view cells are made per
/// reader).
pub fn seen(tree: &Tree) -> Vec<String> {
    tree.nodes
        .iter()
        .map(|tn| {
            let n = &tn.node;
            let id = (&n.accessible_id, n.accessible_id_unread);
            format!(
                "{} {:?} {:?} {:?} {:?} {:?} {:?} {id:?}",
                tn.depth, n.role, n.name, n.value, n.states, n.bounds, tn.realization
            )
        })
        .collect()
}

/// The first lines where two reads differ.
fn differences(warm: &[String], cold: &[String]) -> String {
    let mut out = Vec::new();
    for i in 0..warm.len().max(cold.len()) {
        if warm.get(i) != cold.get(i) {
            out.push(format!(
                "{i}: kept {:?}\n{i}: cold {:?}",
                warm.get(i),
                cold.get(i)
            ));
        }
        if out.len() == 4 {
            break;
        }
    }
    out.join("\n")
}

/// Fails unless the kept read says what the cold one does.
pub fn assert_same(warm: &[String], cold: &[String], when: &str) {
    assert!(
        warm == cold,
        "{when}, {} nodes kept, {} read cold; first differences:\n{}",
        warm.len(),
        cold.len(),
        differences(warm, cold)
    );
}

/// Reads with `backend` until one read is answered from its kept tree.
pub async fn until_kept(backend: &AtspiBackend, root: &ElementId) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let before = backend.kept_reuses();
        backend
            .snapshot(root, &WalkLimits::default())
            .await
            .unwrap();
        if backend.kept_reuses() > before {
            return;
        }
        assert!(Instant::now() < deadline, "the tree was never kept");
    }
}

/// A backend that keeps trees and one that keeps nothing. The first keeps them as long as
/// the test runs: every step's read is a reuse or a patch, never a read afresh because the
/// tree grew old (on a busy machine steps take seconds). Both place GTK 4's window-relative
/// bounds on the screen, as the server does.
pub async fn backends(desktop: &VirtualDesktop) -> (AtspiBackend, AtspiBackend) {
    let x11 = || Arc::new(deskpilot_x11::X11WindowSystem::connect(desktop.display()).unwrap());
    let warm = AtspiBackend::connect(ConnectOptions {
        kept_for: Duration::from_secs(600),
        ..ConnectOptions::new(desktop.session_bus_address())
    })
    .await
    .unwrap()
    .with_window_system(x11());
    let mut options = ConnectOptions::new(desktop.session_bus_address());
    options.reuse_quiet_cache = false;
    let cold = AtspiBackend::connect(options)
        .await
        .unwrap()
        .with_window_system(x11());
    (warm, cold)
}

/// What `backend` reads of `root`, as `seen` says it.
pub async fn read(backend: &AtspiBackend, root: &ElementId) -> Vec<String> {
    seen(
        &backend
            .snapshot(root, &WalkLimits::default())
            .await
            .unwrap(),
    )
}

/// The root of the app named `name`, once it is listed (60 s).
pub async fn app_root(backend: &AtspiBackend, name: &str) -> ElementId {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let apps = backend.apps().await.unwrap();
        if let Some(app) = apps.into_iter().find(|a| a.name == name) {
            return app.id;
        }
        assert!(Instant::now() < deadline, "{name} never listed");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Until a read of `root` shows an element named `name` (a page's document comes after its
/// window; 60 s).
pub async fn until_shows(backend: &AtspiBackend, root: &ElementId, name: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let tree = backend
            .snapshot(root, &WalkLimits::default())
            .await
            .unwrap();
        let named = |tn: &deskpilot_core::model::TreeNode| tn.node.name == name;
        if tree.nodes.iter().any(named) {
            return;
        }
        assert!(Instant::now() < deadline, "{name:?} never shown");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Until two reads in a row agree: the app finished what a change set off (10 s).
pub async fn settled(backend: &AtspiBackend, root: &ElementId, when: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut last = read(backend, root).await;
    loop {
        let now = read(backend, root).await;
        if now == last {
            return;
        }
        assert!(Instant::now() < deadline, "never settled: {when}");
        last = now;
    }
}
