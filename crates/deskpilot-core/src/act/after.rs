//! The tree after an action: read again with the session's last view's settings and shown as
//! the changes since that view (the new version is the session's baseline from then on).

use std::time::Duration;

use super::report::{ActionReport, Effect};
use crate::engine::Engine;
use crate::error::Result;
use crate::live::{Changes, Mark, Since, TreeUpdate, UpdateLine, capped, update_lines};
use crate::read::{Snapshot, WindowPick};

/// The most lines of changes an action result shows; the rest are counted.
pub const MAX_UPDATE_LINES: usize = 50;

/// How long reading the tree after an action may take.
const READ_AFTER: Duration = Duration::from_secs(3);

impl Engine {
    /// Adds to an action's report what changed in the session's tree since the session last
    /// saw it, or the whole tree (bounded) when it saw none yet: from then on results carry
    /// changes. Nothing is read for a session that does not follow its tree; a failed read
    /// is said, never an action failure.
    pub(crate) async fn with_tree_after(
        &self,
        session: &str,
        report: Result<ActionReport>,
    ) -> Result<ActionReport> {
        if !self.sessions().follows_tree(session) {
            return report;
        }
        let had_view = self.sessions().view(session, Since::Last).is_some();
        let mut report = match report {
            Ok(report) => report,
            // Input was sent before the failure: the app may have changed all the same.
            Err(mut error) if error.after_input() => {
                error.tree = Some(Box::new(self.tree_now(session).await));
                return Err(error);
            }
            Err(error) => return Err(error),
        };
        let update = self.tree_now(session).await;
        // What was checked for an unverified action is the element and the windows: say so
        // when the tree changed elsewhere (a click that added a button), without claiming
        // the action did it.
        let tree_changed = update.changed + update.added + update.removed > 0
            || (had_view && update.whole.is_some());
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
    async fn tree_now(&self, session: &str) -> TreeUpdate {
        let last = self.sessions().view(session, Since::Last);
        let window = last.as_ref().and_then(|l| l.window.as_ref());
        match self.handle(session).snapshot_since_last(READ_AFTER).await {
            Ok(snapshot) => update_of(&snapshot, window, MAX_UPDATE_LINES),
            Err(e) => TreeUpdate::unread(&e.message),
        }
    }
}

/// A snapshot read after an action (with `since` the session's last version), as the action's
/// result shows it: at most `cap` lines. `window` is the window the session chose to see in
/// full, if it chose one (the changes are that window's).
fn update_of(snapshot: &Snapshot, window: Option<&WindowPick>, cap: usize) -> TreeUpdate {
    let new = snapshot.lines();
    let update = TreeUpdate {
        version: snapshot.version(),
        since: None,
        changed: 0,
        added: 0,
        removed: 0,
        whole: None,
        window: window.cloned(),
        unread: None,
        lines: Vec::new(),
        omitted: 0,
    };
    let why = match &snapshot.changes {
        Some(Changes::Diff(diff)) => {
            let (changed, added, removed) = diff.counts();
            let (lines, omitted) = update_lines(diff, &new, cap);
            return TreeUpdate {
                since: Some(diff.since),
                changed,
                added,
                removed,
                lines,
                omitted,
                ..update
            };
        }
        Some(Changes::Whole { why }) => why.clone(),
        None => "no earlier version".into(),
    };
    let tree = new.iter().map(|l| UpdateLine {
        mark: Mark::Tree,
        text: l.text.clone(),
    });
    let (lines, omitted) = capped(tree.collect(), cap);
    TreeUpdate {
        whole: Some(why),
        lines,
        omitted,
        ..update
    }
}
