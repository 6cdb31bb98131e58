//! The tree after an action: read again with the session's last view's settings and shown as
//! the changes since that view (the new version is the session's baseline from then on).

/// The most lines of changes an action result shows; the rest are counted.
pub const MAX_UPDATE_LINES: usize = 50;

use crate::live::{Changes, Mark, TreeUpdate, UpdateLine, capped, update_lines};
use crate::read::{Snapshot, WindowPick};

/// A snapshot read after an action (with `since` the session's last version), as the action's
/// result shows it: at most `cap` lines. `window` is the window the session chose to see in
/// full, if it chose one (the changes are that window's).
pub(crate) fn update_of(
    snapshot: &Snapshot,
    window: Option<&WindowPick>,
    cap: usize,
) -> TreeUpdate {
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
