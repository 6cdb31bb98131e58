//! Which apps deskpilot cannot see into ("blind"): a nearly empty tree, or a web runtime
//! (Chromium, Electron) that shows its own window controls but no page. Builds that keep their
//! page accessibility off until told (`--force-renderer-accessibility`) look like that; Debian's
//! Chromium 156 turns it on for any AT-SPI client that reads it.

use std::time::Duration;

use deskpilot_core::model::{CutReason, Role};
use deskpilot_core::{AppInfo, Engine, WalkLimits};

/// An app with fewer nodes than this is blind.
const NEARLY_EMPTY: usize = 10;
/// How much of a web runtime's tree is searched for a document.
const WEB_NODES: usize = 3000;

/// Chromium and Electron apps: their page content shows only with a switch.
pub(crate) fn is_web_runtime(app: &AppInfo) -> bool {
    let name = app.name.to_lowercase();
    let toolkit = app.toolkit.as_deref().unwrap_or("").to_lowercase();
    ["chrom", "electron"]
        .iter()
        .any(|w| name.contains(w) || toolkit.contains(w))
}

/// Whether `app` is blind; `false` when it cannot be read (not responding is said apart).
pub async fn is_blind(engine: &Engine, app: &AppInfo) -> bool {
    if !app.responding {
        return false;
    }
    let web = is_web_runtime(app);
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
