//! An in-memory backend: apps described as indented text, mutable from tests.
//!
//! ```text
//! application "Editor" pid=42 toolkit=GTK
//!   window "Main" path=/win
//!     button "OK" id=ok actions=click
//!     checkbox "Notify" [checked]
//!     table "Sheet" [managesdescendants] children=2147483647
//! ```
//! One node per line, two spaces per level: role, optional quoted name, then `[state]`s and
//! `key=value`s (`id`, `path`, `value`, `actions`, `children` = reported child count, `pid`,
//! `toolkit`). Paths default to `/n<k>` in order of appearance.

mod acting;
mod events;
mod nodes;
mod parse;
mod routes;
mod screen;
mod uia;
mod walk;

use std::sync::Mutex;

use async_trait::async_trait;
use deskpilot_platform::model::{ElementId, Node, NodeValue, Role, Tree};
use deskpilot_platform::{
    AppInfo, Backend, BackendError, Secrecy, TableSlice, TextSlice, WalkLimits, WindowInfo,
};

pub use acting::{FakeInput, fake_window_id};
pub use parse::parse_app;
pub use screen::FakeScreen;
pub use uia::{Flavour, action_patterns};

use nodes::{find, find_mut, keep_secret, remove_from, renew_vanishing};

/// One node of a fake tree.
#[derive(Debug, Clone)]
pub struct FakeNode {
    pub node: Node,
    pub children: Vec<FakeNode>,
    /// Accepts native operations and does nothing (a provider that lies).
    pub inert: bool,
    /// Ignores synthetic input too.
    pub deaf: bool,
    /// Refuses native operations with an error naming the operation, as AT-SPI bridges
    /// answer a declined call.
    pub declines: bool,
    /// Typed text arrives changed: its last character is lost (as text outside the BMP once
    /// arrived wrong in Firefox).
    pub garbles: bool,
    /// Walks report its `checked` state one change behind (as a kept identity whose event has
    /// not arrived yet); a single read of the node is current.
    pub lags: bool,
    /// A window transient for the app's window at this index.
    pub owner: Option<usize>,
    /// Its parent chain does not reach the app: asking for its window fails (as a LibreOffice
    /// paragraph's once did).
    pub orphan: bool,
    /// After a walk reads it, it is replaced by a twin under a new id (as UIA elements are
    /// re-created, their RuntimeId new): the id the walk gave names nothing any more.
    pub vanishes: bool,
    /// It manages its descendants and cannot say how many it has (`children=?`).
    pub count_unknown: bool,
    /// Its native operations run in a modal loop: they take effect, and the call answers
    /// only once the dialog closes (GTK's gtk_dialog_run, UIA's Invoke on a modal dialog).
    pub modal: bool,
}

/// One fake application.
#[derive(Debug, Clone)]
pub struct FakeApp {
    pub root: FakeNode,
    pub pid: Option<u32>,
    pub toolkit: Option<String>,
    /// A frozen app answers nothing (like SIGSTOP).
    pub frozen: bool,
    /// Busy when it was listed (GTK 3 building another client's slow answer): the listing
    /// found it not responding and no window, though it answers the calls after.
    pub busy_when_listed: bool,
    /// An elevated app: listed, but every read of it is denied (as UIPI does on Windows).
    pub denied: bool,
}

/// Events whose elements `named_since` remembers (AT-SPI's watch: 256).
pub const REMEMBERED: usize = 256;

/// The backend.
#[derive(Default)]
pub struct FakeBackend {
    apps: Mutex<Vec<FakeApp>>,
    performed: Mutex<Vec<(ElementId, deskpilot_platform::NativeOp)>>,
    /// With events on: bumped at every `edit` and `remove` (as a real app's events would be).
    events: Mutex<Option<tokio::sync::watch::Sender<u64>>>,
    /// With events on: the element each event named, with the event's number.
    named: Mutex<Vec<(u64, ElementId)>>,
    /// How long a walk takes (on tokio's clock): a big app's full read.
    walk_time: Mutex<std::time::Duration>,
    /// The platform the fake imitates.
    flavour: Flavour,
    /// The elements whose values a UIA-flavoured read fetched, in order.
    value_requests: Mutex<Vec<ElementId>>,
    /// Apps added so far: a bus's unique names are never given twice (D-Bus specification,
    /// "Message Bus": a unique name is never reused), so an app started again is another.
    added: std::sync::atomic::AtomicUsize,
}

