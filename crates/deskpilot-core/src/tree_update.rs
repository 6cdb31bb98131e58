//! What an action result says about the session's tree after it, as data: the changes since
//! the version the session last saw, or the whole tree when that is shorter, bounded. The
//! text a model reads is `present::tree_update`'s.

use serde::Serialize;

use crate::app::WindowPick;

/// The tree after an action (or after input that then failed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TreeUpdate {
    /// The version the tree now has (the new baseline); none when it could not be read.
    pub version: Option<u64>,
    /// The version the changes are counted from; none when the whole tree is given.
    pub since: Option<u64>,
    pub changed: usize,
    pub added: usize,
    pub removed: usize,
    /// Why the whole tree is given instead of changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole: Option<String>,
    /// The window the session chose to see in full, if it chose one (the lines are its).
    #[serde(skip)]
    pub window: Option<WindowPick>,
    /// Why the tree was not read after the action (the action itself was done).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
    /// The lines shown: the changes, or the tree's lines.
    pub lines: Vec<UpdateLine>,
    /// Lines left out by the cap (snapshot for all of them).
    pub omitted: usize,
}

/// One line of an update, as the snapshot shows it (depth and ref), marked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UpdateLine {
    pub mark: Mark,
    pub text: String,
}

/// What a line of an update is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Gone, or as it was.
    Removed,
    /// New, or as it is now.
    Added,
    /// The line a run of new lines follows.
    Context,
    /// A line of the whole tree.
    Tree,
}

impl TreeUpdate {
    /// The tree could not be read after the action (the action itself was done).
    pub fn unread(why: &str) -> TreeUpdate {
        TreeUpdate {
            version: None,
            since: None,
            changed: 0,
            added: 0,
            removed: 0,
            whole: None,
            window: None,
            unread: Some(why.to_owned()),
            lines: Vec::new(),
            omitted: 0,
        }
    }
}
