//! What a session covers. A session on an app covers every window of the app; a session on a
//! window covers that window and the windows over it: those transient for it (a dialog, a file
//! chooser), modal windows and dialogs whose owner is unknown, and popups the window manager
//! does not manage (menus in their own windows). And which of them is active now.

use crate::app::{AppInfo, WindowInfo};
use crate::error::{Code, Error};
use crate::model::{ElementId, Node, Realization, Role, State, Tree, TreeNode};

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
pub(crate) fn folded(window: &WindowInfo) -> Tree {
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

/// An app as a message names it: its name, quoted, and its pid.
pub(crate) fn named(app: &AppInfo) -> String {
    let pid = app.pid.map_or("?".into(), |p| p.to_string());
    format!("{} (pid {pid})", crate::escape::quoted(&app.name, 80))
}

pub(crate) fn no_window(what: &str, scope: &Scope) -> Error {
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
