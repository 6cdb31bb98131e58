//! The app list as faces show it: every app on the accessibility bus with whether deskpilot
//! can see into it ("blind": a nearly empty tree, or a web runtime that shows its own controls
//! but no page), and the windows on the display whose process is not on the bus at all; each
//! blind one with the platform's hint on how to switch its accessibility on.

use crate::app::AppInfo;
use crate::engine::Engine;
use crate::error::Result;
use crate::model::{CutReason, Role, State};
use crate::platform::WalkLimits;
use crate::read::apps::*;
use std::time::Duration;

/// An app with fewer nodes than this is blind.
const NEARLY_EMPTY: usize = 10;

/// How much of a web runtime's tree is searched for a document.
const WEB_NODES: usize = 3000;

impl Engine {
    /// Every app, blind ones flagged with a hint, then the processes with windows on the
    /// display but no app on the accessibility bus.
    pub async fn list_apps(&self) -> Result<Vec<ListedApp>> {
        let apps = self.apps().await?;
        let blind =
            futures_util::future::join_all(apps.iter().map(|app| is_blind(self, app))).await;
        let mut out: Vec<ListedApp> = apps
            .iter()
            .zip(blind)
            .map(|(app, blind)| ListedApp {
                name: app.name.clone(),
                pid: app.pid,
                toolkit: app.toolkit.clone(),
                toolkit_version: app.toolkit_version.clone(),
                windows: app
                    .windows
                    .iter()
                    .map(|w| ListedWindow {
                        title: w.title.clone(),
                        role: w.role,
                        bounds: w.bounds,
                        active: w.states.is(State::Active),
                        minimized: w.states.is(State::Minimized),
                        system_id: w.system_id,
                    })
                    .collect(),
                responding: app.responding,
                blind,
                hint: blind.then(|| self.backend().blindness(Some(app)).hint),
            })
            .collect();
        let on_bus = out.len();
        for w in self.windows_off_the_bus(&apps).await {
            let window = ListedWindow {
                title: w.title.clone(),
                role: Role::Window,
                bounds: Some(w.bounds),
                active: false,
                minimized: false,
                system_id: Some(w.id),
            };
            match out[on_bus..].iter_mut().find(|a| a.pid == w.pid) {
                Some(app) => app.windows.push(window),
                None => out.push(ListedApp {
                    name: w.process.clone().unwrap_or_else(|| w.title.clone()),
                    pid: w.pid,
                    toolkit: None,
                    toolkit_version: None,
                    windows: vec![window],
                    responding: true,
                    blind: true,
                    hint: Some(self.backend().blindness(None).hint),
                }),
            }
        }
        Ok(out)
    }
}

/// Whether `app` is blind; `false` when it cannot be read (not responding is said apart).
async fn is_blind(engine: &Engine, app: &AppInfo) -> bool {
    if !app.responding {
        return false;
    }
    let web = engine.backend().blindness(Some(app)).needs_document;
    let limits = WalkLimits {
        max_nodes: if web { WEB_NODES } else { NEARLY_EMPTY * 2 },
        ..WalkLimits::with_timeout(Duration::from_secs(3))
    };
    match engine.backend().snapshot(&app.id, &limits).await {
        Ok(tree) if tree.len() < NEARLY_EMPTY => true,
        Ok(tree) if web => {
            let has_windows = !app.windows.is_empty();
            let has_document = tree.nodes.iter().any(|n| n.node.role == Role::Document);
            // A walk cut by its budget may not have reached the page yet: not proof.
            let cut_short = matches!(
                tree.cut(),
                Some((_, CutReason::Nodes | CutReason::Deadline))
            );
            has_windows && !has_document && !cut_short
        }
        _ => false,
    }
}
