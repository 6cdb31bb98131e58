//! The engine every front end shares: sessions, refs, snapshots, find and strict resolution.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;

use crate::act::InputDevice;
use crate::app::AppInfo;
use crate::backend::{Backend, Secrecy, WalkLimits};
use crate::derive::derive_names;
use crate::error::{Code, Error, Result};
use crate::filter::Filter;
use crate::model::{CutReason, ElementId, Node, Realization, Role, State, Tree};
use crate::refs::{RefId, RefTable, format_ref, parse_ref};
use crate::render::{Rendered, render_with_notes};
use crate::selector::Selector;
use crate::session::{ConnectTarget, Continue, SessionInfo, SessionState, choose};

/// What an element-taking operation is aimed at.
#[derive(Debug, Clone)]
pub enum Target {
    Ref(String),
    Selector(Selector),
}

/// Options of a snapshot.
#[derive(Debug, Clone)]
pub struct SnapshotRequest {
    pub within: Option<Target>,
    /// For a session on an app: the window shown in full (default: the active one); the
    /// others are listed in one line each.
    pub window: Option<crate::scope::WindowPick>,
    /// Continue a truncated snapshot from the cursor it returned (`within` is then ignored).
    pub cursor: Option<String>,
    pub filter: Filter,
    pub max_nodes: usize,
    pub max_depth: u32,
    pub timeout: Duration,
    /// Where to report the number of nodes read while the walk runs.
    pub progress: Option<crate::backend::ProgressSink>,
}

impl Default for SnapshotRequest {
    fn default() -> Self {
        SnapshotRequest {
            within: None,
            window: None,
            cursor: None,
            filter: Filter::Interactive,
            max_nodes: 2000,
            max_depth: 64,
            timeout: Duration::from_secs(10),
            progress: None,
        }
    }
}

/// Where and why a snapshot stopped short.
#[derive(Debug, Clone, Serialize)]
pub struct Truncation {
    pub reason: CutReason,
    /// The ref of the first node whose children were not all read.
    pub at: Option<String>,
    /// Pass this as `cursor` to read what was left out.
    pub cursor: Option<String>,
}

/// A snapshot as the front ends present it.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub tree: Tree,
    pub rendered: Rendered,
    /// Ref of each tree node that has one, by index.
    pub refs: HashMap<usize, RefId>,
    pub truncated: Option<Truncation>,
    /// The root is a minimized window: its tree is (nearly) empty for that reason.
    pub minimized: bool,
}

/// One element found.
#[derive(Debug, Clone, Serialize)]
pub struct Match {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: Role,
    pub name: String,
    pub exact: bool,
    /// It and its ancestors are shown (see `visibility`).
    pub visible: bool,
    #[serde(skip)]
    pub node: Node,
}

/// The result of `find`.
#[derive(Debug, Clone, Serialize)]
pub struct FindResult {
    /// Visible matches first, then exact before partial, then document order.
    pub matches: Vec<Match>,
    /// All matches, before `limit`.
    pub total: usize,
    /// How many of them are visible.
    pub visible: usize,
    pub exact: usize,
    /// Containers that could not be searched (not realized, or over budget), by ref.
    pub unsearched: Vec<Unsearched>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Unsearched {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: Role,
    pub name: String,
    pub why: String,
}

/// One element, resolved strictly and re-validated.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub reference: String,
    pub node: Node,
    /// The element is, or is inside, a password field: its text is never read.
    pub secret: bool,
}

/// A page of an element's text.
#[derive(Debug, Clone, Serialize)]
pub struct TextRead {
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(flatten)]
    pub slice: crate::details::TextSlice,
    /// Where the next page starts, when there is more.
    pub next_offset: Option<u32>,
}

/// A page of a table.
#[derive(Debug, Clone, Serialize)]
pub struct TableRead {
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(flatten)]
    pub slice: crate::details::TableSlice,
    /// Where the next page starts, when there are more rows.
    pub next_row: Option<u32>,
}

struct Inner {
    next_ref: RefId,
    next_cursor: u64,
    next_session: u64,
    sessions: HashMap<String, SessionState>,
    /// Which session issued each ref.
    ref_owner: HashMap<RefId, String>,
}

