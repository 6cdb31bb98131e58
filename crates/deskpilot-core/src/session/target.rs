//! What a session is opened on: the app or window a connect target names.

use serde::Serialize;

use crate::app::{AppInfo, WindowId, WindowInfo};
use crate::error::{Code, Error, Result};
use crate::model::ElementId;

/// How `connect` picks what to work on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnectTarget {
    Pid(u32),
    AppName(String),
    WindowTitle(String),
    /// A top-level window by the window system's id.
    SystemWindow(WindowId),
}

/// What a session works on.
#[derive(Debug, Clone, Serialize)]
pub struct SessionInfo {
    pub id: String,
    pub app: AppInfo,
    /// The element snapshots start from: the chosen window, or the app root.
    #[serde(skip)]
    pub root: ElementId,
    /// The window the session was opened on, when one was named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
}

/// Picks the app (and window) a target names. Exact matches beat partial ones; several
/// registrations sharing one pid resolve to the one that has windows.
pub fn choose(apps: &[AppInfo], target: &ConnectTarget) -> Result<(AppInfo, Option<WindowInfo>)> {
    let pick_app = |found: Vec<&AppInfo>, what: &str| -> Result<(AppInfo, Option<WindowInfo>)> {
        let found = with_windows_first(found);
        match found.as_slice() {
            [] => Err(not_found(what, apps)),
            [one, ..] if found.len() == 1 || found[1].windows.is_empty() => {
                Ok(((*one).clone(), None))
            }
            many => Err(Error::new(
                Code::Ambiguous,
                format!(
                    "{what} matches {} apps: {}",
                    many.len(),
                    many.iter()
                        .map(|a| describe(a))
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                "`connect` by pid or by window title instead",
            )),
        }
    };
    match target {
        ConnectTarget::Pid(pid) => pick_app(
            apps.iter().filter(|a| a.pid == Some(*pid)).collect(),
            &format!("pid {pid}"),
        ),
        ConnectTarget::AppName(name) => {
            let exact: Vec<&AppInfo> = apps.iter().filter(|a| &a.name == name).collect();
            let found = if exact.is_empty() {
                let lower = name.to_lowercase();
                apps.iter()
                    .filter(|a| a.name.to_lowercase().contains(&lower))
                    .collect()
            } else {
                exact
            };
            pick_app(found, &format!("app name {name:?}"))
        }
        ConnectTarget::WindowTitle(title) => {
            let windows = |exact: bool| -> Vec<(&AppInfo, &WindowInfo)> {
                let lower = title.to_lowercase();
                apps.iter()
                    .flat_map(|a| a.windows.iter().map(move |w| (a, w)))
                    .filter(|(_, w)| {
                        if exact {
                            &w.title == title
                        } else {
                            w.title.to_lowercase().contains(&lower)
                        }
                    })
                    .collect()
            };
            let mut found = windows(true);
            if found.is_empty() {
                found = windows(false);
            }
            match found.as_slice() {
                [] => Err(not_found(&format!("window title {title:?}"), apps)),
                [(app, window)] => Ok(((*app).clone(), Some((*window).clone()))),
                many => Err(Error::new(
                    Code::Ambiguous,
                    format!(
                        "window title {title:?} matches {} windows: {}",
                        many.len(),
                        many.iter()
                            .map(|(a, w)| format!(
                                "{} of {}",
                                crate::escape::quoted(&w.title, 100),
                                describe(a)
                            ))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                    "use the exact title, or `connect` by pid",
                )),
            }
        }
        ConnectTarget::SystemWindow(id) => apps
            .iter()
            .flat_map(|a| a.windows.iter().map(move |w| (a, w)))
            .find(|(_, w)| w.system_id == Some(*id))
            .map(|(a, w)| (a.clone(), Some(w.clone())))
            .ok_or_else(|| not_found(&format!("window {id}"), apps)),
    }
}

fn describe(app: &AppInfo) -> String {
    format!(
        "{} (pid {})",
        crate::escape::quoted(&app.name, 80),
        app.pid.map_or("?".into(), |p| p.to_string())
    )
}

fn not_found(what: &str, apps: &[AppInfo]) -> Error {
    Error::new(
        Code::NotFound,
        format!(
            "no app or window matches {what}; running: {}",
            apps.iter().map(describe).collect::<Vec<_>>().join(", ")
        ),
        "call `list_apps` to see what is running; the app may still be starting",
    )
}

fn with_windows_first(mut found: Vec<&AppInfo>) -> Vec<&AppInfo> {
    found.sort_by_key(|a| a.windows.is_empty());
    found
}
