//! Listing applications and their top-level windows: every app in parallel, every call bounded.

use std::collections::HashMap;

use deskpilot_platform::model::{ElementId, Rect, Role};
use deskpilot_platform::{AppInfo, BackendError, WindowInfo};
use futures_util::future::join_all;

use crate::error::{Failure, classify};
use crate::mapping::{StateReporting, map_interfaces, map_role, map_states};
use crate::proto::ActionList;
use crate::proto::{Proto, prop_string};
use crate::read::{AppTraits, SilentScrolls};

/// What the registry knows of one app, plus what it tells about itself.
#[derive(Debug, Clone)]
pub struct AppRead {
    pub info: AppInfo,
    pub traits: AppTraits,
    /// What will not change for its bus name, when it answered.
    pub origin: Option<AppOrigin>,
}

/// What one bus name never changes (a name is never given to another connection): its
/// process, its toolkit and the toolkit's version. Known, they are not asked again.
#[derive(Debug, Clone, Default)]
pub struct AppOrigin {
    pub pid: Option<u32>,
    pub toolkit: Option<String>,
    pub version: Option<String>,
    /// Its name as last read: an app busy for seconds (GTK 3 building one slow answer) is
    /// still listed, and found by name, while it does not answer. Test
    /// `a_box_of_9300_labels_is_read_in_part_and_the_app_stays_free`.
    pub name: Option<String>,
}

/// Every registered app; `known` gives the origins already learnt, by bus name.
pub async fn list_apps(
    proto: &Proto,
    known: &HashMap<String, AppOrigin>,
) -> Result<Vec<AppRead>, BackendError> {
    let roots = proto
        .registry_children()
        .await
        .map_err(|e| BackendError::System(format!("registry GetChildren: {e}")))?;
    Ok(join_all(
        roots
            .iter()
            .map(|root| read_app(proto, root, known.get(&root.app).cloned())),
    )
    .await)
}

/// Reads one app; an app that does not answer is still listed, marked not responding. The
/// toolkit is asked first, alone (its windows instead once it is known): how the rest may be
/// asked depends on it, and an app that does not answer that one call (frozen, or stopped) is
/// asked nothing more in this listing, so that it costs one call timeout, not two rounds of
/// them.
pub async fn read_app(proto: &Proto, root: &ElementId, known: Option<AppOrigin>) -> AppRead {
    // Known, the origin is not asked again, and the app's windows are its first call.
    let (origin, children) = match known {
        Some(origin) => {
            let children = proto.children(root).await;
            if matches!(&children, Err(e) if classify(e) == Failure::Timeout) {
                return not_responding(root, origin);
            }
            (origin, children)
        }
        None => {
            let (pid, toolkit) = tokio::join!(
                proto.pid(&root.app),
                proto.application_prop(root, "ToolkitName"),
            );
            if matches!(&toolkit, Err(e) if classify(e) == Failure::Timeout) {
                let origin = AppOrigin {
                    pid: pid.ok(),
                    ..AppOrigin::default()
                };
                return not_responding(root, origin);
            }
            let toolkit = toolkit.ok().filter(|s| !s.is_empty());
            let version = async {
                match &toolkit {
                    Some(_) => proto
                        .application_prop(root, "Version")
                        .await
                        .ok()
                        .filter(|s| !s.is_empty()),
                    None => None,
                }
            };
            let (version, children) = tokio::join!(version, proto.children(root));
            let origin = AppOrigin {
                pid: pid.ok(),
                toolkit,
                version,
                name: None,
            };
            (origin, children)
        }
    };
    let mut traits = traits_for(origin.toolkit.as_deref(), origin.version.as_deref());
    traits.pid = origin.pid;
    let windows = async {
        match &children {
            Ok(ids) => join_all(ids.iter().map(|id| read_window(proto, id, traits)))
                .await
                .into_iter()
                .flatten()
                .collect(),
            Err(_) => Vec::new(),
        }
    };
    let (props, windows) = tokio::join!(
        proto.accessible_props(root, traits.bulk_properties),
        windows
    );
    let responding = props.is_ok() && children.is_ok();
    let name = match &props {
        Ok(props) => prop_string(props, "Name"),
        Err(_) => origin.name.clone().unwrap_or_default(),
    };
    let origin = AppOrigin {
        name: Some(name.clone()).filter(|n| !n.is_empty()),
        ..origin
    };
    AppRead {
        info: AppInfo {
            id: root.clone(),
            name,
            pid: origin.pid,
            toolkit: origin.toolkit.clone(),
            toolkit_version: origin.version.clone(),
            windows,
            responding,
        },
        traits,
        origin: responding.then_some(origin),
    }
}

/// An app that did not answer its first call: listed by what was known of it.
fn not_responding(root: &ElementId, origin: AppOrigin) -> AppRead {
    let mut traits = traits_for(origin.toolkit.as_deref(), None);
    traits.pid = origin.pid;
    AppRead {
        info: AppInfo {
            id: root.clone(),
            name: origin.name.unwrap_or_default(),
            pid: origin.pid,
            toolkit: origin.toolkit,
            toolkit_version: None,
            windows: Vec::new(),
            responding: false,
        },
        traits,
        origin: None,
    }
}

