//! A diff's lines as an update shows them: `Removed` a line gone or as it was, `Added` a line
//! new or as it is now, `Context` the line a run of new lines follows; every line as the
//! snapshot shows it (depth and ref), so refs in it can be used at once.

use std::collections::HashMap;

use super::{Edit, LineKey, TreeDiff, ViewLine};
use crate::tree_update::{Mark, UpdateLine};

/// The lines of `diff` against the new view's `new` lines, at most `cap` of them; returns
/// them and how many were left out.
pub fn update_lines(diff: &TreeDiff, new: &[ViewLine], cap: usize) -> (Vec<UpdateLine>, usize) {
    let text_of: HashMap<&LineKey, &str> = new.iter().map(|l| (&l.key, l.text.as_str())).collect();
    let mut lines: Vec<UpdateLine> = Vec::new();
    let line = |mark, text: &str| UpdateLine {
        mark,
        text: text.to_owned(),
    };
    // The key of the last line shown from the new view.
    let mut last: Option<&LineKey> = None;
    for edit in &diff.edits {
        match edit {
            Edit::Removed { line: gone } => lines.push(line(Mark::Removed, &gone.text)),
            Edit::Changed { old, new } => {
                lines.push(line(Mark::Removed, old));
                lines.push(line(Mark::Added, &new.text));
                last = Some(&new.key);
            }
            Edit::Added { line: added, after } => {
                if let Some(anchor) = after
                    && last != Some(anchor)
                    && let Some(text) = text_of.get(anchor)
                {
                    lines.push(line(Mark::Context, text));
                }
                lines.push(line(Mark::Added, &added.text));
                last = Some(&added.key);
            }
        }
    }
    capped(lines, cap)
}

/// At most `cap` of `lines`, and how many were left out.
pub fn capped<T>(mut lines: Vec<T>, cap: usize) -> (Vec<T>, usize) {
    let omitted = lines.len().saturating_sub(cap);
    lines.truncate(cap);
    (lines, omitted)
}
