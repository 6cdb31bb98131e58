//! What an action result says about the session's tree after it: the changes since the
//! version the session last saw, or the whole tree when that is shorter, bounded.

use serde::Serialize;

/// The tree after an action, as its result shows it.
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
    /// The lines shown: the changes (`+`, `-`, context) or the tree, with a `#` header.
    pub text: String,
    /// Lines left out by the cap (snapshot for all of them).
    pub omitted: usize,
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
            text: format!("# the tree was not read after the action: {why}\n"),
            omitted: 0,
        }
    }
}