/// Whether a GTK 4 version ("4.8.3") comes before 4.10.
fn before_4_10(version: &str) -> bool {
    let minor = version
        .split('.')
        .nth(1)
        .and_then(|m| m.parse::<u32>().ok());
    minor.is_some_and(|m| m < 10)
}

/// What an app's toolkit (as it names itself) does differently.
pub fn traits_for(toolkit: Option<&str>, version: Option<&str>) -> AppTraits {
    let toolkit = toolkit.unwrap_or("").to_ascii_lowercase();
    let gtk4 = toolkit == "gtk" && version.is_some_and(|v| v.starts_with("4."));
    let web = matches!(toolkit.as_str(), "gecko" | "chromium");
    // Bridges built on ATK (atk-bridge: GTK 3, LibreOffice, Firefox, Chromium) and GTK 4's own
    // answer `GetAll`; Qt's crashes on it, and an unknown bridge is not trusted with it.
    let bulk_properties = matches!(
        toolkit.as_str(),
        "gtk" | "gail" | "gecko" | "libreoffice" | "vcl" | "chromium" | "electron"
    );
    AppTraits {
        reporting: if gtk4 {
            StateReporting::Gtk4
        } else {
            StateReporting::Complete
        },
        window_relative_extents: gtk4,
        pid: None,
        class_names_as_names: gtk4,
        bulk_properties,
        // GTK 4 measured by `kept.rs` (Linux tests) on 15 changes: all announced but a scroll;
        // Gecko and Chromium by `kept_web.rs` on 17: all but a layout shift and a scroll.
        complete_events: toolkit == "gtk" && version.is_some_and(|v| v.starts_with("3."))
            || gtk4
            || web,
        silent_scrolls: match (gtk4, toolkit.as_str()) {
            (true, _) => SilentScrolls::PaneContent,
            (_, "qt") => SilentScrolls::OverflowingContent,
            _ if web => SilentScrolls::Layout,
            _ => SilentScrolls::Announced,
        },
        silent_rebuilds: toolkit == "qt",
        silent_changes: toolkit == "qt",
        silent_descendants: toolkit == "qt",
        action_list: if matches!(
            toolkit.as_str(),
            "gtk" | "gail" | "libreoffice" | "vcl" | "chromium" | "electron" | "qt"
        ) {
            ActionList::Bulk
        } else {
            ActionList::ByIndex
        },
        marks_surrogates: toolkit == "gecko",
        // GTK 3 apps, and LibreOffice, whose GTK 3 plugin shows native GTK menus.
        menu_actions_block: (toolkit == "gtk" && !gtk4)
            || matches!(toolkit.as_str(), "libreoffice" | "vcl"),
        inert_editable_text: toolkit == "gecko",
        silent_option_selection: toolkit == "gecko",
        doubled_names: gtk4 && version.is_some_and(before_4_10),
        unlisted_popups: toolkit == "qt",
        open_menus_stay_open: toolkit == "qt",
    }
}

async fn read_window(proto: &Proto, id: &ElementId, traits: AppTraits) -> Option<WindowInfo> {
    let (role, state, props, interfaces) = tokio::join!(
        proto.role(id),
        proto.state(id),
        proto.accessible_props(id, traits.bulk_properties),
        proto.interfaces(id),
    );
    let states = map_states(state.ok()?, traits.reporting);
    let (role, _) = map_role(role.ok()?, false);
    let interfaces = map_interfaces(&interfaces.ok()?);
    let bounds = if interfaces.contains(deskpilot_platform::model::Capability::Bounds) {
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
        system_id: None,
        transient_for: None,
    })
}

/// Chromium and Electron apps: their page content shows only with a switch (Debian's
/// Chromium 156 turns it on for any AT-SPI client that reads it).
pub fn is_web_runtime(app: &AppInfo) -> bool {
    let name = app.name.to_lowercase();
    let toolkit = app.toolkit.as_deref().unwrap_or("").to_lowercase();
    ["chrom", "electron"]
        .iter()
        .any(|w| name.contains(w) || toolkit.contains(w))
}

/// How to switch an app's accessibility on, by what it looks like; for `None`, a process
/// with windows but no app on the accessibility bus.
pub fn accessibility_hint(app: Option<&AppInfo>) -> String {
    let Some(app) = app else {
        return "not on the accessibility bus: restart it with GNOME_ACCESSIBILITY=1 (GTK, Chromium, Electron, Firefox) or QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 (Qt), as launch_app does".into();
    };
    let toolkit = app.toolkit.as_deref().unwrap_or("").to_lowercase();
    if is_web_runtime(app) {
        "restart it with --force-renderer-accessibility (Chromium and Electron apps expose no page content without it)".into()
    } else if toolkit == "qt" {
        "start it with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 and the accessibility bus running".into()
    } else {
        "the app exposes almost no accessibility tree; check its accessibility settings or restart it with GTK_A11Y/QT/Chromium accessibility switches".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gecko_is_never_asked_for_its_action_list() {
        assert_eq!(
            traits_for(Some("Gecko"), Some("153.8.0")).action_list,
            ActionList::ByIndex
        );
        assert_eq!(traits_for(None, None).action_list, ActionList::ByIndex);
        for toolkit in ["GTK", "Qt", "LibreOffice", "Chromium"] {
            assert_eq!(
                traits_for(Some(toolkit), None).action_list,
                ActionList::Bulk,
                "{toolkit}"
            );
        }
    }
}
