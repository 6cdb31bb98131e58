//! `AtspiBackend`: the engine's `Backend` over AT-SPI2.

use std::sync::Arc;

use async_trait::async_trait;
use deskpilot_platform::model::{ElementId, Node, Tree};
use deskpilot_platform::window_system::{window_for, window_within};
use deskpilot_platform::{
    AppInfo, Backend, BackendError, NativeOp, Secrecy, TableSlice, TextSlice, WalkLimits,
    WindowSystem,
};

use crate::app_state::AppStates;
use crate::apps::{AppOrigin, AppRead, list_apps, read_app};
use crate::bus::{ConnectOptions, connect_a11y_bus};
use crate::details;
use crate::error::to_backend;
use crate::geometry::{
    Place, client_windows, fix_window_relative, place_of, toplevel_of, windows_and_popups,
};
use crate::menus::{place_in_menu, place_menus};
use crate::proto::{Proto, ROOT_PATH};
use crate::read::{AppTraits, read_node};
use crate::walk::walk;
use deskpilot_platform::{ClientWindow, Popup};

/// The AT-SPI backend, connected to the accessibility bus of one D-Bus session.
pub struct AtspiBackend {
    pub(crate) proto: Proto,
    a11y_address: String,
    /// What is kept of each app (bus name), dropped whole when it leaves.
    pub(crate) apps: AppStates,
    /// The display server's windows (X11), for window ids and window-relative extents.
    window_system: Option<Arc<dyn WindowSystem>>,
    pub(crate) use_cache: bool,
    pub(crate) use_peers: bool,
    /// How long a kept tree may serve (`ConnectOptions::kept_for`).
    pub(crate) kept_for: std::time::Duration,
    /// Event watches, when quiet apps' caches may be reused.
    pub(crate) freshness: Option<crate::events::Freshness>,
    /// `Cache.GetItems` calls made (a reused answer makes none).
    pub(crate) cache_reads: std::sync::atomic::AtomicU64,
    /// Snapshots answered with a kept tree.
    pub(crate) kept_reuses: std::sync::atomic::AtomicU64,
    /// Snapshots answered with a kept tree brought up to date from the app's events.
    pub(crate) kept_patches: std::sync::atomic::AtomicU64,
}

impl AtspiBackend {
    pub async fn connect(options: ConnectOptions) -> Result<Self, BackendError> {
        let (conn, a11y_address) = connect_a11y_bus(&options).await?;
        let conn_clone = conn.clone();
        let proto = Proto::new(conn, options.call_timeout);
        // Each watched app's events come on a connection of their own (`events.rs`).
        let events_bus = (a11y_address.clone(), options.call_timeout);
        Ok(AtspiBackend {
            freshness: options.reuse_quiet_cache.then(|| {
                crate::events::Freshness::new(conn_clone, events_bus, proto.stalls().clone())
            }),
            proto,
            a11y_address,
            apps: AppStates::default(),
            window_system: None,
            use_cache: options.use_cache,
            use_peers: options.use_peers,
            kept_for: options.kept_for,
            cache_reads: Default::default(),
            kept_reuses: Default::default(),
            kept_patches: Default::default(),
        })
    }

    /// Uses `system` to map windows to window-system ids and to place window-relative extents.
    pub fn with_window_system(mut self, system: Arc<dyn WindowSystem>) -> Self {
        self.window_system = Some(system);
        self
    }

    async fn client_windows(&self) -> Vec<deskpilot_platform::ClientWindow> {
        client_windows(self.window_system.clone()).await
    }

    /// The windows, and the open popups of process `pid` where the window system places
    /// them apart: one listing.
    async fn layout_of(&self, pid: Option<u32>) -> (Vec<ClientWindow>, Vec<Popup>) {
        let (windows, mut popups) = windows_and_popups(self.window_system.clone()).await;
        popups.retain(|p| pid.is_none() || p.pid.is_none() || p.pid == pid);
        (windows, popups)
    }

