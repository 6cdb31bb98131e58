//! The exact line diff between two views, keyed by the elements the lines show: a line whose
//! element is on both sides is kept (changed when its text differs), the others are removed or
//! added. Elements that kept their order are matched (the longest run in order, so a moved
//! element is one removal and one addition). `apply` rebuilds the new view from the old one
//! and the edits: tests compare that to a cold read.

use std::collections::{HashMap, HashSet};

use super::view::{LineKey, ViewLine};

/// One difference between two views, in the order the new view shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// The old line is gone.
    Removed { line: ViewLine },
    /// A new line, after the line of `after` in the new view (`None`: first).
    Added {
        line: ViewLine,
        after: Option<LineKey>,
    },
    /// The element's line reads differently now (a state, its value, its name and ref).
    Changed { old: String, new: ViewLine },
}

/// The edits from one version of a session's view to another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeDiff {
    /// The version the edits start from.
    pub since: u64,
    pub edits: Vec<Edit>,
}

impl TreeDiff {
    /// (changed, added, removed) lines.
    pub fn counts(&self) -> (usize, usize, usize) {
        self.edits
            .iter()
            .fold((0, 0, 0), |(c, a, r), edit| match edit {
                Edit::Changed { .. } => (c + 1, a, r),
                Edit::Added { .. } => (c, a + 1, r),
                Edit::Removed { .. } => (c, a, r + 1),
            })
    }

    /// Lines the diff takes to show (a change shows its old and new line).
    pub fn size(&self) -> usize {
        let (changed, added, removed) = self.counts();
        2 * changed + added + removed
    }

    pub fn is_empty(&self) -> bool {
        self.edits.is_empty()
    }
}

/// The edits that turn `old` into `new`.
pub fn diff(old: &[ViewLine], new: &[ViewLine]) -> Vec<Edit> {
    let old_index: HashMap<&LineKey, usize> =
        old.iter().enumerate().map(|(i, l)| (&l.key, i)).collect();
    // For each new line whose element was shown before: (old index, new index).
    let common: Vec<(usize, usize)> = new
        .iter()
        .enumerate()
        .filter_map(|(j, l)| old_index.get(&l.key).map(|&i| (i, j)))
        .collect();
    let kept = longest_in_order(&common);
    let mut edits = Vec::new();
    let (mut next_old, mut next_new) = (0, 0);
    let added = |edits: &mut Vec<Edit>, from: usize, to: usize| {
        for j in from..to {
            edits.push(Edit::Added {
                line: new[j].clone(),
                after: j.checked_sub(1).map(|p| new[p].key.clone()),
            });
        }
    };
    for (i, j) in kept {
        edits.extend(
            old[next_old..i]
                .iter()
                .map(|line| Edit::Removed { line: line.clone() }),
        );
        added(&mut edits, next_new, j);
        if old[i].text != new[j].text {
            edits.push(Edit::Changed {
                old: old[i].text.clone(),
                new: new[j].clone(),
            });
        }
        (next_old, next_new) = (i + 1, j + 1);
    }
    edits.extend(
        old[next_old..]
            .iter()
            .map(|line| Edit::Removed { line: line.clone() }),
    );
    added(&mut edits, next_new, new.len());
    edits
}

/// The longest subsequence of `pairs` (in new order) whose old indices increase: the lines
/// that kept their order. O(n log n) (patience).
fn longest_in_order(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[k]: index in `pairs` of the smallest old index ending a run of length k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = vec![None; pairs.len()];
    for (p, &(old, _)) in pairs.iter().enumerate() {
        let at = tails.partition_point(|&t| pairs[t].0 < old);
        previous[p] = at.checked_sub(1).map(|a| tails[a]);
        if at == tails.len() {
            tails.push(p);
        } else {
            tails[at] = p;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(p) = at {
        run.push(pairs[p]);
        at = previous[p];
    }
    run.reverse();
    run
}

/// `old` with `edits` applied; an edit that does not fit `old` (a line it removes or changes
/// is not there as the edit says, an anchor is missing) is an error naming it.
pub fn apply(old: &[ViewLine], edits: &[Edit]) -> Result<Vec<ViewLine>, String> {
    let by_key: HashMap<&LineKey, &ViewLine> = old.iter().map(|l| (&l.key, l)).collect();
    let mut removed = HashSet::new();
    for edit in edits {
        if let Edit::Removed { line } = edit {
            match by_key.get(&line.key) {
                Some(held) if held.text == line.text => {
                    removed.insert(&line.key);
                }
                _ => return Err(format!("removes a line not held: {:?}", line.text)),
            }
        }
    }
    let mut lines: Vec<ViewLine> = old
        .iter()
        .filter(|l| !removed.contains(&l.key))
        .cloned()
        .collect();
    for edit in edits {
        match edit {
            Edit::Removed { .. } => {}
            Edit::Changed { old, new } => {
                let held = lines
                    .iter_mut()
                    .find(|l| l.key == new.key)
                    .filter(|l| &l.text == old)
                    .ok_or_else(|| format!("changes a line not held: {old:?}"))?;
                held.text = new.text.clone();
            }
            Edit::Added { line, after } => {
                let at =
                    match after {
                        None => 0,
                        Some(key) => {
                            lines.iter().position(|l| &l.key == key).ok_or_else(|| {
                                format!("adds after a line not held: {:?}", line.text)
                            })? + 1
                        }
                    };
                lines.insert(at, line.clone());
            }
        }
    }
    Ok(lines)
}

#[cfg(test)]
#[path = "diff_tests.rs"]
mod tests;
