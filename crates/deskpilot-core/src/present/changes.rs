//! The changes in a session's tree as a model reads them: a `#` header with the versions and
//! counts, then unified-diff lines (`-` a line gone or as it was, `+` a line new or as it is
//! now, two spaces for the line a run of new lines follows), every line as the snapshot shows
//! it (depth and ref), so refs in it can be used at once.

use std::collections::HashMap;

use crate::escape::quoted;
use crate::live::{Changes, Edit, LineKey, TreeDiff, TreeUpdate, View, ViewLine};
use crate::read::{Snapshot, WindowPick};

/// The diff's lines, at most `cap` of them; returns the text and how many were left out.
pub fn diff_lines(diff: &TreeDiff, new: &[ViewLine], cap: usize) -> (String, usize) {
    let text_of: HashMap<&LineKey, &str> = new.iter().map(|l| (&l.key, l.text.as_str())).collect();
    let mut lines: Vec<String> = Vec::new();
    // The key of the last line shown from the new view.
    let mut last: Option<&LineKey> = None;
    for edit in &diff.edits {
        match edit {
            Edit::Removed { line } => lines.push(format!("-{}", line.text)),
            Edit::Changed { old, new } => {
                lines.push(format!("-{old}"));
                lines.push(format!("+{}", new.text));
                last = Some(&new.key);
            }
            Edit::Added { line, after } => {
                if let Some(anchor) = after
                    && last != Some(anchor)
                    && let Some(text) = text_of.get(anchor)
                {
                    lines.push(format!(" {text}"));
                }
                lines.push(format!("+{}", line.text));
                last = Some(&line.key);
            }
        }
    }
    capped(lines, cap)
}

fn capped(lines: Vec<String>, cap: usize) -> (String, usize) {
    let omitted = lines.len().saturating_sub(cap);
    let mut text = String::new();
    for line in lines.into_iter().take(cap) {
        text.push_str(&line);
        text.push('\n');
    }
    (text, omitted)
}

/// A snapshot read after an action (with `since` the session's last version), as the
/// action's result shows it: at most `cap` lines. `window` is the window the session chose to
/// see in full, if it chose one (the changes are that window's).
pub fn tree_update(snapshot: &Snapshot, window: Option<&WindowPick>, cap: usize) -> TreeUpdate {
    let version = snapshot.version();
    let new = lines_of(snapshot);
    let v = match (version, window) {
        (Some(v), None) => format!("v{v}"),
        (Some(v), Some(WindowPick::Ref(r))) => format!("v{v} (window {r})"),
        (Some(v), Some(WindowPick::Title(t))) => format!("v{v} (window {})", quoted(t, 60)),
        (None, _) => "?".into(),
    };
    let why = match &snapshot.changes {
        Some(Changes::Diff(diff)) => {
            let (changed, added, removed) = diff.counts();
            let (body, omitted) = diff_lines(diff, &new, cap);
            return TreeUpdate {
                version,
                since: Some(diff.since),
                changed,
                added,
                removed,
                whole: None,
                text: format!("{}{body}{}", diff_header(diff, &v), more(omitted)),
                omitted,
            };
        }
        Some(Changes::Whole { why }) => why.clone(),
        None => "no earlier version".into(),
    };
    let (body, omitted) = capped(new.iter().map(|l| l.text.clone()).collect(), cap);
    TreeUpdate {
        version,
        since: None,
        changed: 0,
        added: 0,
        removed: 0,
        text: format!("# {v}, the whole tree ({why}):\n{body}{}", more(omitted)),
        whole: Some(why),
        omitted,
    }
}

/// The snapshot's lines: those its version kept (a whole first page), else read from it.
pub(super) fn lines_of(snapshot: &Snapshot) -> std::borrow::Cow<'_, [ViewLine]> {
    match &snapshot.view {
        Some(view) => std::borrow::Cow::Borrowed(view.lines.as_slice()),
        None => std::borrow::Cow::Owned(View::lines_of(&snapshot.tree, &snapshot.rendered)),
    }
}

/// The first line of a diff: versions and counts.
pub fn diff_header(diff: &TreeDiff, version: &str) -> String {
    if diff.is_empty() {
        return format!("# {version}: nothing changed since v{}\n", diff.since);
    }
    let (changed, added, removed) = diff.counts();
    let counts: Vec<String> = [(changed, "changed"), (added, "added"), (removed, "removed")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    format!(
        "# {version} since v{}: {} (other lines as they were)\n",
        diff.since,
        counts.join(", ")
    )
}

fn more(omitted: usize) -> String {
    if omitted == 0 {
        String::new()
    } else {
        format!("# {omitted} more lines not shown: snapshot for the whole tree\n")
    }
}