impl FakeBackend {
    /// A fake in AT-SPI's vocabulary.
    pub fn new() -> Self {
        FakeBackend::default()
    }

    /// A fake in the vocabulary of `flavour`: the same apps, another platform's words.
    pub fn with_flavour(flavour: Flavour) -> Self {
        FakeBackend {
            flavour,
            ..FakeBackend::default()
        }
    }

    /// The elements whose values UIA-flavoured reads fetched (none for the AT-SPI flavour).
    pub fn value_requests(&self) -> Vec<ElementId> {
        self.value_requests.lock().unwrap().clone()
    }

    /// Adds an app written in the text format; its bus name is `:1.<n>`, `n` counting every
    /// app added (those that quit too).
    pub fn add_app(&self, text: &str) -> ElementId {
        let mut apps = self.apps.lock().unwrap();
        let n = self
            .added
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            + 1;
        let bus = format!(":1.{n}");
        let mut app = parse_app(text, &bus).unwrap_or_else(|e| panic!("bad fake app: {e}"));
        if self.flavour == Flavour::Uia {
            uia::translate(&mut app.root);
        }
        let id = app.root.node.id.clone();
        apps.push(app);
        id
    }

    /// From now on, every change sends an event (waits wake on it); without, apps are
    /// unwatched and waits poll.
    pub fn send_events(&self) {
        *self.events.lock().unwrap() = Some(tokio::sync::watch::Sender::new(0));
    }

    fn event(&self, named: &ElementId) {
        if let Some(events) = self.events.lock().unwrap().as_ref() {
            let number = *events.borrow() + 1;
            let mut remembered = self.named.lock().unwrap();
            if remembered.len() == REMEMBERED {
                remembered.remove(0);
            }
            remembered.push((number, named.clone()));
            events.send_modify(|n| *n += 1);
        }
    }

    /// Changes the node at `path` of the app on `bus` (rename it, change a state, ...).
    pub fn edit(&self, id: &ElementId, change: impl FnOnce(&mut FakeNode)) {
        let mut apps = self.apps.lock().unwrap();
        let node = apps
            .iter_mut()
            .find_map(|a| find_mut(&mut a.root, id))
            .unwrap_or_else(|| panic!("no fake node {id}"));
        change(node);
        drop(apps);
        self.event(id);
    }

    /// The node `id` as the fake holds it now (a test's oracle), if it exists.
    pub fn peek(&self, id: &ElementId) -> Option<Node> {
        let apps = self.apps.lock().unwrap();
        apps.iter()
            .find_map(|a| find(&a.root, id))
            .map(|n| n.node.clone())
    }

    /// Removes the node `id` (and its subtree).
    pub fn remove(&self, id: &ElementId) {
        let mut apps = self.apps.lock().unwrap();
        for app in apps.iter_mut() {
            remove_from(&mut app.root, id);
        }
        drop(apps);
        self.event(id);
    }

    /// Walks take `time` from now on (read at the end: a change made meanwhile is seen).
    pub fn set_walk_time(&self, time: std::time::Duration) {
        *self.walk_time.lock().unwrap() = time;
    }

    /// The app quits: every call to it answers that it is gone.
    pub fn quit(&self, app: &ElementId) {
        self.apps
            .lock()
            .unwrap()
            .retain(|a| a.root.node.id.app != app.app);
    }

    /// Makes `app` busy whenever it is listed, and only then (`FakeApp::busy_when_listed`).
    pub fn set_busy_when_listed(&self, app: &ElementId, busy: bool) {
        let mut apps = self.apps.lock().unwrap();
        for a in apps.iter_mut().filter(|a| a.root.node.id.app == app.app) {
            a.busy_when_listed = busy;
        }
    }

    pub fn set_frozen(&self, app: &ElementId, frozen: bool) {
        let mut apps = self.apps.lock().unwrap();
        for a in apps.iter_mut().filter(|a| a.root.node.id.app == app.app) {
            a.frozen = frozen;
        }
    }

    fn with_app<T>(
        &self,
        id: &ElementId,
        f: impl FnOnce(&FakeApp) -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        self.with_app_mut(id, |app| f(app))
    }

