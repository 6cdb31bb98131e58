//! `WindowsBackend`: the engine's `Backend` over a `UiaSource` (COM on Windows, the fake
//! anywhere). Every call is bounded (`calls.rs`); an elevated app is refused before any call
//! reaches it; an id whose process was replaced (a recycled pid) names nothing.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskpilot_platform::model::{
    ElementId, Node, NodeValue, TableCells, TableSlice, TextSlice, Tree,
};
use deskpilot_platform::{
    AppInfo, Backend, BackendError, Blindness, Caret, EditKeys, NativeOp, NativeRoute,
    NativeRoutes, Performed, Secrecy, WalkLimits, WindowSystem,
};

use crate::apps::{AppStates, app_info, app_node, by_process};
use crate::calls::Calls;
use crate::error::to_backend;
use crate::identity::{Named, app_id, app_root, element_id, parse};
use crate::mapping;
use crate::mapping::text::line_feeds;
use crate::raw::{Pattern, RawElement, RawProcess, RuntimeKey};
use crate::source::{TextRead, UiaSource};
use crate::walk::{Start, walk};

/// How long one call may take before its app counts as not responding.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(2);

/// The Windows backend over `S`.
pub struct WindowsBackend<S> {
    pub(crate) calls: Calls<S>,
    apps: AppStates,
    /// The events of the apps watched (`watching.rs`).
    pub(crate) events: Arc<crate::events::EventLog>,
    /// The system's window list: which window owns which.
    window_system: Option<Arc<dyn WindowSystem>>,
}

/// An id, resolved: its process and what it names there.
struct Resolved {
    process: RawProcess,
    named: Named,
}

impl<S: UiaSource> WindowsBackend<S> {
    pub fn new(source: Arc<S>, timeout: Duration) -> Self {
        WindowsBackend {
            calls: Calls::new(source, timeout),
            apps: AppStates::default(),
            events: Arc::default(),
            window_system: None,
        }
    }

    /// Uses `system` to say which window owns which (a dialog's owner).
    pub fn with_window_system(mut self, system: Arc<dyn WindowSystem>) -> Self {
        self.window_system = Some(system);
        self
    }

    /// The system's windows, or none when there is no list to ask.
    async fn system_windows(&self) -> Vec<deskpilot_platform::ClientWindow> {
        match &self.window_system {
            Some(system) => system.client_windows().await.unwrap_or_default(),
            None => Vec::new(),
        }
    }

    /// The apps the backend keeps something of: for tests that check a gone app leaves
    /// nothing behind.
    pub fn remembered_apps(&self) -> Vec<String> {
        self.apps.apps()
    }

    pub(crate) fn source(&self) -> &S {
        self.calls.source()
    }

    fn fail(&self, id: &ElementId, what: &str) -> impl Fn(crate::raw::UiaError) -> BackendError {
        let (id, what, timeout) = (id.clone(), what.to_owned(), self.calls.timeout());
        move |e| to_backend(e, &id, &what, timeout)
    }

    /// The top-level windows of `process`.
    async fn windows_of(&self, process: &RawProcess) -> Result<Vec<RawElement>, BackendError> {
        let pid = process.pid;
        let windows = self
            .calls
            .on(pid, None, self.source().windows_of(pid))
            .await;
        windows.map_err(self.fail(&app_root(process), "listing its windows"))
    }

    /// Row `row` of grid `key`, its cells read as elements, in the app's turn.
    async fn grid_row(
        &self,
        id: &ElementId,
        pid: u32,
        key: &RuntimeKey,
        row: u32,
    ) -> Result<Vec<RawElement>, BackendError> {
        let cells = self.source().grid_row(pid, key, row);
        let cells = self.calls.on(pid, Some(key), cells).await;
        let cells = cells.map_err(self.fail(id, "Grid.GetItem"))?;
        let raws: Vec<&RawElement> = cells.iter().collect();
        self.apps.note_patterns(&id.app, &raws);
        Ok(cells)
    }

    /// One element read afresh, `id` naming it.
    async fn read(
        &self,
        id: &ElementId,
        pid: u32,
        key: &RuntimeKey,
    ) -> Result<RawElement, BackendError> {
        let raw = self
            .calls
            .on(pid, Some(key), self.source().element(pid, key))
            .await
            .map_err(self.fail(id, "read"))?;
        self.apps.note_patterns(&id.app, &[&raw]);
        Ok(raw)
    }