    /// The address of the accessibility bus in use.
    pub fn a11y_address(&self) -> &str {
        &self.a11y_address
    }

    async fn traits_of(&self, app: &str) -> AppTraits {
        if let Some(traits) = self.apps.read(app, |state| state.traits).flatten() {
            return traits;
        }
        let mut read = read_app(
            &self.proto,
            &ElementId::new(app, ROOT_PATH),
            self.origin(app),
        )
        .await;
        if self.window_system.is_some() {
            let titles: Vec<&str> = read.info.windows.iter().map(|w| w.title.as_str()).collect();
            read.traits = placed_by_windows(read.traits, &self.client_windows().await, &titles);
        }
        self.learn(&read);
        read.traits
    }

    /// Snapshots answered with a kept tree so far (`kept.rs`).
    pub fn kept_reuses(&self) -> u64 {
        self.kept_reuses.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Snapshots answered with a kept tree brought up to date from the app's events so far
    /// (`patch.rs`).
    pub fn kept_patches(&self) -> u64 {
        self.kept_patches.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// `Cache.GetItems` calls made so far (reused answers are not calls).
    pub fn cache_reads(&self) -> u64 {
        self.cache_reads.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Method calls made so far, to every app (the cost unit of a snapshot).
    pub fn calls(&self) -> u64 {
        self.proto.calls()
    }

    /// Calls that timed out so far (each cost a whole call timeout).
    pub fn timeouts(&self) -> u64 {
        self.proto.timeouts()
    }

    /// Calls to `app` (a bus name) that timed out so far, each counted.
    pub fn timeouts_of(&self, app: &str) -> u64 {
        self.proto.timeouts_of(app)
    }

    /// How many `method` calls (`Interface.Method`, e.g. `Action.GetActions`) were sent to the
    /// app with bus name `app` so far.
    pub fn sent_to(&self, app: &str, method: &str) -> u64 {
        self.proto.sent_to(app, method)
    }

    /// Moves a single node's window-relative bounds (GTK 4.8) to screen coordinates.
    async fn place(&self, node: &mut Node, traits: AppTraits) {
        if !traits.window_relative_extents {
            return;
        }
        let (windows, popups) = self.layout_of(traits.pid).await;
        if !popups.is_empty()
            && let Some(shown) = place_in_menu(&self.proto, &node.id, &popups, traits.pid).await
        {
            node.bounds = shown;
            return;
        }
        match self.window_place_in(&windows, &node.id, traits).await {
            Place::Moved(dx, dy) => node.bounds = node.bounds.map(|b| b.offset(dx, dy)),
            Place::Nowhere => node.bounds = None,
            Place::Unknown => {}
        }
    }

    /// `tree` with GTK 4's window-relative bounds moved to the screen (`geometry.rs`), where
    /// its windows are now. Kept trees stay as the toolkit answered: their windows' check and
    /// their patches compare bounds as read.
    async fn on_screen(&self, root: &ElementId, traits: AppTraits, tree: Arc<Tree>) -> Arc<Tree> {
        if !traits.window_relative_extents {
            return tree;
        }
        let root_is_window = tree.root().is_some_and(|r| {
            matches!(
                r.node.role,
                deskpilot_platform::model::Role::Window
                    | deskpilot_platform::model::Role::Dialog
                    | deskpilot_platform::model::Role::Application
            )
        });
        let toplevel = async {
            match root_is_window {
                true => None,
                false => toplevel_of(&self.proto, root, traits).await,
            }
        };
        let (toplevel, (windows, popups)) = tokio::join!(toplevel, self.layout_of(traits.pid));
        let toplevel = toplevel.as_ref().map(|(t, s)| (t.as_str(), *s));
        let mut placed = Arc::unwrap_or_clone(tree);
        fix_window_relative(&mut placed, traits, &windows, toplevel);
        if !popups.is_empty() {
            place_menus(&self.proto, &mut placed, &popups, traits.pid).await;
        }
        Arc::new(placed)
    }

    /// A hit test from an open menu (`root`) at a point in one of the app's popups: asked
    /// relative to the popup, each node placed there (`menus.rs`). `None` elsewhere.
    async fn hit_test_in_popup(
        &self,
        root: &ElementId,
        (x, y): (i32, i32),
        popups: &[Popup],
        traits: AppTraits,
    ) -> Option<Result<Vec<Node>, BackendError>> {
        let popup = popups.iter().find(|p| p.bounds.contains(x, y))?;
        let role = self.proto.role(root).await.ok()?;
        if crate::mapping::map_role(role, false).0 != deskpilot_platform::model::Role::Menu {
            return None;
        }
        let (px, py) = (popup.bounds.x, popup.bounds.y);
        let point = (x - px, y - py);
        let asked = details::Asked::Window;
        let path = details::hit_test(&self.proto, root, point, asked, traits).await;
        Some(match path {
            Ok(mut path) => {
                for node in &mut path {
                    let within = self.proto.window_extents(&node.id).await.ok();
                    node.bounds =
                        within
                            .filter(|(x, _, _, _)| *x != i32::MIN)
                            .map(|(x, y, w, h)| {
                                deskpilot_platform::model::Rect::new(x + px, y + py, w, h)
                            });
                }
                Ok(path)
            }
            Err(e) => Err(e),
        })
    }

    /// Where the top-level window holding `id` puts it, among `windows`.
    async fn window_place_in(
        &self,
        windows: &[ClientWindow],
        id: &ElementId,
        traits: AppTraits,
    ) -> Place {
        let Some((title, size)) = toplevel_of(&self.proto, id, traits).await else {
            return Place::Unknown;
        };
        place_of(windows, traits, &title, size)
    }

    /// The screen origin of the top-level window holding `id` among `windows`, when known.
    async fn window_origin(
        &self,
        windows: &[ClientWindow],
        id: &ElementId,
        traits: AppTraits,
    ) -> Option<(i32, i32)> {
        match self.window_place_in(windows, id, traits).await {
            Place::Moved(dx, dy) => Some((dx, dy)),
            Place::Unknown | Place::Nowhere => None,
        }
    }

    /// An app as read, with its windows mapped to the window system (ids, and GTK 4's
    /// window-relative bounds moved to the screen); its traits remembered.
    fn placed(
        &self,
        mut app: crate::apps::AppRead,
        windows: &[deskpilot_platform::ClientWindow],
    ) -> AppInfo {
        let titles: Vec<&str> = app.info.windows.iter().map(|w| w.title.as_str()).collect();
        app.traits = placed_by_windows(app.traits, windows, &titles);
        self.learn(&app);
        let mut info = app.info;
        for window in &mut info.windows {
            let size = window.bounds.map(|b| (b.width, b.height));
            let client = window_for(windows, info.pid, &window.title, size).or_else(|| {
                // Named otherwise on the display: the one client window inside its frame
                // (where the toolkit places windows on the screen).
                match (info.pid, window.bounds) {
                    (Some(pid), Some(frame)) if !app.traits.window_relative_extents => {
                        window_within(windows, pid, frame)
                    }
                    _ => None,
                }
            });
            window.system_id = client.map(|c| c.id);
            window.transient_for = client.and_then(|c| c.transient_for);
            if app.traits.window_relative_extents
                && let (Some(client), Some(bounds)) = (client, window.bounds)
            {
                // A window known but not placed (foreign toplevels) is nowhere on the screen.
                let (x, y) = client.origin_for(size);
                window.bounds = (!client.bounds.is_empty()).then(|| bounds.offset(x, y));
            }
        }
        info
    }

    /// Remembers what an app that answered said of itself.
    fn learn(&self, read: &AppRead) {
        if !read.info.responding {
            return;
        }
        self.apps.update(&read.info.id.app, |state| {
            state.traits = Some(read.traits);
            if let Some(origin) = &read.origin {
                state.origin = Some(origin.clone());
            }
        });
    }

    pub(crate) fn origin(&self, app: &str) -> Option<AppOrigin> {
        self.apps.read(app, |state| state.origin.clone()).flatten()
    }
}

impl deskpilot_platform::NativeRoutes for AtspiBackend {
    fn native_route(
        &self,
        node: &Node,
        op: &NativeOp,
    ) -> Result<deskpilot_platform::NativeRoute, String> {
        let route = crate::mapping::route(node, op)?;
        // A route the toolkit answers but that would not do what a person's input does.
        let traits = self
            .apps
            .read(&node.id.app, |state| state.traits)
            .flatten()
            .unwrap_or_default();
        match crate::traps::semantic_trap(node, &route.op, traits) {
            Some(why) => Err(format!("{}: {why}", route.how)),
            None => Ok(route),
        }
    }

    /// GTK, Qt, Gecko and LibreOffice fields all take Ctrl shortcuts.
    fn edit_keys(&self) -> deskpilot_platform::EditKeys {
        deskpilot_platform::EditKeys::ctrl()
    }
}

#[path = "backend_events.rs"]
mod backend_events;
#[path = "backend_gone.rs"]
mod backend_gone;

#[async_trait]
impl Backend for AtspiBackend {
    fn events(&self) -> &dyn deskpilot_platform::Events {
        self
    }

    async fn apps(&self) -> Result<Vec<AppInfo>, BackendError> {
        let known = self.apps.origins();
        let (apps, windows) = tokio::join!(list_apps(&self.proto, &known), self.client_windows());
        let apps = apps?;
        let registered: std::collections::HashSet<String> =
            apps.iter().map(|a| a.info.id.app.clone()).collect();
        self.forget_gone(&registered);
        Ok(apps
            .into_iter()
            .map(|app| self.placed(app, &windows))
            .collect())
    }

    async fn app(&self, root: &ElementId) -> Result<AppInfo, BackendError> {
        // Its events are watched from now on (a session starts here): an app learns of the
        // registration late, and a popup shown before its events flow is never known.
        if let Some(freshness) = &self.freshness {
            let _ = freshness.changes(&root.app).await;
        }
        let (read, windows) = tokio::join!(self.app_read(root), self.client_windows());
        if !read.info.responding {
            // Gone, or not answering: say which.
            self.proto
                .pid(&root.app)
                .await
                .map_err(|e| to_backend(e, root, "read", self.proto.timeout()))?;
        }
        Ok(self.placed(read, &windows))
    }

    async fn snapshot(&self, root: &ElementId, limits: &WalkLimits) -> Result<Tree, BackendError> {
        Ok(Arc::unwrap_or_clone(
            self.shared_snapshot(root, limits).await?,
        ))
    }

    async fn shared_snapshot(
        &self,
        root: &ElementId,
        limits: &WalkLimits,
    ) -> Result<Arc<Tree>, BackendError> {
        let traits = self.traits_of(&root.app).await;
        let started = std::time::Instant::now();
        let mut prepared = self.prepare(root, limits, traits).await?;
        if let Some(tree) = self.kept_tree(root, limits, traits, &prepared).await {
            tracing::debug!(nodes = tree.len(), "kept tree reused");
            return Ok(self.on_screen(root, traits, tree).await);
        }
        if prepared.kept {
            // A kept tree that could not be patched: walked afresh, with the app's cache.
            prepared = self.prepare(root, limits, traits).await?;
        }
        tracing::debug!(
            ms = started.elapsed().as_millis() as u64,
            cached = prepared.cache.as_ref().map_or(0, |c| c.identities.len()),
            "prepared"
        );
        let cached = prepared.cache.is_some();
        let mut tree = walk(&self.proto, root, limits, traits, prepared.cache).await?;
        self.keep_actions(&root.app, &tree);
        // A popup its app does not list may close with no event naming it: not kept.
        let grafted = match traits.unlisted_popups {
            true => self.graft_popups(root, limits, traits, &mut tree).await,
            false => false,
        };
        let tree = Arc::new(tree);
        self.apps.update(&root.app, |state| {
            state.parents.note(&tree);
            if prepared.watched && !grafted {
                state.trees.keep(root, limits, &tree, cached);
            }
        });
        Ok(self.on_screen(root, traits, tree).await)
    }

    async fn properties(&self, id: &ElementId, secrecy: Secrecy) -> Result<Node, BackendError> {
        let traits = self.traits_of(&id.app).await;
        let mut node = details::properties(&self.proto, id, traits, secrecy.is_secret()).await?;
        self.place(&mut node, traits).await;
        Ok(node)
    }

    async fn hit_test(&self, root: &ElementId, x: i32, y: i32) -> Result<Vec<Node>, BackendError> {
        let traits = self.traits_of(&root.app).await;
        let origin = if traits.window_relative_extents {
            let (windows, popups) = self.layout_of(traits.pid).await;
            if let Some(path) = self.hit_test_in_popup(root, (x, y), &popups, traits).await {
                return path;
            }
            self.window_origin(&windows, root, traits).await
        } else {
            None
        };
        let (point, asked) = details::asked_at((x, y), traits, origin);
        let mut path = details::hit_test(&self.proto, root, point, asked, traits).await?;
        if let Some((dx, dy)) = origin {
            for node in &mut path {
                node.bounds = node.bounds.map(|b| b.offset(dx, dy));
            }
        }
        Ok(path)
    }

    async fn text(
        &self,
        id: &ElementId,
        start: u32,
        end: Option<u32>,
    ) -> Result<TextSlice, BackendError> {
        // The engine refuses secrets before asking; this read needs no text either way.
        let node = self.node(id, Secrecy::NoText).await?;
        let traits = self.traits_of(&id.app).await;
        details::text(&self.proto, &node, start, end, traits).await
    }

    async fn table(
        &self,
        id: &ElementId,
        first_row: u32,
        max_rows: u32,
    ) -> Result<TableSlice, BackendError> {
        let traits = self.traits_of(&id.app).await;
        let node = self.node(id, Secrecy::NoText).await?;
        details::table(&self.proto, &node, first_row, max_rows, traits).await
    }

    async fn table_cell_names(
        &self,
        table: &ElementId,
        first_row: u32,
        max_rows: u32,
    ) -> Result<deskpilot_platform::model::TableCells, BackendError> {
        details::table_cell_names(&self.proto, table, first_row, max_rows).await
    }

    async fn accessible_ids(&self, ids: &[ElementId]) -> Vec<Option<String>> {
        futures_util::future::join_all(
            ids.iter()
                .map(|id| async { self.proto.accessible_id(id).await.ok() }),
        )
        .await
    }

    /// An app whose events are watched and report every change, or whose silent changes are
    /// checked (Qt), so that its trees are kept (`kept.rs`).
    fn keeps_reads(&self, app: &str) -> bool {
        let complete = self.apps.read(app, |state| state.traits).flatten();
        self.freshness.is_some() && complete.is_some_and(|t| t.keeps_trees())
    }

    fn blindness(&self, app: Option<&AppInfo>) -> deskpilot_platform::Blindness {
        deskpilot_platform::Blindness {
            needs_document: app.is_some_and(crate::apps::is_web_runtime),
            hint: crate::apps::accessibility_hint(app),
        }
    }

    async fn caret(
        &self,
        id: &ElementId,
    ) -> Result<Option<deskpilot_platform::Caret>, BackendError> {
        let (offset, selection) =
            tokio::join!(self.proto.caret_offset(id), self.proto.selection(id));
        let offset = offset.map_err(|e| to_backend(e, id, "CaretOffset", self.proto.timeout()))?;
        Ok(Some(deskpilot_platform::Caret {
            offset: offset.max(0) as u32,
            selection: selection
                .ok()
                .flatten()
                .map(|(s, e)| (s.max(0) as u32, e.max(0) as u32)),
        }))
    }

    async fn perform(
        &self,
        id: &ElementId,
        op: &NativeOp,
    ) -> Result<deskpilot_platform::Performed, BackendError> {
        match crate::act::perform(&self.proto, id, op).await {
            Ok(()) => Ok(deskpilot_platform::Performed::Answered),
            // A handler that runs a modal loop (GTK 3's gtk_dialog_run behind a menu item)
            // answers the call only once the dialog closes. When the app still answers
            // other calls, the action is running: the engine reads back what it did.
            Err(BackendError::AppNotResponding { .. })
                if matches!(op, NativeOp::Named(_) | NativeOp::DefaultAction)
                    && self
                        .app(&ElementId::new(id.app.clone(), crate::proto::ROOT_PATH))
                        .await
                        .is_ok() =>
            {
                Ok(deskpilot_platform::Performed::Running {
                    why: "the app runs it in a modal loop".into(),
                })
            }
            Err(e) => Err(e),
        }
    }

    async fn app_running(&self, app: &ElementId) -> Option<bool> {
        self.proto.on_bus(&app.app).await
    }

    async fn toplevel(&self, id: &ElementId) -> Result<ElementId, BackendError> {
        crate::act::toplevel(&self.proto, id).await
    }

    async fn parent(&self, id: &ElementId) -> Result<Option<ElementId>, BackendError> {
        self.proto
            .parent(id)
            .await
            .map_err(|e| to_backend(e, id, "Parent", self.proto.timeout()))
    }

    async fn node(&self, id: &ElementId, secrecy: Secrecy) -> Result<Node, BackendError> {
        let traits = self.traits_of(&id.app).await;
        let mut node = read_node(&self.proto, id, traits, secrecy.is_secret())
            .await
            .map_err(|e| match to_backend(e, id, "read", self.proto.timeout()) {
                // Every element has the Accessible interface: an app that says it has not
                // (GTK 4 for an object it dropped) means the element is gone.
                BackendError::Unsupported { id, .. } => BackendError::Defunct { id },
                other => other,
            })?;
        self.place(&mut node, traits).await;
        Ok(node)
    }
}

/// An app's traits with what its windows say: a native Wayland app's windows do not know
/// where they are, so its bounds are relative to them (as GTK 4's always are). A window of
/// no known pid (foreign toplevels) is the app's when it bears one of `titles`.
fn placed_by_windows(
    mut traits: AppTraits,
    windows: &[deskpilot_platform::ClientWindow],
    titles: &[&str],
) -> AppTraits {
    let ours = |w: &deskpilot_platform::ClientWindow| match w.pid {
        Some(pid) => traits.pid == Some(pid),
        None => titles.contains(&w.title.as_str()),
    };
    if windows.iter().any(|w| ours(w) && !w.knows_position) {
        traits.window_relative_extents = true;
    }
    traits
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskpilot_platform::model::Rect;
    use deskpilot_platform::{ClientWindow, WindowId};

    fn window(pid: u32, knows_position: bool) -> ClientWindow {
        ClientWindow {
            id: WindowId(u64::from(pid)),
            pid: Some(pid),
            title: "w".into(),
            bounds: Rect::new(2, 25, 100, 100),
            process: None,
            transient_for: None,
            knows_position,
            frame: None,
        }
    }

    #[test]
    fn an_app_whose_windows_do_not_know_their_place_gives_window_relative_bounds() {
        let traits = |pid| AppTraits {
            pid: Some(pid),
            ..crate::apps::traits_for(Some("gtk"), Some("3.24.38"))
        };
        let windows = [window(7, false), window(8, true)];
        let relative = |pid, titles: &[&str]| {
            placed_by_windows(traits(pid), &windows, titles).window_relative_extents
        };
        assert!(relative(7, &[]));
        assert!(!relative(8, &[]));
        assert!(!relative(9, &[]));
        // A foreign toplevel has no pid: it is the app's by its title.
        let mut nameless = window(0, false);
        nameless.pid = None;
        let windows = [nameless];
        assert!(placed_by_windows(traits(9), &windows, &["w"]).window_relative_extents);
        assert!(!placed_by_windows(traits(9), &windows, &["other"]).window_relative_extents);
    }
}