/// The engine over one backend.
pub struct Engine {
    backend: Arc<dyn Backend>,
    inner: Mutex<Inner>,
    /// Synthetic input, when the display offers it.
    input: Option<Arc<dyn InputDevice>>,
    /// The display's pixels, when it offers them.
    capture: Option<Arc<dyn crate::capture::ScreenCapture>>,
    /// Starts programs on the desktop.
    launcher: Option<Arc<dyn crate::launch::Launcher>>,
    /// One keyboard and one pointer: input from all sessions goes through here in turn.
    input_lock: tokio::sync::Mutex<()>,
}

/// Refs go to nodes worth acting on or reading. Plain containers and bars that only group
/// their items get none (a selector reaches them for `within`).
fn deserves_ref(node: &Node) -> bool {
    match node.role {
        Role::MenuBar | Role::Toolbar | Role::TabList | Role::Separator => false,
        Role::Generic | Role::Section | Role::ScrollPane | Role::Viewport => {
            !node.display_name().is_empty()
        }
        _ => true,
    }
}

impl Engine {
    pub fn new(backend: Arc<dyn Backend>) -> Self {
        Engine {
            backend,
            inner: Mutex::new(Inner {
                next_ref: 1,
                next_cursor: 1,
                next_session: 1,
                sessions: HashMap::new(),
                ref_owner: HashMap::new(),
            }),
            input: None,
            capture: None,
            launcher: None,
            input_lock: tokio::sync::Mutex::new(()),
        }
    }

    /// Sends synthetic input (and takes screenshots) through `input`.
    pub fn with_input(mut self, input: Arc<dyn InputDevice>) -> Self {
        self.input = Some(input);
        self
    }

    /// Starts programs through `launcher`.
    pub fn with_launcher(mut self, launcher: Arc<dyn crate::launch::Launcher>) -> Self {
        self.launcher = Some(launcher);
        self
    }

    /// The launcher, or `unsupported` when there is none.
    pub fn launcher(&self) -> Result<&Arc<dyn crate::launch::Launcher>> {
        self.launcher.as_ref().ok_or_else(|| {
            Error::new(
                Code::Unsupported,
                "this deskpilot cannot start programs",
                "start the app yourself, then list_apps and connect",
            )
        })
    }

    /// Takes screenshots through `capture`.
    pub fn with_capture(mut self, capture: Arc<dyn crate::capture::ScreenCapture>) -> Self {
        self.capture = Some(capture);
        self
    }

    /// The screen capture, or `input_unavailable` when there is none.
    pub fn capture_device(&self) -> Result<&Arc<dyn crate::capture::ScreenCapture>> {
        self.capture.as_ref().ok_or_else(|| {
            crate::act::ladder::unavailable(
                "no screenshots here: deskpilot has no X11 display (a Wayland session, or DISPLAY unset)".into(),
            )
        })
    }

    pub fn backend(&self) -> &Arc<dyn Backend> {
        &self.backend
    }

    /// The input device, or `input_unavailable` when there is none.
    pub fn input_device(&self) -> Result<&Arc<dyn InputDevice>> {
        self.input.as_ref().ok_or_else(|| {
            crate::act::ladder::unavailable(
                "no synthetic input here: deskpilot has no X11 display (a Wayland session, or DISPLAY unset)".into(),
            )
        })
    }