    /// An element as a node, with its value where no secret forbids it.
    async fn element_node(
        &self,
        id: &ElementId,
        resolved: &Resolved,
        secrecy: Secrecy,
    ) -> Result<(Node, Option<RawElement>), BackendError> {
        let key = match &resolved.named {
            Named::AppRoot => {
                let windows = self.windows_of(&resolved.process).await?;
                let info = app_info(&resolved.process, &windows);
                return Ok((app_node(&info), None));
            }
            Named::Element(key) => key,
        };
        let pid = resolved.process.pid;
        let raw = self.read(id, pid, key).await?;
        let mut node = mapping::node::node(&raw, &id.app);
        node.inside_secret = secrecy == Secrecy::InsideSecret;
        let secret = secrecy.is_secret() || raw.is_password();
        if !secret && raw.has(Pattern::Value) {
            let value = self
                .calls
                .on(pid, Some(key), self.source().value(pid, key))
                .await;
            if let Some(text) = value.map_err(self.fail(id, "Value"))? {
                node.value = Some(NodeValue::Text {
                    text: line_feeds(text),
                });
            }
        }
        Ok((node, Some(raw)))
    }
}

#[path = "watching.rs"]
mod watching;

#[path = "processes.rs"]
mod processes;

impl<S: UiaSource> NativeRoutes for WindowsBackend<S> {
    fn native_route(&self, node: &Node, op: &NativeOp) -> Result<NativeRoute, String> {
        match self.apps.patterns(&node.id) {
            Some(patterns) => mapping::routes::route(node, patterns, op),
            None => Err("its control patterns were not read".into()),
        }
    }

    /// Windows' text fields take Ctrl shortcuts.
    fn edit_keys(&self) -> EditKeys {
        EditKeys::ctrl()
    }
}

#[async_trait]
impl<S: UiaSource> Backend for WindowsBackend<S> {
    fn events(&self) -> &dyn deskpilot_platform::Events {
        self
    }

    async fn apps(&self) -> Result<Vec<AppInfo>, BackendError> {
        let top = self
            .calls
            .system(self.source().top_level())
            .await
            .map_err(|e| BackendError::System(e.to_string()))?;
        let owners = self.system_windows().await;
        let mut apps = Vec::new();
        let mut alive = HashSet::new();
        for (pid, windows) in by_process(top) {
            // A process that ended since the list was read is not listed.
            let Ok(process) = self.calls.system(self.source().process(pid)).await else {
                continue;
            };
            self.apps.note_process(&process);
            alive.insert(app_id(&process));
            apps.push(with_owners(app_info(&process, &windows), &owners));
        }
        self.apps.retain(&alive);
        let pids: Vec<u32> = apps.iter().filter_map(|a| a.pid).collect();
        self.events.retain(&pids);
        Ok(apps)
    }

    async fn app_running(&self, app: &ElementId) -> Option<bool> {
        self.process_running(app).await
    }

    async fn app(&self, root: &ElementId) -> Result<AppInfo, BackendError> {
        let (pid, started, _) = parse(root).ok_or_else(|| BackendError::AppGone {
            app: root.app.clone(),
        })?;
        let process = self
            .calls
            .system(self.source().process(pid))
            .await
            .ok()
            .filter(|p| p.started == started)
            .ok_or_else(|| BackendError::AppGone {
                app: root.app.clone(),
            })?;
        // Its events are watched from now on (a session starts here).
        self.watch(root).await;
        let (windows, owners) = tokio::join!(self.windows_of(&process), self.system_windows());
        Ok(with_owners(app_info(&process, &windows?), &owners))
    }

    async fn snapshot(&self, root: &ElementId, limits: &WalkLimits) -> Result<Tree, BackendError> {
        let resolved = self.resolve(root).await?;
        let pid = resolved.process.pid;
        let start = match &resolved.named {
            Named::AppRoot => {
                let windows = self.windows_of(&resolved.process).await?;
                let node = app_node(&app_info(&resolved.process, &windows));
                Start::App { node, windows }
            }
            Named::Element(key) => Start::Element(self.read(root, pid, key).await?),
        };
        // The processes of the app's own windows, where the walk starts at them.
        let windows: Option<Vec<u32>> = match &start {
            Start::App { windows, .. } => Some(windows.iter().map(|w| w.pid).collect()),
            Start::Element(_) => None,
        };
        let walked = walk(&self.calls, &root.app, pid, start, limits).await?;
        // Content another process draws inside the app's windows (a WebView2's): its
        // events are the app's. A frame's own process hosts other apps: never adopted, so
        // only a walk that knows the windows adopts.
        for guest in walked.raws.iter().map(|r| r.pid) {
            if guest != pid && windows.as_ref().is_some_and(|w| !w.contains(&guest)) {
                self.events.adopt(guest, pid);
            }
        }
        let raws: Vec<&RawElement> = walked.raws.iter().collect();
        self.apps.note_patterns(&root.app, &raws);
        Ok(walked.tree)
    }

