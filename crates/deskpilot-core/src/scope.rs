//! What a session covers. A session on an app covers every window of the app; a session on a
//! window covers that window and the windows over it: those transient for it (a dialog, a file
//! chooser), modal windows and dialogs whose owner is unknown, and popups the window manager
//! does not manage (menus in their own windows). And which of them is active now.

use crate::app::{AppInfo, WindowInfo, WindowPick};
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::model::{ElementId, Node, Realization, Role, State, Tree, TreeNode};
use crate::platform::{BackendError, Secrecy, WalkLimits};

/// The windows a session covers now.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    pub app: AppInfo,
    /// In the app's order; for a window session, its own window first.
    pub windows: Vec<WindowInfo>,
    /// The one that has the keyboard, when the window system or the app can tell.
    pub active: Option<usize>,
    /// The session covers the whole app.
    pub app_wide: bool,
}

impl Scope {
    /// The window to show or send keys to: the active one, else the one last seen active,
    /// else the session's own window, else the first that is not minimized.
    pub fn main_window(&self, last_active: Option<&ElementId>) -> Option<&WindowInfo> {
        self.active
            .map(|i| &self.windows[i])
            .or_else(|| last_active.and_then(|id| self.windows.iter().find(|w| &w.id == id)))
            .or_else(|| self.windows.iter().find(|w| w.is_minimized() != Some(true)))
            .or(self.windows.first())
    }

    /// The window of the scope a title names (exact, else contained, case-insensitive).
    pub fn titled(&self, title: &str) -> Option<&WindowInfo> {
        let lower = title.to_lowercase();
        self.windows.iter().find(|w| w.title == title).or_else(|| {
            self.windows
                .iter()
                .find(|w| w.title.to_lowercase().contains(&lower))
        })
    }
}

/// The windows over `root` among `windows` (root first): transient for it (following chains
/// of owners), or dialogs, alerts, file choosers and modal windows whose owner is unknown, or
/// windows the window manager does not manage (no window-system id: popup menus).
pub(crate) fn windows_over(windows: &[WindowInfo], root: &ElementId) -> Vec<WindowInfo> {
    let Some(main) = windows.iter().find(|w| &w.id == root) else {
        return Vec::new();
    };
    let mut owners: Vec<crate::app::WindowId> = main.system_id.into_iter().collect();
    let mut chosen: Vec<WindowInfo> = vec![main.clone()];
    loop {
        let before = chosen.len();
        for w in windows {
            if chosen.iter().any(|c| c.id == w.id) {
                continue;
            }
            let owned = w.transient_for.is_some_and(|o| owners.contains(&o));
            let unowned_dialog = w.transient_for.is_none()
                && (matches!(w.role, Role::Dialog | Role::Alert | Role::FileChooser)
                    || w.states.is(State::Modal));
            let unmanaged = w.system_id.is_none() && w.states.get(State::Showing) != Some(false);
            if owned || unowned_dialog || (unmanaged && main.system_id.is_some()) {
                owners.extend(w.system_id);
                chosen.push(w.clone());
            }
        }
        if chosen.len() == before {
            break;
        }
    }
    chosen
}

/// A window listed in one line: what its window information says, its content unread.
fn folded(window: &WindowInfo) -> Tree {
    let mut node = Node::new(window.id.clone(), window.role);
    node.name = window.title.clone();
    node.states = window.states;
    node.bounds = window.bounds;
    Tree {
        nodes: vec![TreeNode {
            node,
            parent: None,
            children: Vec::new(),
            depth: 0,
            realization: Realization::Folded,
        }],
        pending: Vec::new(),
    }
}

impl Engine {
    /// The windows the session covers now, and which is active. The app gone answers
    /// `app_gone` with a hint to connect again.
    pub(crate) async fn scope(&self, session: &str) -> Result<Scope> {
        let info = self.session_info(session)?;
        // The active window is asked while the app is read.
        let active_window = async {
            match self.wiring().window_system() {
                Ok(windows) => windows.active_window().await.ok().flatten(),
                Err(_) => None,
            }
        };
        let (app, active_id) = tokio::join!(self.backend().app(&info.app.id), active_window);
        let app = app.map_err(|e| {
            let gone = matches!(
                e,
                BackendError::AppGone { .. } | BackendError::Defunct { .. }
            );
            let mut error = Error::from(e);
            if gone {
                error = Error::new(
                    Code::AppGone,
                    format!("{} of session {session} has quit", named(&info.app)),
                    "`list_apps`, then `connect` again (a restarted app is a new one)",
                );
            }
            error
        })?;
        // An app that did not answer has no windows anyone knows of: never shown as an app
        // without windows (GTK 3 busy with another client's slow answer, on a loaded machine).
        if !app.responding {
            return Err(Error::new(
                Code::AppNotResponding,
                format!(
                    "{} of session {session} did not answer when its windows were asked",
                    named(&info.app)
                ),
                "the app may be busy (a long answer takes seconds) or frozen; retry shortly",
            ));
        }
        let app_wide = info.root == info.app.id;
        let windows = if app_wide {
            app.windows.clone()
        } else {
            windows_over(&app.windows, &info.root)
        };
        let active = active_id
            .and_then(|window_id| windows.iter().position(|w| w.system_id == Some(window_id)))
            .or_else(|| windows.iter().position(|w| w.is_active() == Some(true)));
        if let Some(index) = active {
            self.sessions().remember_active(session, &windows[index].id);
        }
        Ok(Scope {
            app,
            windows,
            active,
            app_wide,
        })
    }

