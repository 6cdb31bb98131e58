//! The tree after an action: read again with the session's last view's settings and shown as
//! the changes since that view (the new version is the session's baseline from then on).

use crate::act::after::*;
use crate::act::report::{ActionReport, Effect};
use crate::engine::Engine;
use crate::error::Result;
use crate::live::{Since, TreeUpdate};
use std::time::Duration;

/// How long reading the tree after an action may take.
const READ_AFTER: Duration = Duration::from_secs(3);

/// Adds to an action's report what changed in the session's tree since the session last
/// saw it, or the whole tree (bounded) when it saw none yet: from then on results carry
/// changes. Nothing is read for a session that does not follow its tree; a failed read
/// is said, never an action failure.
pub(crate) async fn with_tree_after(
    engine: &Engine,
    session: &str,
    report: Result<ActionReport>,
) -> Result<ActionReport> {
    if !engine.sessions().follows_tree(session) {
        return report;
    }
    let had_view = engine.sessions().view(session, Since::Last).is_some();
    let mut report = match report {
        Ok(report) => report,
        // Input was sent before the failure: the app may have changed all the same.
        Err(mut error) if error.after_input() => {
            error.tree = Some(Box::new(tree_now(engine, session).await));
            return Err(error);
        }
        Err(error) => return Err(error),
    };
    let update = tree_now(engine, session).await;
    // What was checked for an unverified action is the element and the windows: say so
    // when the tree changed elsewhere (a click that added a button), without claiming
    // the action did it.
    let tree_changed =
        update.changed + update.added + update.removed > 0 || (had_view && update.whole.is_some());
    if report.effect == Effect::Unverified
        && tree_changed
        && let Some(note) = report.note.as_mut()
    {
        note.push_str("; the tree changed (below)");
    }
    report.tree = Some(update);
    Ok(report)
}

/// The session's tree read again as its last view was, shown as the changes since (the
/// whole tree when it saw none), at most `MAX_UPDATE_LINES`; a failed read says so.
async fn tree_now(engine: &Engine, session: &str) -> TreeUpdate {
    let last = engine.sessions().view(session, Since::Last);
    let window = last.as_ref().and_then(|l| l.window.as_ref());
    match engine.handle(session).snapshot_since_last(READ_AFTER).await {
        Ok(snapshot) => update_of(&snapshot, window, MAX_UPDATE_LINES),
        Err(e) => TreeUpdate::unread(&e.message),
    }
}
