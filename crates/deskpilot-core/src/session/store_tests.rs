//! The session store alone: no backend, no engine.

use std::collections::VecDeque;

use super::*;
use crate::model::{Role, State};

fn app(name: &str) -> AppInfo {
    AppInfo {
        id: ElementId::new(format!(":1.{name}"), "/root"),
        name: name.to_owned(),
        pid: Some(7),
        toolkit: None,
        toolkit_version: None,
        windows: Vec::new(),
        responding: true,
    }
}

fn button(object: &str, name: &str) -> Node {
    let mut node = Node::new(ElementId::new(":1.a", object), Role::Button);
    node.name = name.to_owned();
    node
}

fn pending(object: &str) -> PendingSubtree {
    PendingSubtree {
        parent: ElementId::new(":1.a", "/p"),
        root: ElementId::new(":1.a", object),
        secret: false,
    }
}

#[test]
fn sessions_are_numbered_and_rooted_at_their_window_or_app() {
    let store = SessionStore::default();
    let a = store.open(app("a"), None);
    let window = WindowInfo {
        id: ElementId::new(":1.a", "/w"),
        role: Role::Window,
        title: "Main".into(),
        bounds: None,
        states: Default::default(),
        system_id: None,
        transient_for: None,
    };
    let b = store.open(app("a"), Some(window));
    assert_eq!((a.id.as_str(), b.id.as_str()), ("s1", "s2"));
    assert_eq!(a.root, ElementId::new(":1.a", "/root"));
    assert_eq!(b.root, ElementId::new(":1.a", "/w"));
    assert_eq!(b.window.as_deref(), Some("Main"));
    assert_eq!(store.info("s2").unwrap().id, "s2");
    assert_eq!(store.info("s9").unwrap_err().code, Code::UnknownSession);
}

#[test]
fn a_ref_is_stable_while_the_element_holds_and_superseded_when_it_changes() {
    let store = SessionStore::default();
    let s = store.open(app("a"), None).id;
    let ok = button("/ok", "OK");
    let first = store.issue(&s, &ok).unwrap();
    assert_eq!(store.issue(&s, &ok).unwrap(), first);
    assert_eq!(store.lookup(&s, &format_ref(first)).unwrap().name, "OK");
    let renamed = button("/ok", "Cancel");
    let second = store.issue(&s, &renamed).unwrap();
    assert_ne!(first, second);
    let error = store.lookup(&s, &format_ref(first)).unwrap_err();
    assert_eq!(error.code, Code::StaleRef);
    assert!(error.message.contains(&format_ref(second)), "{error}");
    assert_eq!(store.ref_of(&s, &renamed.id), Some(second));
}

#[test]
fn another_sessions_ref_is_refused_never_reused() {
    let store = SessionStore::default();
    let one = store.open(app("a"), None).id;
    let two = store.open(app("a"), None).id;
    let ok = button("/ok", "OK");
    let mine = store.issue(&one, &ok).unwrap();
    let theirs = store.issue(&two, &ok).unwrap();
    assert_ne!(mine, theirs, "each session names an element its own way");
    let error = store.lookup(&two, &format_ref(mine)).unwrap_err();
    assert_eq!(error.code, Code::StaleRef);
    assert!(error.message.contains("belongs to session s1"), "{error}");
}

#[test]
fn closing_a_session_forgets_its_refs() {
    let store = SessionStore::default();
    let s = store.open(app("a"), None).id;
    let r = format_ref(store.issue(&s, &button("/ok", "OK")).unwrap());
    store.close(&s).unwrap();
    assert_eq!(store.close(&s).unwrap_err().code, Code::UnknownSession);
    let other = store.open(app("a"), None).id;
    let error = store.lookup(&other, &r).unwrap_err();
    assert!(error.message.contains("unknown"), "{error}");
    assert_eq!(store.lookup(&s, &r).unwrap_err().code, Code::UnknownSession);
}

#[test]
fn malformed_refs_are_invalid_arguments() {
    let store = SessionStore::default();
    let s = store.open(app("a"), None).id;
    for bad in ["", "e", "12", "e01", "[ref=e1]"] {
        let error = store.lookup(&s, bad).unwrap_err();
        assert_eq!(error.code, Code::InvalidArguments, "{bad:?}");
    }
    assert_eq!(store.lookup(&s, "e99").unwrap_err().code, Code::StaleRef);
}

#[test]
fn a_secret_stays_secret_in_its_ref() {
    let store = SessionStore::default();
    let s = store.open(app("a"), None).id;
    let mut password = Node::new(ElementId::new(":1.a", "/pw"), Role::Password);
    password.states.set(State::Editable, true);
    let r = format_ref(store.issue(&s, &password).unwrap());
    assert!(store.is_secret_ref(&s, &r));
    assert!(store.lookup(&s, &r).unwrap().secret);
    let plain = format_ref(store.issue(&s, &button("/ok", "OK")).unwrap());
    assert!(!store.is_secret_ref(&s, &plain));
    assert!(!store.is_secret_ref(&s, "e404"));
}

#[test]
fn a_cursor_is_used_once_in_its_own_session_and_can_be_put_back() {
    let store = SessionStore::default();
    let one = store.open(app("a"), None).id;
    let two = store.open(app("a"), None).id;
    let cursor = store
        .store_cursor(&one, VecDeque::from([pending("/x")]))
        .unwrap();
    assert_eq!(
        store.take_cursor(&two, &cursor).unwrap_err().code,
        Code::InvalidArguments
    );
    let items = store.take_cursor(&one, &cursor).unwrap();
    assert_eq!(items, VecDeque::from([pending("/x")]));
    assert_eq!(
        store.take_cursor(&one, &cursor).unwrap_err().code,
        Code::InvalidArguments
    );
    store.restore_cursor(&one, &cursor, items).unwrap();
    assert_eq!(store.take_cursor(&one, &cursor).unwrap().len(), 1);
}

#[test]
fn open_cursors_are_bounded_per_session() {
    let store = SessionStore::default();
    let s = store.open(app("a"), None).id;
    let first = store.store_cursor(&s, VecDeque::new()).unwrap();
    for _ in 0..MAX_CURSORS {
        store.store_cursor(&s, VecDeque::new()).unwrap();
    }
    assert!(store.take_cursor(&s, &first).is_err(), "the oldest went");
}

#[test]
fn placed_refs_are_replaced_by_a_first_page_and_extended_by_a_continued_one() {
    let store = SessionStore::default();
    let s = store.open(app("a"), None).id;
    let rect = |x| Rect {
        x,
        y: 0,
        width: 10,
        height: 10,
    };
    store.place_refs(&s, vec![(2, rect(2)), (1, rect(1))], false);
    assert_eq!(
        store.placed_refs(&s).unwrap(),
        vec![(1, rect(1)), (2, rect(2))]
    );
    store.place_refs(&s, vec![(3, rect(3))], true);
    assert_eq!(store.placed_refs(&s).unwrap().len(), 3);
    store.place_refs(&s, vec![(4, rect(4))], false);
    assert_eq!(store.placed_refs(&s).unwrap(), vec![(4, rect(4))]);
}

#[test]
fn the_last_active_window_is_kept_per_session() {
    let store = SessionStore::default();
    let s = store.open(app("a"), None).id;
    assert_eq!(store.last_active(&s), None);
    let w = ElementId::new(":1.a", "/w2");
    store.remember_active(&s, &w);
    assert_eq!(store.last_active(&s), Some(w));
    assert_eq!(store.last_active("s404"), None);
}
