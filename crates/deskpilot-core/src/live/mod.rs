//! The live tree: what a session was last shown (`View`, versioned), and the exact line diff
//! between two views (`diff.rs`) that action results and `snapshot {since}` give instead of
//! the whole tree again.

mod changes;
mod diff;
mod lines;
mod view;

pub use crate::tree_update::{Mark, TreeUpdate, UpdateLine};
pub use changes::{Changes, Reading, changes_since};
pub use diff::{Edit, TreeDiff, apply, diff};
pub use lines::{capped, update_lines};
pub use view::{LineKey, Since, View, ViewLine, lines_text};