    /// Held while synthetic input is sent.
    pub(crate) async fn input_lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.input_lock.lock().await
    }

    pub async fn apps(&self) -> Result<Vec<AppInfo>> {
        Ok(self.backend.apps().await?)
    }

    /// Windows on the display whose process is not among `apps` (not on the accessibility
    /// bus: deskpilot cannot read them, only say that they are there).
    pub async fn windows_off_the_bus(
        &self,
        apps: &[AppInfo],
    ) -> Vec<crate::window_system::ClientWindow> {
        crate::window_system::off_the_bus(apps, &self.backend.display_windows().await)
    }

    /// Opens a session on the app or window `target` names.
    pub async fn connect(&self, target: &ConnectTarget) -> Result<SessionInfo> {
        let apps = self.apps().await?;
        let (app, window) = choose(&apps, target)?;
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
                boxes: Vec::new(),
                last_active: None,
            },
        );
        Ok(info)
    }

    pub fn disconnect(&self, session: &str) -> Result<()> {
        let mut inner = self.lock();
        inner
            .sessions
            .remove(session)
            .ok_or_else(|| unknown_session(session))?;
        inner.ref_owner.retain(|_, owner| owner != session);
        Ok(())
    }

    pub fn session(&self, session: &str) -> Result<SessionInfo> {
        self.lock()
            .sessions
            .get(session)
            .map(|s| s.info.clone())
            .ok_or_else(|| unknown_session(session))
    }

    /// Reads and renders the session's window (or `within` an element).
    pub async fn snapshot(&self, session: &str, request: &SnapshotRequest) -> Result<Snapshot> {
        let limits = |max_nodes: usize| WalkLimits {
            max_nodes,
            max_depth: request.max_depth,
            progress: request.progress.clone(),
            ..WalkLimits::with_timeout(request.timeout)
        };
        // A first page walks one root; a continued page walks the subtrees its cursor left,
        // in order, until the node budget is spent.
        let (mut tree, mut rest, notes) = match &request.cursor {
            None => {
                let app_wide = {
                    let info = self.session(session)?;
                    info.root == info.app.id
                };
                let tree = if app_wide && request.within.is_none() {
                    self.app_tree(session, request.window.as_ref(), &limits(request.max_nodes))
                        .await?
                } else {
                    let (root, secrecy) = self.root_for(session, request.within.as_ref()).await?;
                    let first = WalkLimits {
                        secrecy,
                        ..limits(request.max_nodes)
                    };
                    let mut tree = self.backend.snapshot(&root, &first).await?;
                    if request.within.is_none() {
                        self.add_windows_over(session, &mut tree, &limits(request.max_nodes))
                            .await;
                    }
                    tree
                };
                (tree, VecDeque::new(), HashMap::new())
            }
            Some(cursor) => {
                let mut queue = self.take_cursor(session, cursor)?;
                let mut tree = Tree::default();
                let mut notes = HashMap::new();
                while tree.len() < request.max_nodes {
                    let Some(item) = queue.pop_front() else { break };
                    let budget = request.max_nodes - tree.len();
                    let item_limits = WalkLimits {
                        secrecy: Secrecy::of(item.secret),
                        ..limits(budget)
                    };
                    match self.backend.snapshot(&item.root, &item_limits).await {
                        Ok(sub) => {
                            notes.insert(tree.len(), item.parent);
                            tree.append(sub);
                        }
                        // Gone since the first page: nothing left to read there.
                        Err(crate::backend::BackendError::Defunct { .. }) => {}
                        Err(e) => {
                            // Nothing is lost: the cursor still leads to all it did.
                            queue.push_front(item);
                            self.restore_cursor(session, cursor, queue)?;
                            return Err(e.into());
                        }
                    }
                }
                (tree, queue, notes)
            }
        };
        derive_names(&mut tree);
        let continued = request.cursor.is_some();
        let refs = self.assign_refs(session, &tree, request.filter, continued)?;
        self.remember_boxes(session, &tree, &refs, continued);
        // This page's own cuts come before what the cursor had not reached yet.
        let mut next: VecDeque<Continue> = tree
            .pending
            .iter()
            .flat_map(|p| {
                let parent = tree.nodes[p.parent].node.id.clone();
                let secret = tree.nodes[p.parent].node.is_secret();
                let roots = if p.unread.is_empty() {
                    vec![parent.clone()]
                } else {
                    p.unread.clone()
                };
                roots.into_iter().map(move |root| Continue {
                    parent: parent.clone(),
                    root,
                    secret,
                })
            })
            .collect();
        next.append(&mut rest);
        let cursor = (!next.is_empty())
            .then(|| self.store_cursor(session, next))
            .transpose()?;
        let ref_text = |element: &ElementId| {
            let inner = self.lock();
            inner
                .sessions
                .get(session)
                .and_then(|s| s.refs.of_element(element))
                .map(format_ref)
        };
        let notes: HashMap<usize, String> = notes
            .into_iter()
            .map(|(index, parent)| {
                let under = ref_text(&parent).unwrap_or_else(|| parent.to_string());
                (index, format!("continued under {under}"))
            })
            .collect();
        let rendered = render_with_notes(
            &tree,
            request.filter,
            &|i| refs.get(&i).map(|r| format_ref(*r)),
            &|i| notes.get(&i).cloned(),
        );
        let truncated = match (tree.cut(), &cursor) {
            (Some((index, reason)), _) => Some(Truncation {
                reason,
                at: refs.get(&index).map(|r| format_ref(*r)),
                cursor: cursor.clone(),
            }),
            // The page itself is whole, but the cursor had more than fitted.
            (None, Some(cursor)) => Some(Truncation {
                reason: CutReason::Nodes,
                at: None,
                cursor: Some(cursor.clone()),
            }),
            (None, None) => None,
        };
        let minimized = tree
            .root()
            .is_some_and(|r| r.node.states.is(State::Minimized));
        Ok(Snapshot {
            tree,
            rendered,
            refs,
            truncated,
            minimized,
        })
    }

    fn take_cursor(&self, session: &str, cursor: &str) -> Result<VecDeque<Continue>> {
        let mut inner = self.lock();
        let state = inner
            .sessions
            .get_mut(session)
            .ok_or_else(|| unknown_session(session))?;
        state.cursors.remove(cursor).ok_or_else(|| {
            Error::new(
                Code::InvalidArguments,
                format!("unknown cursor {cursor:?} (a cursor can be used once, in the session that made it)"),
                "take a new snapshot",
            )
        })
    }

    fn restore_cursor(&self, session: &str, cursor: &str, items: VecDeque<Continue>) -> Result<()> {
        let mut inner = self.lock();
        let state = inner
            .sessions
            .get_mut(session)
            .ok_or_else(|| unknown_session(session))?;
        state.cursors.insert(cursor.to_owned(), items);
        Ok(())
    }

    fn store_cursor(&self, session: &str, items: VecDeque<Continue>) -> Result<String> {
        let mut inner = self.lock();
        let id = format!("c{}", inner.next_cursor);
        inner.next_cursor += 1;
        let state = inner
            .sessions
            .get_mut(session)
            .ok_or_else(|| unknown_session(session))?;
        // Keep a bounded number of open cursors per session.
        if state.cursors.len() >= 16 {
            state.cursors.clear();
        }
        state.cursors.insert(id.clone(), items);
        Ok(id)
    }

    /// Finds elements at any depth of the realized tree; exact matches first, then document
    /// order.
    pub async fn find(
        &self,
        session: &str,
        selector: &Selector,
        within: Option<&Target>,
        limit: usize,
    ) -> Result<FindResult> {
        self.find_within_time(session, selector, within, limit, Duration::from_secs(15))
            .await
    }

    /// `find` whose walk stops after `time` (a cut walk names what it could not search).
    pub async fn find_within_time(
        &self,
        session: &str,
        selector: &Selector,
        within: Option<&Target>,
        limit: usize,
        time: Duration,
    ) -> Result<FindResult> {
        let (root, secrecy) = self.root_for(session, within).await?;
        let limits = WalkLimits {
            max_nodes: 20_000,
            secrecy,
            ..WalkLimits::with_timeout(time)
        };
        let mut tree = self.backend.snapshot(&root, &limits).await?;
        if within.is_none() {
            self.add_windows_over(session, &mut tree, &limits).await;
        }
        derive_names(&mut tree);
        self.read_wanted_ids(&mut tree, selector).await;
        let mut found = match_selector(&tree, selector);
        let seen = crate::visibility::visible(&tree);
        // Stable: within each group, exact before partial and document order stay.
        found.sort_by_key(|&(index, _)| !seen[index]);
        let exact_count = found.iter().filter(|(_, exact)| *exact).count();
        let visible_count = found.iter().filter(|&&(index, _)| seen[index]).count();
        let total = found.len();
        let mut inner = self.lock();
        let mut matches = Vec::new();
        for &(index, exact) in found.iter().take(limit) {
            let node = &tree.nodes[index].node;
            let reference = format_ref(inner.assign(session, node)?);
            matches.push(Match {
                reference,
                role: node.role,
                name: node.display_name().to_owned(),
                exact,
                visible: seen[index],
                node: node.clone(),
            });
        }
        let mut unsearched = Vec::new();
        for (index, realization) in tree.incomplete() {
            let node = &tree.nodes[index].node;
            let why = match realization {
                Realization::NotRealized { logical } => {
                    format!("{logical} children not realized (use read_table or find within it)")
                }
                Realization::Partial { realized, logical } => {
                    format!("only {realized} of {logical} children realized")
                }
                Realization::Cut { reason } => format!("not read: {} budget", reason.name()),
                Realization::Complete | Realization::Folded => continue,
            };
            unsearched.push(Unsearched {
                reference: format_ref(inner.assign(session, node)?),
                role: node.role,
                name: node.display_name().to_owned(),
                why,
            });
        }
        Ok(FindResult {
            matches,
            total,
            visible: visible_count,
            exact: exact_count,
            unsearched,
        })
    }

    /// Exactly one element, re-validated: 0 matches is `not_found`, more than one `ambiguous`.
    pub async fn resolve(&self, session: &str, target: &Target) -> Result<Resolved> {
        match target {
            Target::Ref(text) => self.resolve_ref(session, text).await,
            Target::Selector(selector) => {
                let found = self.find(session, selector, None, 5).await?;
                // Strictness counts what can be seen: hidden matches (a closed menu's items, a
                // hidden page) stand aside when some match is visible.
                let mut found = found;
                if found.visible > 0 {
                    found.matches.retain(|m| m.visible);
                    found.total = found.visible;
                    found.exact = found.matches.iter().filter(|m| m.exact).count();
                }
                match found.total {
                    0 => Err(Error::new(
                        Code::NotFound,
                        format!("nothing matches the selector{}", unsearched_note(&found)),
                        "check the selector against a fresh snapshot; the element may not exist yet (use wait_for)",
                    )),
                    1 => {
                        let m = found.matches.into_iter().next().expect("one match");
                        let secret = self.is_secret_ref(session, &m.reference)
                            || m.node.is_secret()
                            || matches!(
                                m.node.value,
                                Some(crate::model::NodeValue::Redacted { .. })
                            );
                        Ok(Resolved {
                            reference: m.reference,
                            node: m.node,
                            secret,
                        })
                    }
                    n => Err(Error::new(
                        Code::Ambiguous,
                        format!(
                            "{n} elements match ({} exact): {}",
                            found.exact,
                            found
                                .matches
                                .iter()
                                .map(|m| format!(
                                    "{} {:?}{} [ref={}]",
                                    m.role,
                                    m.name,
                                    if m.visible { "" } else { " (hidden)" },
                                    m.reference
                                ))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        "narrow the selector (name, within, :nth(N)) or use one of the refs",
                    )),
                }
            }
        }
    }

    /// Looks a ref up in its session and re-reads the element: refused when it belongs to
    /// another session, was superseded, is gone, or changed role or name.
    pub async fn resolve_ref(&self, session: &str, text: &str) -> Result<Resolved> {
        let id = parse_ref(text).ok_or_else(|| {
            Error::new(
                Code::InvalidArguments,
                format!("{text:?} is not a ref (refs look like e12)"),
                "use a ref from the latest snapshot or find",
            )
        })?;
        let entry = {
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
            entry
        };
        let node = self
            .backend
            .node(&entry.element, Secrecy::of(entry.secret))
            .await
            .map_err(|e| {
                let error = Error::from(e);
                if error.code == Code::StaleRef {
                    Error::stale(format!(
                        "ref {text} ({} {:?}) no longer exists",
                        entry.role, entry.name
                    ))
                } else {
                    error
                }
            })?;
        if node.states.is(State::Defunct) {
            return Err(Error::stale(format!(
                "ref {text} ({} {:?}) is defunct",
                entry.role, entry.name
            )));
        }
        if node.role != entry.role || node.name != entry.name {
            return Err(Error::stale(format!(
                "ref {text} was {} {:?} and is now {} {:?}",
                entry.role, entry.name, node.role, node.name
            )));
        }
        let mut node = node;
        if node.name.is_empty() && node.derived_name.is_none() && !entry.display_name.is_empty() {
            // A single read has no children or labels to derive a name from: keep the one
            // shown in the snapshot that issued the ref.
            node.derived_name = Some(entry.display_name);
        }
        let secret = entry.secret || node.is_secret();
        Ok(Resolved {
            reference: text.to_owned(),
            node,
            secret,
        })
    }

    fn is_secret_ref(&self, session: &str, reference: &str) -> bool {
        let inner = self.lock();
        parse_ref(reference)
            .and_then(|id| inner.sessions.get(session)?.refs.get(id).map(|e| e.secret))
            .unwrap_or(false)
    }

    /// Everything the backend knows about one element.
    pub async fn properties(&self, session: &str, target: &Target) -> Result<Resolved> {
        let resolved = self.resolve(session, target).await?;
        let mut node = self
            .backend
            .properties(&resolved.node.id, Secrecy::of(resolved.secret))
            .await?;
        if node.derived_name.is_none() {
            node.derived_name = resolved.node.derived_name.clone();
        }
        if resolved.secret {
            node.value = Some(crate::model::NodeValue::Redacted {
                chars: match resolved.node.value {
                    Some(crate::model::NodeValue::Redacted { chars }) => chars,
                    _ => None,
                },
            });
        }
        Ok(Resolved { node, ..resolved })
    }

    /// The chain of elements at a screen point in the session's window, outermost first, each
    /// with a ref; the last is the deepest.
    pub async fn hit_test(&self, session: &str, x: i32, y: i32) -> Result<Vec<Match>> {
        let root = self.session(session)?.root;
        let path = self.backend.hit_test(&root, x, y).await?;
        let mut inner = self.lock();
        path.into_iter()
            .map(|node| {
                Ok(Match {
                    reference: format_ref(inner.assign(session, &node)?),
                    role: node.role,
                    name: node.display_name().to_owned(),
                    exact: true,
                    visible: crate::visibility::shown(&node),
                    node,
                })
            })
            .collect()
    }

    /// The focused element in the session's window (the deepest one with `focused`), if any.
    pub async fn focus(&self, session: &str) -> Result<Option<Match>> {
        let root = self.session(session)?.root;
        let limits = WalkLimits {
            max_nodes: 20_000,
            ..WalkLimits::with_timeout(Duration::from_secs(15))
        };
        let mut tree = self.backend.snapshot(&root, &limits).await?;
        derive_names(&mut tree);
        let focused = tree
            .nodes
            .iter()
            .filter(|n| n.node.states.is(State::Focused))
            .max_by_key(|n| n.depth);
        let Some(focused) = focused else {
            return Ok(None);
        };
        let node = focused.node.clone();
        let reference = format_ref(self.lock().assign(session, &node)?);
        Ok(Some(Match {
            reference,
            role: node.role,
            name: node.display_name().to_owned(),
            exact: true,
            visible: crate::visibility::shown(&node),
            node,
        }))
    }

    /// Characters `offset..offset + length` of an element's text (all of it up to `MAX` when
    /// no length). A password field's text is never read: that is refused.
    pub async fn read_text(
        &self,
        session: &str,
        target: &Target,
        offset: u32,
        length: Option<u32>,
    ) -> Result<TextRead> {
        const MAX: u32 = 10_000;
        let resolved = self.resolve(session, target).await?;
        if resolved.secret {
            return Err(Error::new(
                Code::Unsupported,
                format!(
                    "{} is a password field: its text is never read{}",
                    resolved.reference,
                    match resolved.node.value {
                        Some(crate::model::NodeValue::Redacted { chars: Some(n) }) =>
                            format!(" (it holds {n} characters)"),
                        _ => String::new(),
                    }
                ),
                "a password's content cannot be read back; type it again if needed",
            ));
        }
        let length = length.unwrap_or(MAX).min(MAX);
        let slice = self
            .backend
            .text(
                &resolved.node.id,
                offset,
                Some(offset.saturating_add(length)),
            )
            .await?;
        let next_offset = (slice.end < slice.total).then_some(slice.end);
        Ok(TextRead {
            reference: resolved.reference,
            slice,
            next_offset,
        })
    }

    /// A page of a table's rows with its headers (repeated on every page).
    pub async fn read_table(
        &self,
        session: &str,
        target: &Target,
        first_row: u32,
        rows: u32,
    ) -> Result<TableRead> {
        let resolved = self.resolve(session, target).await?;
        let slice = self
            .backend
            .table(&resolved.node.id, first_row, rows.clamp(1, 500))
            .await?;
        let end = slice.first_row + slice.rows.len() as u32;
        let next_row = (end < slice.row_count).then_some(end);
        Ok(TableRead {
            reference: resolved.reference,
            slice,
            next_row,
        })
    }

    /// Reads the ids a snapshot left unread, for the nodes that an `id` criterion could match.
    async fn read_wanted_ids(&self, tree: &mut Tree, selector: &Selector) {
        let steps: Vec<_> = selector.steps.iter().filter(|s| s.wants_id()).collect();
        if steps.is_empty() {
            return;
        }
        let wanted: Vec<usize> = (0..tree.len())
            .filter(|&i| {
                let node = &tree.nodes[i].node;
                node.accessible_id_unread && steps.iter().any(|s| s.matches_ignoring_id(node))
            })
            .collect();
        let ids: Vec<ElementId> = wanted
            .iter()
            .map(|&i| tree.nodes[i].node.id.clone())
            .collect();
        let read = self.backend.accessible_ids(&ids).await;
        for (index, id) in wanted.into_iter().zip(read) {
            let node = &mut tree.nodes[index].node;
            node.accessible_id = id.filter(|s| !s.is_empty());
            node.accessible_id_unread = false;
        }
    }

    /// A session on a window also sees the windows over it (a dialog or file chooser it
    /// opened, a popup menu: part of working with it): each is appended to `tree` as a
    /// further root, within what is left of the node budget. Best effort: a window that cannot
    /// be read is left out.
    async fn add_windows_over(&self, session: &str, tree: &mut Tree, limits: &WalkLimits) {
        let Ok(scope) = self.scope(session).await else {
            return;
        };
        if scope.app_wide {
            return; // an app-wide walk already holds every window
        }
        for window in scope.windows.iter().skip(1) {
            if window.is_minimized() == Some(true) {
                continue;
            }
            let budget = limits.max_nodes.saturating_sub(tree.len());
            if budget == 0 {
                break;
            }
            let window_limits = WalkLimits {
                max_nodes: budget,
                ..limits.clone()
            };
            if let Ok(sub) = self.backend.snapshot(&window.id, &window_limits).await {
                tree.append(sub);
            }
        }
    }

    /// An app's windows, read for that app alone.
    pub(crate) async fn windows_of(&self, app: &ElementId) -> Result<Vec<crate::app::WindowInfo>> {
        Ok(self.backend.app(app).await?.windows)
    }

    /// The session's own window now: for an app-wide session, its active window (else the
    /// one last seen active, else the first not minimized).
    pub(crate) async fn session_window(
        &self,
        session: &str,
    ) -> Result<Option<crate::app::WindowInfo>> {
        let scope = self.scope(session).await?;
        if scope.app_wide {
            let last = self.last_active(session);
            Ok(scope.main_window(last.as_ref()).cloned())
        } else {
            Ok(scope.windows.first().cloned())
        }
    }

    /// Where a walk starts, and whether that is inside a password field.
    async fn root_for(
        &self,
        session: &str,
        within: Option<&Target>,
    ) -> Result<(ElementId, Secrecy)> {
        let root = self.session(session)?.root;
        match within {
            None => Ok((root, Secrecy::Plain)),
            // Boxed: resolving a selector runs `find`, which comes back here with no `within`.
            Some(target) => {
                let resolved = Box::pin(self.resolve(session, target)).await?;
                Ok((resolved.node.id, Secrecy::of(resolved.secret)))
            }
        }
    }

    /// Refs for the shown nodes; the root of a first page is what the session (or `within`)
    /// already names and gets none, the roots of a continued page do.
    fn assign_refs(
        &self,
        session: &str,
        tree: &Tree,
        filter: Filter,
        continued: bool,
    ) -> Result<HashMap<usize, RefId>> {
        let mut inner = self.lock();
        let mut refs = HashMap::new();
        for (index, _) in filter.apply(tree) {
            let node = &tree.nodes[index].node;
            if (continued || index > 0) && deserves_ref(node) {
                refs.insert(index, inner.assign(session, node)?);
            }
        }
        Ok(refs)
    }

    /// Keeps where the shown refs are (screenshots label them): a first page replaces what a
    /// session remembered, a continued page adds to it.
    fn remember_boxes(
        &self,
        session: &str,
        tree: &Tree,
        refs: &HashMap<usize, RefId>,
        continued: bool,
    ) {
        let mut inner = self.lock();
        let Some(state) = inner.sessions.get_mut(session) else {
            return;
        };
        if !continued {
            state.boxes.clear();
        }
        // Only what an agent can act on is labelled (not windows, panes or text).
        let mut shown: Vec<(RefId, crate::model::Rect)> = refs
            .iter()
            .filter(|(i, _)| {
                let node = &tree.nodes[**i].node;
                node.role.is_interactive()
                    || (node.role.is_text() && node.states.is(State::Editable))
            })
            .filter_map(|(&i, &r)| Some((r, tree.nodes[i].node.bounds?)))
            .filter(|(_, b)| !b.is_empty())
            .collect();
        shown.sort_by_key(|(r, _)| *r);
        state.boxes.extend(shown);
    }

    /// A ref in `session` for a window an action opened, usable at once.
    pub(crate) fn window_ref(
        &self,
        session: &str,
        window: &crate::act::ObservedWindow,
    ) -> Option<String> {
        let mut node = Node::new(window.id.clone(), window.role);
        node.name = window.title.clone();
        self.lock_ref(session, &node)
    }

    /// The session's ref for `node` (issued now if it has none).
    pub(crate) fn lock_ref(&self, session: &str, node: &Node) -> Option<String> {
        self.lock().assign(session, node).ok().map(format_ref)
    }

    /// Notes the session's window last seen active.
    pub(crate) fn remember_active(&self, session: &str, window: &ElementId) {
        if let Some(state) = self.lock().sessions.get_mut(session) {
            state.last_active = Some(window.clone());
        }
    }

    /// The session's window last seen active.
    pub(crate) fn last_active(&self, session: &str) -> Option<ElementId> {
        self.lock()
            .sessions
            .get(session)
            .and_then(|s| s.last_active.clone())
    }

    /// The refs of the session's latest snapshot with their bounds.
    pub(crate) fn boxes(&self, session: &str) -> Result<Vec<(RefId, crate::model::Rect)>> {
        self.lock()
            .sessions
            .get(session)
            .map(|s| s.boxes.clone())
            .ok_or_else(|| unknown_session(session))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("engine lock")
    }
}

