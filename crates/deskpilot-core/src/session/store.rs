//! The session store: every open session, the refs each issued, who owns which ref, snapshot
//! cursors, and what a session last saw. Synchronous and free of any backend: the engine reads
//! the world, the store remembers what it showed.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use super::refs::{RefEntry, RefId, RefTable, format_ref, parse_ref};
use super::target::SessionInfo;
use crate::app::{AppInfo, WindowInfo};
use crate::error::{Code, Error, Result};
use crate::live::{Since, View};
use crate::model::{ElementId, Node, NodeValue, Rect, Tree};

/// Views kept per session for `since`: older versions answer with the whole tree.
pub const KEPT_VIEWS: usize = 8;

/// Open cursors kept per session; when a session has this many, all are dropped before the
/// next is kept.
const MAX_CURSORS: usize = 16;

/// One subtree a later page of a snapshot reads: `root`, which belongs under `parent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingSubtree {
    pub parent: ElementId,
    pub root: ElementId,
    /// The subtree is inside a password field.
    pub secret: bool,
}

struct SessionState {
    info: SessionInfo,
    refs: RefTable,
    /// Where truncated snapshots continue, by cursor.
    cursors: HashMap<String, VecDeque<PendingSubtree>>,
    /// The refs of the latest snapshot that can be acted on, with their bounds (screenshots
    /// label them).
    placed_refs: Vec<(RefId, Rect)>,
    /// The window of the session last seen active.
    last_active: Option<ElementId>,
    /// The latest views shown (oldest first), for diffs.
    views: VecDeque<Arc<View>>,
    next_version: u64,
    /// Whether action results read the tree again and say what changed.
    follows_tree: bool,
    /// Elements given text sent as secret: their text is shown as a length only.
    secret_holders: std::collections::HashSet<ElementId>,
}

#[derive(Default)]
struct Inner {
    next_ref: RefId,
    next_cursor: u64,
    next_session: u64,
    sessions: HashMap<String, SessionState>,
    /// Which session issued each ref.
    ref_owner: HashMap<RefId, String>,
}

/// All sessions of one engine.
pub struct SessionStore {
    inner: Mutex<Inner>,
}

impl Default for SessionStore {
    fn default() -> Self {
        SessionStore {
            inner: Mutex::new(Inner {
                next_ref: 1,
                next_cursor: 1,
                next_session: 1,
                ..Inner::default()
            }),
        }
    }
}

impl SessionStore {
    /// Opens a session on `app` (or one of its windows).
    pub fn open(&self, app: AppInfo, window: Option<WindowInfo>) -> SessionInfo {
        let mut inner = self.lock();
        let id = format!("s{}", inner.next_session);
        inner.next_session += 1;
        let info = SessionInfo {
            id: id.clone(),
            root: window.as_ref().map_or(app.id.clone(), |w| w.id.clone()),
            window: window.map(|w| w.title),
            app,
        };
        inner.sessions.insert(
            id,
            SessionState {
                info: info.clone(),
                refs: RefTable::default(),
                cursors: HashMap::new(),
                placed_refs: Vec::new(),
                last_active: None,
                views: VecDeque::new(),
                next_version: 1,
                follows_tree: true,
                secret_holders: std::collections::HashSet::new(),
            },
        );
        info
    }

    /// Closes a session; its refs are unknown from then on.
    pub fn close(&self, session: &str) -> Result<()> {
        let mut inner = self.lock();
        inner
            .sessions
            .remove(session)
            .ok_or_else(|| unknown_session(session))?;
        inner.ref_owner.retain(|_, owner| owner != session);
        Ok(())
    }

    /// Every open session, by id.
    pub fn all(&self) -> Vec<SessionInfo> {
        let mut all: Vec<SessionInfo> = self
            .lock()
            .sessions
            .values()
            .map(|s| s.info.clone())
            .collect();
        all.sort_by(|a, b| a.id.cmp(&b.id));
        all
    }

    pub fn info(&self, session: &str) -> Result<SessionInfo> {
        self.with(session, |s| s.info.clone())
    }

    /// The session's ref for `node`: the one it has while identity, role and name hold, else a
    /// new one.
    pub fn issue(&self, session: &str, node: &Node) -> Result<RefId> {
        self.lock().issue(session, node)
    }

