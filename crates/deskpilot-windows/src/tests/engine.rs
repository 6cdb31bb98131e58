//! The engine over the Windows backend: sessions, refs, selectors and the rendered tree
//! work on UIA's ids and words.

use std::sync::Arc;

use deskpilot_core::{ConnectTarget, Engine, Selector, SnapshotRequest};

use super::{SIGNIN, backend};

/// Connect by pid, snapshot, find by capability: the rendered tree shows roles and refs, and
/// no secret.
#[tokio::test]
async fn the_engine_reads_a_windows_app() {
    let (_, backend) = backend(SIGNIN);
    let engine = Engine::new(Arc::new(backend));
    let session = engine.connect(&ConnectTarget::Pid(77)).await.unwrap().id;
    let handle = engine.session(&session).unwrap();
    let snap = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let text = &snap.rendered.text;
    assert!(text.contains("textbox \"User\""), "{text}");
    assert!(text.contains("password \"Password\""), "{text}");
    assert!(text.contains("[ref="), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
    let found = handle
        .find(
            &Selector::parse("[capability=takes_text]").unwrap(),
            None,
            10,
        )
        .await
        .unwrap();
    let names: Vec<&str> = found.matches.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["User", "Password"]);
}