    async fn node(&self, id: &ElementId, secrecy: Secrecy) -> Result<Node, BackendError> {
        let resolved = self.resolve(id).await?;
        Ok(self.element_node(id, &resolved, secrecy).await?.0)
    }

    async fn properties(&self, id: &ElementId, secrecy: Secrecy) -> Result<Node, BackendError> {
        let resolved = self.resolve(id).await?;
        let (mut node, raw) = self.element_node(id, &resolved, secrecy).await?;
        if let Some(raw) = raw {
            node.platform_interfaces = mapping::node::pattern_names(&raw);
            if let Some(localized) = raw.localized_type.filter(|t| !t.is_empty()) {
                node.attributes.insert("localized_type".into(), localized);
            }
            node.attributes.insert(
                "control_type".into(),
                crate::ids::control::name(raw.control_type),
            );
        }
        Ok(node)
    }

    async fn hit_test(&self, root: &ElementId, x: i32, y: i32) -> Result<Vec<Node>, BackendError> {
        let resolved = self.resolve(root).await?;
        let pid = resolved.process.pid;
        let chain = self
            .calls
            .on(pid, None, self.source().element_at(pid, x, y))
            .await
            .map_err(self.fail(root, "ElementFromPoint"))?;
        // The chain is the app's where its top-level window is: content another process
        // draws inside (a UWP app's, a WebView2's) included.
        let mut chain = chain;
        if chain.first().is_none_or(|window| window.owner() != pid) {
            chain.clear();
        }
        let below = match &resolved.named {
            Named::AppRoot => 0,
            Named::Element(key) => match chain.iter().position(|r| &r.key == key) {
                Some(at) => at + 1,
                None => return Ok(Vec::new()),
            },
        };
        let mut secret = false;
        let mut path = Vec::new();
        for raw in &chain[below..] {
            let mut node = mapping::node::node(raw, &root.app);
            node.inside_secret = secret;
            if secret {
                node.name.clear();
            }
            secret |= raw.is_password();
            path.push(node);
        }
        let raws: Vec<&RawElement> = chain.iter().collect();
        self.apps.note_patterns(&root.app, &raws);
        Ok(path)
    }

    async fn text(
        &self,
        id: &ElementId,
        start: u32,
        end: Option<u32>,
    ) -> Result<TextSlice, BackendError> {
        let resolved = self.resolve(id).await?;
        let pid = resolved.process.pid;
        let Named::Element(key) = &resolved.named else {
            return Err(unsupported(id, "reading text"));
        };
        let raw = self.read(id, pid, key).await?;
        if raw.is_password() {
            return Err(unsupported(id, "reading a password field's text"));
        }
        let text = if raw.has(Pattern::Text) {
            let read = self.source().text(pid, key, start, end);
            let read = self.calls.on(pid, Some(key), read).await;
            match read.map_err(self.fail(id, "Text"))? {
                TextRead::Whole(text) => text,
                TextRead::Page {
                    text,
                    start,
                    end,
                    total,
                } => {
                    return Ok(TextSlice {
                        text,
                        start,
                        end,
                        total,
                    });
                }
            }
        } else if raw.has(Pattern::Value) {
            let read = self.calls.on(pid, Some(key), self.source().value(pid, key));
            read.await
                .map_err(self.fail(id, "Value"))?
                .unwrap_or_default()
        } else {
            return Err(unsupported(id, "reading text"));
        };
        Ok(TextSlice::of(&line_feeds(text), start, end))
    }

    async fn table(
        &self,
        id: &ElementId,
        first_row: u32,
        max_rows: u32,
    ) -> Result<TableSlice, BackendError> {
        let resolved = self.resolve(id).await?;
        let pid = resolved.process.pid;
        let Named::Element(key) = &resolved.named else {
            return Err(unsupported(id, "reading a table"));
        };
        let grid = self.source().grid(pid, key);
        let grid = self.calls.on(pid, Some(key), grid).await;
        let grid = grid.map_err(self.fail(id, "Grid"))?;
        let last = grid.row_count.min(first_row.saturating_add(max_rows));
        let mut rows = Vec::new();
        for row in first_row..last {
            let cells = self.grid_row(id, pid, key, row).await?;
            rows.push(cells.into_iter().map(|c| c.name).collect());
        }
        Ok(TableSlice {
            headers: grid.headers,
            rows,
            first_row,
            row_count: grid.row_count,
            column_count: grid.column_count,
        })
    }