    /// An app session's snapshot: the application, its main window (or the one `pick` names)
    /// in full, every other window in one line.
    pub(crate) async fn app_tree(
        &self,
        session: &str,
        pick: Option<&WindowPick>,
        limits: &WalkLimits,
    ) -> Result<Tree> {
        let scope = self.scope(session).await?;
        let shown = match pick {
            None => scope
                .main_window(self.sessions().last_active(session).as_ref())
                .map(|w| w.id.clone()),
            Some(WindowPick::Title(title)) => Some(
                scope
                    .titled(title)
                    .ok_or_else(|| no_window(&format!("titled {title:?}"), &scope))?
                    .id
                    .clone(),
            ),
            Some(WindowPick::Ref(reference)) => {
                let resolved = self.handle(session).resolve_ref(reference).await?;
                if !scope.windows.iter().any(|w| w.id == resolved.node.id) {
                    return Err(no_window(reference, &scope));
                }
                Some(resolved.node.id)
            }
        };
        let mut tree = Tree {
            nodes: vec![TreeNode {
                node: self.backend().node(&scope.app.id, Secrecy::Plain).await?,
                parent: None,
                children: Vec::new(),
                depth: 0,
                realization: Realization::Complete,
            }],
            pending: Vec::new(),
        };
        for window in &scope.windows {
            let part = if Some(&window.id) == shown.as_ref() {
                let budget = limits.max_nodes.saturating_sub(tree.len()).max(1);
                let window_limits = WalkLimits {
                    max_nodes: budget,
                    ..limits.clone()
                };
                match self.backend().snapshot(&window.id, &window_limits).await {
                    Ok(part) => part,
                    // Closed since it was listed.
                    Err(BackendError::Defunct { .. }) => continue,
                    Err(e) => return Err(e.into()),
                }
            } else {
                folded(window)
            };
            tree.graft(0, part);
        }
        tree.nodes[0].node.child_count = tree.nodes[0].children.len() as u32;
        Ok(tree)
    }

    /// The window keys without a target go to: the scope's active window, else the one last
    /// seen active, else the session's own (the ladder brings it to the front and the report
    /// says the foreground changed).
    pub(crate) async fn keys_window(&self, session: &str) -> Result<ElementId> {
        let scope = self.scope(session).await?;
        let last = self.sessions().last_active(session);
        match scope.main_window(last.as_ref()) {
            Some(window) => Ok(window.id.clone()),
            None => Err(no_window("to send keys to", &scope)),
        }
    }
}

/// An app as a message names it: its name, quoted, and its pid.
fn named(app: &AppInfo) -> String {
    let pid = app.pid.map_or("?".into(), |p| p.to_string());
    format!("{} (pid {pid})", crate::escape::quoted(&app.name, 80))
}

fn no_window(what: &str, scope: &Scope) -> Error {
    Error::new(
        Code::NotFound,
        format!(
            "no window {what} in {}; its windows: {}",
            crate::escape::quoted(&scope.app.name, 80),
            if scope.windows.is_empty() {
                "none".to_owned()
            } else {
                scope
                    .windows
                    .iter()
                    .map(|w| format!("{} {}", w.role, crate::escape::quoted(&w.title, 100)))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        "take a `snapshot`: it lists the session's windows with refs",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::StateSet;

    fn window(n: u64, role: Role, owner: Option<u64>) -> WindowInfo {
        WindowInfo {
            id: ElementId::new(":1.1", format!("/w{n}")),
            role,
            title: format!("w{n}"),
            bounds: None,
            states: StateSet::default(),
            system_id: Some(crate::app::WindowId(n)),
            transient_for: owner.map(crate::app::WindowId),
        }
    }

    #[test]
    fn a_window_covers_what_is_over_it_not_its_siblings() {
        let windows = vec![
            window(1, Role::Window, None),
            window(2, Role::Window, None),
            window(3, Role::FileChooser, Some(1)),
            window(4, Role::Dialog, Some(3)),
            window(5, Role::Dialog, Some(2)),
            window(6, Role::Alert, None),
        ];
        let over: Vec<String> = windows_over(&windows, &windows[0].id)
            .into_iter()
            .map(|w| w.title)
            .collect();
        assert_eq!(over, ["w1", "w3", "w4", "w6"]);
    }
}
