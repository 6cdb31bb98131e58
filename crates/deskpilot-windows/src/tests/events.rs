//! Events: a session's app is watched; its events move the change count, name elements and
//! the focus; a flood forgets what was named; an app that ended is no longer watched.

use deskpilot_platform::Backend;

use super::{SIGNIN, backend, root_of, tree_of};
use crate::events::UiaEvent;
use crate::raw::RuntimeKey;

#[tokio::test]
async fn a_watched_apps_events_are_hints() {
    let (fake, backend) = backend(SIGNIN);
    let root = root_of(&backend, 77).await;
    let tree = tree_of(&backend, 77).await;
    let user = super::named(&tree, "User").id.clone();
    let key = match crate::identity::parse(&user) {
        Some((_, _, crate::identity::Named::Element(key))) => key,
        other => panic!("{other:?}"),
    };
    assert!(backend.events().focused_hint(&root).await.is_none());
    backend.app(&root).await.unwrap();
    assert_eq!(fake.calls("watch"), 1);
    let changes = backend.events().changes(&root).await.unwrap();
    assert_eq!(fake.calls("watch"), 1, "watched once");
    let before = *changes.borrow();
    fake.emit(UiaEvent::Focused {
        pid: 77,
        key: key.clone(),
    });
    fake.emit(UiaEvent::Changed {
        pid: 77,
        key: Some(RuntimeKey(vec![42, 0x999])),
    });
    // Another process's event is not this app's.
    fake.emit(UiaEvent::Changed { pid: 5, key: None });
    assert_eq!(*changes.borrow(), before + 2);
    assert_eq!(
        backend.events().focused_hint(&root).await,
        Some(user.clone())
    );
    let named = backend.events().named_since(&root, before).await.unwrap();
    assert_eq!(named[0], user);
    assert_eq!(named.len(), 2);
    for n in 0..1000 {
        fake.emit(UiaEvent::Changed {
            pid: 77,
            key: Some(RuntimeKey(vec![42, n])),
        });
    }
    assert_eq!(backend.events().named_since(&root, before).await, None);
    assert_eq!(
        backend
            .events()
            .quiet(&root, Default::default(), Default::default())
            .await,
        None
    );
    fake.end(77);
    backend.apps().await.unwrap();
    assert!(!backend.events.watched(77));
}