    /// Runs `f` on the app that holds `id`, failing like a real app would when it is gone or
    /// frozen.
    pub(crate) fn with_app_mut<T>(
        &self,
        id: &ElementId,
        f: impl FnOnce(&mut FakeApp) -> Result<T, BackendError>,
    ) -> Result<T, BackendError> {
        let mut apps = self.apps.lock().unwrap();
        let app = apps
            .iter_mut()
            .find(|a| a.root.node.id.app == id.app)
            .ok_or_else(|| BackendError::AppGone {
                app: id.app.clone(),
            })?;
        if app.denied {
            return Err(BackendError::AccessDenied {
                app: id.app.clone(),
                why: "it runs elevated".into(),
            });
        }
        if app.frozen {
            return Err(BackendError::AppNotResponding {
                app: id.app.clone(),
                timeout: std::time::Duration::from_millis(1500),
            });
        }
        f(app)
    }
}

impl deskpilot_platform::NativeRoutes for FakeBackend {
    fn native_route(
        &self,
        node: &deskpilot_platform::model::Node,
        op: &deskpilot_platform::NativeOp,
    ) -> Result<deskpilot_platform::NativeRoute, String> {
        match self.flavour {
            Flavour::AtSpi => routes::route(node, op),
            Flavour::Uia => uia::route(node, op),
        }
    }

    fn edit_keys(&self) -> deskpilot_platform::EditKeys {
        deskpilot_platform::EditKeys::ctrl()
    }
}

#[async_trait]
impl Backend for FakeBackend {
    fn events(&self) -> &dyn deskpilot_platform::Events {
        self
    }

    fn blindness(&self, app: Option<&AppInfo>) -> deskpilot_platform::Blindness {
        let toolkit = app
            .and_then(|a| a.toolkit.as_deref())
            .unwrap_or("")
            .to_lowercase();
        let web = ["chrom", "electron"].iter().any(|w| toolkit.contains(w));
        deskpilot_platform::Blindness {
            needs_document: web,
            hint: if web {
                "restart it with --force-renderer-accessibility".into()
            } else {
                "switch its accessibility on".into()
            },
        }
    }

    async fn apps(&self) -> Result<Vec<AppInfo>, BackendError> {
        let apps = self.apps.lock().unwrap();
        Ok(apps
            .iter()
            .map(|a| AppInfo {
                id: a.root.node.id.clone(),
                name: a.root.node.name.clone(),
                pid: a.pid,
                toolkit: a.toolkit.clone(),
                toolkit_version: None,
                windows: if a.frozen || a.busy_when_listed {
                    Vec::new()
                } else {
                    a.root
                        .children
                        .iter()
                        .enumerate()
                        .map(|(i, w)| WindowInfo {
                            id: w.node.id.clone(),
                            role: w.node.role,
                            title: w.node.name.clone(),
                            bounds: w.node.bounds,
                            states: w.node.states,
                            system_id: Some(fake_window_id(&a.root.node.id, i)),
                            transient_for: w.owner.map(|o| fake_window_id(&a.root.node.id, o)),
                        })
                        .collect()
                },
                responding: !a.frozen && !a.busy_when_listed,
            })
            .collect())
    }

    async fn snapshot(&self, root: &ElementId, limits: &WalkLimits) -> Result<Tree, BackendError> {
        let walk_time = *self.walk_time.lock().unwrap();
        if !walk_time.is_zero() {
            tokio::time::sleep(walk_time).await;
        }
        self.with_app_mut(root, |app| {
            let start =
                find(&app.root, root).ok_or_else(|| BackendError::Defunct { id: root.clone() })?;
            let mut tree = walk::walk(start, limits);
            renew_vanishing(&mut app.root);
            if self.flavour == Flavour::Uia {
                let inside = limits.secrecy.is_secret();
                uia::admit_values(&mut tree, inside, &self.value_requests);
            }
            // Like a real backend: what lies inside a password field has no text.
            for index in 0..tree.nodes.len() {
                let inside = tree.nodes[index]
                    .parent
                    .map_or(limits.secrecy.is_secret(), |p| {
                        tree.nodes[p].node.is_secret()
                    });
                let node = &mut tree.nodes[index].node;
                keep_secret(node, inside);
                if node.accessible_id_unread {
                    node.accessible_id = None;
                }
            }
            Ok(tree)
        })
    }

    async fn properties(&self, id: &ElementId, secrecy: Secrecy) -> Result<Node, BackendError> {
        self.node(id, secrecy).await
    }