    /// Calls the pattern the element's patterns (read afresh) give for `op`. An elevated
    /// app is refused before the call; an Invoke that does not return is `Running`.
    async fn perform(&self, id: &ElementId, op: &NativeOp) -> Result<Performed, BackendError> {
        let resolved = self.resolve(id).await?;
        let pid = resolved.process.pid;
        let Named::Element(key) = &resolved.named else {
            return Err(unsupported(id, "an operation on an app's root"));
        };
        let raw = self.read(id, pid, key).await?;
        let node = mapping::node::node(&raw, &id.app);
        let call = mapping::routes::operation(&node, raw.patterns, op)
            .map_err(|why| unsupported(id, &why))?;
        let performed = self.source().perform(pid, key, &call);
        self.calls
            .on(pid, Some(key), performed)
            .await
            .map_err(self.fail(id, &call.how()))
    }

    async fn caret(&self, id: &ElementId) -> Result<Option<Caret>, BackendError> {
        let resolved = self.resolve(id).await?;
        let pid = resolved.process.pid;
        let Named::Element(key) = &resolved.named else {
            return Ok(None);
        };
        // Finding the caret reads the text before it: never in a password field.
        if self.read(id, pid, key).await?.is_password() {
            return Ok(None);
        }
        let caret = self.calls.on(pid, Some(key), self.source().caret(pid, key));
        caret.await.map_err(self.fail(id, "caret"))
    }

    async fn table_cell_names(
        &self,
        table: &ElementId,
        first_row: u32,
        max_rows: u32,
    ) -> Result<TableCells, BackendError> {
        let resolved = self.resolve(table).await?;
        let pid = resolved.process.pid;
        let Named::Element(key) = &resolved.named else {
            return Err(unsupported(table, "reading a table's cells by row"));
        };
        let grid = self.source().grid(pid, key);
        let grid = self.calls.on(pid, Some(key), grid).await;
        let row_count = grid.map_err(self.fail(table, "Grid"))?.row_count;
        let next_row = first_row.saturating_add(max_rows).min(row_count);
        let mut cells = Vec::new();
        for row in first_row..next_row {
            let read = self.grid_row(table, pid, key, row).await?;
            cells.extend(
                read.iter()
                    .map(|cell| (element_id(&table.app, &cell.key), cell.name.clone())),
            );
        }
        Ok(TableCells {
            row_count,
            next_row,
            cells,
        })
    }

    fn blindness(&self, app: Option<&AppInfo>) -> Blindness {
        let chromium = app.is_some_and(|a| a.toolkit.as_deref() == Some("Chrome"));
        Blindness {
            needs_document: chromium,
            hint: if chromium {
                "Chromium and Electron apps show their content only when started with \
                 --force-renderer-accessibility"
                    .into()
            } else {
                "the app exposes almost no UI Automation tree; check that it is not minimized, \
                 and its accessibility settings"
                    .into()
            },
        }
    }

    async fn toplevel(&self, id: &ElementId) -> Result<ElementId, BackendError> {
        let resolved = self.resolve(id).await?;
        let pid = resolved.process.pid;
        let Named::Element(mut key) = resolved.named else {
            return Err(unsupported(id, "finding its window"));
        };
        // Up the control view until the parent is the desktop's root.
        for _ in 0..256 {
            let parent = self
                .calls
                .on(pid, Some(&key), self.source().parent(pid, &key));
            match parent.await.map_err(self.fail(id, "parent"))? {
                Some(parent) => key = parent.key,
                _ => return Ok(element_id(&id.app, &key)),
            }
        }
        Err(unsupported(id, "finding its window (too deep)"))
    }

    async fn parent(&self, id: &ElementId) -> Result<Option<ElementId>, BackendError> {
        let resolved = self.resolve(id).await?;
        let pid = resolved.process.pid;
        let Named::Element(key) = &resolved.named else {
            return Ok(None);
        };
        let parent = self
            .calls
            .on(pid, Some(key), self.source().parent(pid, key));
        Ok(Some(
            match parent.await.map_err(self.fail(id, "parent"))? {
                Some(parent) => element_id(&id.app, &parent.key),
                // A top-level window: its parent is the app's own root.
                _ => app_root(&resolved.process),
            },
        ))
    }
}

/// `info` with each window's owner, as the system's list says.
fn with_owners(mut info: AppInfo, owners: &[deskpilot_platform::ClientWindow]) -> AppInfo {
    for window in &mut info.windows {
        window.transient_for = window
            .system_id
            .and_then(|id| owners.iter().find(|w| w.id == id))
            .and_then(|w| w.transient_for);
    }
    info
}

fn unsupported(id: &ElementId, what: &str) -> BackendError {
    BackendError::Unsupported {
        id: id.clone(),
        what: what.to_owned(),
    }
}
