//! Listing applications and their top-level windows: every app in parallel, every call bounded.

use deskpilot_core::model::{ElementId, Rect, Role};
use deskpilot_core::{AppInfo, BackendError, WindowInfo};
use futures_util::future::join_all;

use crate::mapping::{StateReporting, map_interfaces, map_role, map_states};
use crate::proto::{Proto, prop_string};
use crate::read::AppTraits;

/// What the registry knows of one app, plus what it tells about itself.
pub struct AppRead {
    pub info: AppInfo,
    pub traits: AppTraits,
}

pub async fn list_apps(proto: &Proto) -> Result<Vec<AppRead>, BackendError> {
    let roots = proto
        .registry_children()
        .await
        .map_err(|e| BackendError::Bus(format!("registry GetChildren: {e}")))?;
    Ok(join_all(roots.iter().map(|root| read_app(proto, root))).await)
}

/// Reads one app; an app that does not answer is still listed, marked not responding.
pub async fn read_app(proto: &Proto, root: &ElementId) -> AppRead {
    let (pid, props, toolkit, toolkit_version, windows) = tokio::join!(
        proto.pid(&root.app),
        proto.accessible_props(root),
        proto.application_prop(root, "ToolkitName"),
        proto.application_prop(root, "Version"),
        proto.children(root),
    );
    let responding = props.is_ok() && windows.is_ok();
    let toolkit = toolkit.ok().filter(|s| !s.is_empty());
    let toolkit_version = toolkit_version.ok().filter(|s| !s.is_empty());
    let mut traits = traits_for(toolkit.as_deref(), toolkit_version.as_deref());
    traits.pid = pid.as_ref().ok().copied();
    let windows = match windows {
        Ok(ids) => join_all(ids.iter().map(|id| read_window(proto, id, traits)))
            .await
            .into_iter()
            .flatten()
            .collect(),
        Err(_) => Vec::new(),
    };
    AppRead {
        info: AppInfo {
            id: root.clone(),
            name: props
                .as_ref()
                .map(|p| prop_string(p, "Name"))
                .unwrap_or_default(),
            pid: pid.ok(),
            toolkit,
            toolkit_version,
            windows,
            responding,
        },
        traits,
    }
}

/// How an app's toolkit reports states.
pub fn traits_for(toolkit: Option<&str>, version: Option<&str>) -> AppTraits {
    let gtk4 = toolkit.is_some_and(|t| t.eq_ignore_ascii_case("gtk"))
        && version.is_some_and(|v| v.starts_with("4."));
    AppTraits {
        reporting: if gtk4 {
            StateReporting::Gtk4
        } else {
            StateReporting::Complete
        },
        window_relative_extents: gtk4,
        pid: None,
    }
}

async fn read_window(proto: &Proto, id: &ElementId, traits: AppTraits) -> Option<WindowInfo> {
    let (role, state, props, interfaces) = tokio::join!(
        proto.role(id),
        proto.state(id),
        proto.accessible_props(id),
        proto.interfaces(id),
    );
    let states = map_states(state.ok()?, traits.reporting);
    let (role, _) = map_role(role.ok()?, false);
    let interfaces = map_interfaces(&interfaces.ok()?);
    let bounds = if interfaces.contains(deskpilot_core::model::Interface::Component) {
        proto
            .extents(id)
            .await
            .ok()
            .map(|(x, y, w, h)| Rect::new(x, y, w, h))
    } else {
        None
    };
    Some(WindowInfo {
        id: id.clone(),
        role: if role == Role::Generic {
            Role::Window
        } else {
            role
        },
        title: prop_string(&props.ok()?, "Name"),
        bounds,
        states,
        x11_window: None,
    })
}