impl Inner {
    fn assign(&mut self, session: &str, node: &Node) -> Result<RefId> {
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

/// Matches a selector against a tree: each step searches the subtrees of the previous step's
/// matches; returns (index, exact) ranked exact-first, then document order.
pub fn match_selector(tree: &Tree, selector: &Selector) -> Vec<(usize, bool)> {
    let mut scope: Vec<usize> = vec![0];
    let mut result = Vec::new();
    for (step_index, step) in selector.steps.iter().enumerate() {
        let first = step_index == 0;
        let mut found: Vec<(usize, bool)> = Vec::new();
        for (index, tn) in tree.nodes.iter().enumerate() {
            let in_scope = if first {
                true
            } else {
                tree.ancestors(index).any(|a| scope.contains(&a))
            };
            if in_scope && step.matches(&tn.node) {
                found.push((index, step.is_exact(&tn.node)));
            }
        }
        found.sort_by_key(|&(index, exact)| (!exact, index));
        if let Some(n) = step.nth {
            found = found.into_iter().nth(n).into_iter().collect();
        }
        scope = found.iter().map(|(i, _)| *i).collect();
        result = found;
    }
    result
}

fn unsearched_note(found: &FindResult) -> String {
    if found.unsearched.is_empty() {
        String::new()
    } else {
        format!(
            " ({} containers could not be searched: {})",
            found.unsearched.len(),
            found
                .unsearched
                .iter()
                .map(|u| format!("{} {:?} [ref={}]: {}", u.role, u.name, u.reference, u.why))
                .collect::<Vec<_>>()
                .join("; ")
        )
    }
}

fn unknown_session(session: &str) -> Error {
    Error::new(
        Code::UnknownSession,
        format!("no session {session:?}"),
        "call connect to open a session and pass its id",
    )
}