    async fn hit_test(&self, root: &ElementId, x: i32, y: i32) -> Result<Vec<Node>, BackendError> {
        self.with_app(root, |app| {
            let mut current =
                find(&app.root, root).ok_or_else(|| BackendError::Defunct { id: root.clone() })?;
            let mut path = Vec::new();
            // The last child containing the point is the topmost.
            let mut inside_secret = false;
            while let Some(child) = current
                .children
                .iter()
                .rev()
                .find(|c| c.node.bounds.is_some_and(|b| b.contains(x, y)))
            {
                let mut node = child.node.clone();
                if self.flavour == Flavour::Uia {
                    let admitted = !inside_secret && node.role != Role::Password;
                    uia::admit_value(&mut node, admitted, &self.value_requests);
                }
                keep_secret(&mut node, inside_secret);
                inside_secret = node.is_secret();
                path.push(node);
                current = child;
            }
            Ok(path)
        })
    }

    async fn text(
        &self,
        id: &ElementId,
        start: u32,
        end: Option<u32>,
    ) -> Result<TextSlice, BackendError> {
        let node = self.node(id, Secrecy::Plain).await?;
        let text = match node.value {
            Some(NodeValue::Text { text }) => text,
            _ => {
                return Err(BackendError::Unsupported {
                    id: id.clone(),
                    what: "the Text interface".into(),
                });
            }
        };
        Ok(TextSlice::of(&text, start, end))
    }

    async fn table(
        &self,
        id: &ElementId,
        first_row: u32,
        max_rows: u32,
    ) -> Result<TableSlice, BackendError> {
        // A fake table: columnheader children are headers, row children hold cells.
        self.with_app(id, |app| {
            let table =
                find(&app.root, id).ok_or_else(|| BackendError::Defunct { id: id.clone() })?;
            let headers: Vec<String> = table
                .children
                .iter()
                .filter(|c| c.node.role == Role::ColumnHeader)
                .map(|c| c.node.name.clone())
                .collect();
            let all: Vec<Vec<String>> = table
                .children
                .iter()
                .filter(|c| c.node.role == Role::Row)
                .map(|r| r.children.iter().map(|c| c.node.name.clone()).collect())
                .collect();
            let row_count = all.len() as u32;
            let first = first_row.min(row_count);
            let last = first.saturating_add(max_rows).min(row_count);
            Ok(TableSlice {
                column_count: headers.len() as u32,
                headers,
                rows: all[first as usize..last as usize].to_vec(),
                first_row: first,
                row_count,
            })
        })
    }

    async fn perform(
        &self,
        id: &ElementId,
        op: &deskpilot_platform::NativeOp,
    ) -> Result<deskpilot_platform::Performed, BackendError> {
        self.perform_native(id, op)
    }

    async fn toplevel(&self, id: &ElementId) -> Result<ElementId, BackendError> {
        self.toplevel_of(id)
    }

    async fn parent(&self, id: &ElementId) -> Result<Option<ElementId>, BackendError> {
        self.with_app(id, |app| {
            fn parent_of(node: &FakeNode, id: &ElementId) -> Option<ElementId> {
                node.children.iter().find_map(|c| {
                    if &c.node.id == id {
                        Some(node.node.id.clone())
                    } else {
                        parent_of(c, id)
                    }
                })
            }
            if &app.root.node.id == id {
                return Ok(None);
            }
            parent_of(&app.root, id)
                .map(Some)
                .ok_or_else(|| BackendError::Defunct { id: id.clone() })
        })
    }

    async fn node(&self, id: &ElementId, secrecy: Secrecy) -> Result<Node, BackendError> {
        self.with_app(id, |app| {
            find(&app.root, id)
                .map(|n| {
                    let mut node = Node {
                        accessible_id_unread: false,
                        ..n.node.clone()
                    };
                    if self.flavour == Flavour::Uia {
                        let admitted = !secrecy.is_secret() && !node.is_secret();
                        uia::admit_value(&mut node, admitted, &self.value_requests);
                    }
                    keep_secret(&mut node, secrecy.is_secret());
                    node
                })
                .ok_or_else(|| BackendError::Defunct { id: id.clone() })
        })
    }
}

/// Convenience for tests: a fake node's id on the app `bus`.
pub fn id(bus: &str, path: &str) -> ElementId {
    ElementId::new(bus, path)
}

/// The role of a fake node by name, for tests.
pub fn role(name: &str) -> Role {
    Role::from_name(name).unwrap_or_else(|| panic!("unknown role {name}"))
}
