//! What a session covers. A session on an app covers every window of the app; a session on a
//! window covers that window and the windows over it: those transient for it (a dialog, a file
//! chooser), modal windows and dialogs whose owner is unknown, and popups the window manager
//! does not manage (menus in their own windows). And which of them is active now.

use crate::app::WindowPick;
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::model::{ElementId, Realization, Tree, TreeNode};
use crate::platform::{BackendError, Secrecy, WalkLimits};
use crate::scope::*;

/// The windows the session covers now, and which is active. The app gone answers
/// `app_gone` with a hint to connect again.
pub(crate) async fn scope(engine: &Engine, session: &str) -> Result<Scope> {
    let info = engine.session_info(session)?;
    // The active window is asked while the app is read.
    let active_window = async {
        match engine.wiring().window_system() {
            Ok(windows) => windows.active_window().await.ok().flatten(),
            Err(_) => None,
        }
    };
    let (app, active_id) = tokio::join!(engine.backend().app(&info.app.id), active_window);
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
        engine
            .sessions()
            .remember_active(session, &windows[index].id);
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
    engine: &Engine,
    session: &str,
    pick: Option<&WindowPick>,
    limits: &WalkLimits,
) -> Result<Tree> {
    let scope = scope(engine, session).await?;
    let shown = match pick {
        None => scope
            .main_window(engine.sessions().last_active(session).as_ref())
            .map(|w| w.id.clone()),
        Some(WindowPick::Title(title)) => Some(
            scope
                .titled(title)
                .ok_or_else(|| no_window(&format!("titled {title:?}"), &scope))?
                .id
                .clone(),
        ),
        Some(WindowPick::Ref(reference)) => {
            let resolved = engine.handle(session).resolve_ref(reference).await?;
            if !scope.windows.iter().any(|w| w.id == resolved.node.id) {
                return Err(no_window(reference, &scope));
            }
            Some(resolved.node.id)
        }
    };
    let mut tree = Tree {
        nodes: vec![TreeNode {
            node: engine.backend().node(&scope.app.id, Secrecy::Plain).await?,
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
            match engine.backend().snapshot(&window.id, &window_limits).await {
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
pub(crate) async fn keys_window(engine: &Engine, session: &str) -> Result<ElementId> {
    let scope = scope(engine, session).await?;
    let last = engine.sessions().last_active(session);
    match scope.main_window(last.as_ref()) {
        Some(window) => Ok(window.id.clone()),
        None => Err(no_window("to send keys to", &scope)),
    }
}
