//! Screen coordinates where the toolkit gives window-relative ones (GTK 4.8): the window's
//! origin comes from the window system, matched by pid, title and size.

use deskpilot_platform::model::{ElementId, Role, Tree};
use deskpilot_platform::window_system::window_for;
use deskpilot_platform::{ClientWindow, WindowSystem};

use crate::proto::{Proto, ROOT_PATH, prop_string};
use crate::read::AppTraits;

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
    let origin_of = |title: &str, size: Option<(i32, i32)>| {
        window_for(windows, traits.pid, title, size).map(|w| (w.bounds.x, w.bounds.y))
    };
    let mut offset: Vec<Option<(i32, i32)>> = vec![None; tree.len()];
    for index in 0..tree.len() {
        let tn = &tree.nodes[index];
        let is_window = matches!(tn.node.role, Role::Window | Role::Dialog)
            && tn
                .parent
                .is_none_or(|p| tree.nodes[p].node.role == Role::Application);
        offset[index] = if is_window {
            let size = tn.node.bounds.map(|b| (b.width, b.height));
            origin_of(&tn.node.name, size)
        } else if let Some(parent) = tn.parent {
            offset[parent]
        } else {
            root_window.and_then(|(title, size)| origin_of(title, size))
        };
        if let (Some((dx, dy)), Some(bounds)) = (offset[index], tree.nodes[index].node.bounds) {
            tree.nodes[index].node.bounds = Some(bounds.offset(dx, dy));
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
    let Some(system) = system else {
        return Vec::new();
    };
    match tokio::time::timeout(WINDOW_LIST_TIMEOUT, system.client_windows()).await {
        Ok(Ok(windows)) => windows,
        Ok(Err(e)) => {
            tracing::warn!("window system: {e}");
            Vec::new()
        }
        Err(_) => {
            tracing::warn!("window system: no answer within {WINDOW_LIST_TIMEOUT:?}");
            Vec::new()
        }
    }
}
