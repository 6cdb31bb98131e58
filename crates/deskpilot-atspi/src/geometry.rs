//! Screen coordinates where the toolkit gives window-relative ones (GTK 4.8): the window's
//! origin comes from the window system, matched by pid, title and size.

use deskpilot_platform::model::{ElementId, Role, Tree};
use deskpilot_platform::window_system::window_for;
use deskpilot_platform::{ClientWindow, Popup, WindowSystem};

use crate::proto::{Proto, ROOT_PATH, prop_string};
use crate::read::AppTraits;

/// Where a window-relative subtree goes on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Its window was not found: the bounds stay as the toolkit gave them.
    Unknown,
    /// Moved by its window's origin.
    Moved(i32, i32),
    /// Its window is known, but not where it is (a Wayland compositor that tells no
    /// positions): the subtree has no bounds on the screen, never a guess.
    Nowhere,
}

/// Where the window named `title` (of `size`, when several share the title) puts its subtree.
pub fn place_of(
    windows: &[ClientWindow],
    traits: AppTraits,
    title: &str,
    size: Option<(i32, i32)>,
) -> Place {
    match window_for(windows, traits.pid, title, size) {
        Some(w) if w.bounds.is_empty() => Place::Nowhere,
        Some(w) => {
            let (x, y) = w.origin_for(size);
            Place::Moved(x, y)
        }
        None => Place::Unknown,
    }
}

/// Shifts the bounds of every window's subtree by that window's screen origin. `root_window`
/// is the top-level window above the tree's root when the root is not itself a window.
pub fn fix_window_relative(
    tree: &mut Tree,
    traits: AppTraits,
    windows: &[ClientWindow],
    root_window: Option<(&str, Option<(i32, i32)>)>,
) {
    if !traits.window_relative_extents || tree.is_empty() {
        return;
    }
    let mut place = vec![Place::Unknown; tree.len()];
    for index in 0..tree.len() {
        let tn = &tree.nodes[index];
        let is_window = matches!(tn.node.role, Role::Window | Role::Dialog)
            && tn
                .parent
                .is_none_or(|p| tree.nodes[p].node.role == Role::Application);
        place[index] = if is_window {
            let size = tn.node.bounds.map(|b| (b.width, b.height));
            place_of(windows, traits, &tn.node.name, size)
        } else if let Some(parent) = tn.parent {
            place[parent]
        } else {
            root_window.map_or(Place::Unknown, |(title, size)| {
                place_of(windows, traits, title, size)
            })
        };
        let bounds = &mut tree.nodes[index].node.bounds;
        match place[index] {
            Place::Moved(dx, dy) => *bounds = bounds.map(|b| b.offset(dx, dy)),
            Place::Nowhere => *bounds = None,
            Place::Unknown => {}
        }
    }
}

/// The title and size of the top-level window that holds `id` (climbing `Parent`), for trees
/// whose root is inside a window.
pub async fn toplevel_of(
    proto: &Proto,
    id: &ElementId,
    traits: AppTraits,
) -> Option<(String, Option<(i32, i32)>)> {
    let mut current = id.clone();
    for _ in 0..64 {
        let props = proto
            .accessible_props(&current, traits.bulk_properties)
            .await
            .ok()?;
        let parent = props
            .get("Parent")
            .and_then(|v| v.try_clone().ok())
            .and_then(|v| <(String, zbus::zvariant::OwnedObjectPath)>::try_from(v).ok())?;
        if parent.1.as_str() == ROOT_PATH {
            let size = proto
                .extents(&current)
                .await
                .ok()
                .map(|(_, _, w, h)| (w, h));
            return Some((prop_string(&props, "Name"), size));
        }
        current = ElementId::new(parent.0, parent.1.as_str());
    }
    None
}

/// How long the window system may take to list its windows.
const WINDOW_LIST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// The window system's windows, or none when there is none, it fails, or it does not answer
/// within `WINDOW_LIST_TIMEOUT` (logged, never fatal: window ids and GTK 4 positions are then
/// unknown).
pub async fn client_windows(system: Option<std::sync::Arc<dyn WindowSystem>>) -> Vec<ClientWindow> {
    windows_and_popups(system).await.0
}

/// The windows and the open popups, from one listing (as `client_windows`: none on failure).
pub async fn windows_and_popups(
    system: Option<std::sync::Arc<dyn WindowSystem>>,
) -> (Vec<ClientWindow>, Vec<Popup>) {
    let Some(system) = system else {
        return (Vec::new(), Vec::new());
    };
    match tokio::time::timeout(WINDOW_LIST_TIMEOUT, system.windows_and_popups()).await {
        Ok(Ok(listed)) => listed,
        Ok(Err(e)) => {
            tracing::warn!("window system: {e}");
            (Vec::new(), Vec::new())
        }
        Err(_) => {
            tracing::warn!("window system: no answer within {WINDOW_LIST_TIMEOUT:?}");
            (Vec::new(), Vec::new())
        }
    }
}
