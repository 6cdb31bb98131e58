//! What a session is told changed since a version it was shown: the diff, or the whole tree
//! and why (the version is no longer kept, it was read differently, or the diff would be
//! longer than the tree).

use super::diff::{TreeDiff, diff};
use super::view::{Since, View, ViewLine};
use crate::app::WindowPick;
use crate::filter::Filter;

/// The answer to "what changed since".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changes {
    Diff(TreeDiff),
    /// The whole tree is given instead, for this reason.
    Whole {
        why: String,
    },
}

/// How the new view was read, to compare with how the old one was.
#[derive(Debug, Clone, Copy)]
pub struct Reading<'a> {
    pub filter: Filter,
    pub window: Option<&'a WindowPick>,
}

/// The changes from `previous` (the view `since` named, if still kept) to `lines`, read as
/// `reading`.
pub fn changes_since(
    since: Since,
    previous: Option<&View>,
    reading: Reading<'_>,
    lines: &[ViewLine],
) -> Changes {
    let whole = |why: String| Changes::Whole { why };
    let Some(previous) = previous else {
        return whole(match since {
            Since::Last => "no earlier version kept".into(),
            Since::Version(v) => format!("version {v} is not kept (only the latest few are)"),
        });
    };
    if previous.filter != reading.filter {
        return whole(format!(
            "v{} was read with filter {}",
            previous.version,
            previous.filter.name()
        ));
    }
    if previous.window.as_ref() != reading.window {
        return whole(format!(
            "v{} showed another window choice",
            previous.version
        ));
    }
    let edits = diff(&previous.lines, lines);
    let found = TreeDiff {
        since: previous.version,
        edits,
    };
    if found.size() > lines.len() {
        return whole(format!(
            "the changes since v{} are longer than the tree",
            previous.version
        ));
    }
    Changes::Diff(found)
}