    /// Refs for several nodes under one lock, in order.
    pub fn issue_all<'a>(
        &self,
        session: &str,
        nodes: impl IntoIterator<Item = &'a Node>,
    ) -> Result<Vec<RefId>> {
        let mut inner = self.lock();
        nodes
            .into_iter()
            .map(|node| inner.issue(session, node))
            .collect()
    }

    /// The session's current ref of an element, if it has one.
    pub fn ref_of(&self, session: &str, element: &ElementId) -> Option<RefId> {
        let inner = self.lock();
        inner.sessions.get(session)?.refs.of_element(element)
    }

    /// What the ref `text` was issued for: refused when it is malformed, unknown, issued by
    /// another session, or superseded by a newer ref of a changed element.
    pub fn lookup(&self, session: &str, text: &str) -> Result<RefEntry> {
        let id = parse_ref(text).ok_or_else(|| {
            Error::new(
                Code::InvalidArguments,
                format!("{text:?} is not a ref (refs look like e12)"),
                "use a ref from the latest `snapshot` or `find`",
            )
        })?;
        let inner = self.lock();
        let state = inner
            .sessions
            .get(session)
            .ok_or_else(|| unknown_session(session))?;
        match inner.ref_owner.get(&id) {
            Some(owner) if owner != session => {
                return Err(Error::new(
                    Code::StaleRef,
                    format!("ref {text} belongs to session {owner}, not {session}"),
                    "use refs from this session's own snapshots",
                ));
            }
            None => {
                return Err(Error::stale(format!(
                    "ref {text} is unknown (or its session was closed)"
                )));
            }
            Some(_) => {}
        }
        let entry = state
            .refs
            .get(id)
            .cloned()
            .ok_or_else(|| Error::stale(format!("ref {text} is unknown")))?;
        if let Some(newer) = entry.superseded_by {
            return Err(Error::stale(format!(
                "ref {text} is stale: the element changed since (now {})",
                format_ref(newer)
            )));
        }
        Ok(entry)
    }

    /// Whether the ref `text` of `session` names a secret (false when it names nothing).
    pub fn is_secret_ref(&self, session: &str, text: &str) -> bool {
        let inner = self.lock();
        parse_ref(text)
            .and_then(|id| inner.sessions.get(session)?.refs.get(id).map(|e| e.secret))
            .unwrap_or(false)
    }

    /// Keeps what a truncated snapshot left, under a new cursor.
    pub fn store_cursor(&self, session: &str, items: VecDeque<PendingSubtree>) -> Result<String> {
        let mut inner = self.lock();
        let id = format!("c{}", inner.next_cursor);
        inner.next_cursor += 1;
        let state = inner
            .sessions
            .get_mut(session)
            .ok_or_else(|| unknown_session(session))?;
        if state.cursors.len() >= MAX_CURSORS {
            state.cursors.clear();
        }
        state.cursors.insert(id.clone(), items);
        Ok(id)
    }

    /// What a cursor leads to; a cursor is used once, in the session that made it.
    pub fn take_cursor(&self, session: &str, cursor: &str) -> Result<VecDeque<PendingSubtree>> {
        self.with_mut(session, |state| state.cursors.remove(cursor))?
            .ok_or_else(|| {
                Error::new(
                    Code::InvalidArguments,
                    format!("unknown cursor {cursor:?} (a cursor can be used once, in the session that made it)"),
                    "take a new `snapshot`",
                )
            })
    }

    /// Puts back a cursor taken by a page that failed: nothing it led to is lost.
    pub fn restore_cursor(
        &self,
        session: &str,
        cursor: &str,
        items: VecDeque<PendingSubtree>,
    ) -> Result<()> {
        self.with_mut(session, |state| {
            state.cursors.insert(cursor.to_owned(), items);
        })
    }

    /// Keeps where a snapshot's refs are: a first page replaces what the session remembered,
    /// a continued page adds to it.
    pub fn place_refs(&self, session: &str, mut placed: Vec<(RefId, Rect)>, continued: bool) {
        placed.sort_by_key(|(r, _)| *r);
        let _ = self.with_mut(session, |state| {
            if !continued {
                state.placed_refs.clear();
            }
            state.placed_refs.extend(placed);
        });
    }

    /// The refs of the session's latest snapshot with their bounds.
    pub fn placed_refs(&self, session: &str) -> Result<Vec<(RefId, Rect)>> {
        self.with(session, |s| s.placed_refs.clone())
    }

    /// Notes the session's window last seen active.
    pub fn remember_active(&self, session: &str, window: &ElementId) {
        let _ = self.with_mut(session, |s| s.last_active = Some(window.clone()));
    }

    /// The session's window last seen active.
    pub fn last_active(&self, session: &str) -> Option<ElementId> {
        self.with(session, |s| s.last_active.clone()).ok().flatten()
    }

    /// Keeps a view the session was shown as its next version (set here), and returns it.
    pub fn record_view(&self, session: &str, mut view: View) -> Result<Arc<View>> {
        self.with_mut(session, |state| {
            view.version = state.next_version;
            state.next_version += 1;
            if state.views.len() >= KEPT_VIEWS {
                state.views.pop_front();
            }
            let view = Arc::new(view);
            state.views.push_back(view.clone());
            view
        })
    }

    /// Notes that `element` was given secret text: this session's reads show its text as a
    /// length from now on.
    /// The views kept so far showed its text: they are dropped (the next read is whole).
    pub fn hold_secret(&self, session: &str, element: &ElementId) {
        let _ = self.with_mut(session, |state| {
            if state.secret_holders.insert(element.clone()) {
                state.views.clear();
            }
        });
    }

    /// Whether the session gave any element secret text.
    pub fn holds_secrets(&self, session: &str) -> bool {
        self.with(session, |state| !state.secret_holders.is_empty())
            .unwrap_or(false)
    }

    /// Redacts the text of the elements the session gave secret text.
    pub fn redact_held(&self, session: &str, tree: &mut Tree) {
        let _ = self.with(session, |state| {
            if state.secret_holders.is_empty() {
                return;
            }
            for tn in &mut tree.nodes {
                if state.secret_holders.contains(&tn.node.id)
                    && let Some(NodeValue::Text { text }) = &tn.node.value
                {
                    let chars = Some(text.chars().count() as u32);
                    tn.node.value = Some(NodeValue::Redacted { chars });
                }
            }
        });
    }

    /// Whether the session's action results say what changed in its tree (on by default; a
    /// test that judges with expectations can spare the read).
    pub fn follow_tree(&self, session: &str, follow: bool) -> Result<()> {
        self.with_mut(session, |state| state.follows_tree = follow)
    }

    pub fn follows_tree(&self, session: &str) -> bool {
        self.with(session, |state| state.follows_tree)
            .unwrap_or(false)
    }

    /// A view the session was shown, if still kept.
    pub fn view(&self, session: &str, since: Since) -> Option<Arc<View>> {
        self.with(session, |state| match since {
            Since::Last => state.views.back().cloned(),
            Since::Version(v) => state.views.iter().find(|view| view.version == v).cloned(),
        })
        .ok()
        .flatten()
    }

    fn with<T>(&self, session: &str, f: impl FnOnce(&SessionState) -> T) -> Result<T> {
        let inner = self.lock();
        let state = inner
            .sessions
            .get(session)
            .ok_or_else(|| unknown_session(session))?;
        Ok(f(state))
    }

    fn with_mut<T>(&self, session: &str, f: impl FnOnce(&mut SessionState) -> T) -> Result<T> {
        let mut inner = self.lock();
        let state = inner
            .sessions
            .get_mut(session)
            .ok_or_else(|| unknown_session(session))?;
        Ok(f(state))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("session store lock")
    }
}

impl Inner {
    fn issue(&mut self, session: &str, node: &Node) -> Result<RefId> {
        let Inner {
            next_ref,
            sessions,
            ref_owner,
            ..
        } = self;
        let state = sessions
            .get_mut(session)
            .ok_or_else(|| unknown_session(session))?;
        let mut next = || {
            let id = *next_ref;
            *next_ref += 1;
            id
        };
        let id = state.refs.assign(node, &mut next);
        ref_owner.entry(id).or_insert_with(|| session.to_owned());
        Ok(id)
    }
}

/// `unknown_session` for `session`: what any front end says of a session it does not know.
pub fn unknown_session(session: &str) -> Error {
    Error::new(
        Code::UnknownSession,
        format!("no session {session:?}"),
        "call `connect` to open a session and pass its id",
    )
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
