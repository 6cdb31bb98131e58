//! `deskpilot snapshot --save FILE` and `--since FILE`: a snapshot kept in a file (its lines,
//! without refs, and the elements they show) and the changes since it, as `snapshot {since}`
//! gives them in a session. Refs are left out: they belong to one process.

use std::path::Path;

use anyhow::Context;
use deskpilot_core::Snapshot;
use deskpilot_core::live::{View, ViewLine, diff};
use deskpilot_core::present::{diff_lines, strip_refs};

/// The snapshot's lines without refs.
fn lines(snapshot: &Snapshot) -> Vec<ViewLine> {
    View::lines_of(&snapshot.tree, &snapshot.rendered)
        .into_iter()
        .map(|line| ViewLine {
            text: strip_refs(&line.text).trim_end().to_owned(),
            key: line.key,
        })
        .collect()
}

pub fn save(path: &Path, snapshot: &Snapshot) -> anyhow::Result<()> {
    let json = serde_json::to_string(&lines(snapshot))?;
    std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))
}

pub fn load(path: &Path) -> anyhow::Result<Vec<ViewLine>> {
    let json = std::fs::read_to_string(path)
        .with_context(|| format!("reading {} (written by --save)", path.display()))?;
    serde_json::from_str(&json)
        .with_context(|| format!("{} holds no saved snapshot", path.display()))
}

/// The changes from `earlier` to `snapshot`, with a `#` header.
pub fn changes(path: &Path, earlier: &[ViewLine], snapshot: &Snapshot) -> String {
    let now = lines(snapshot);
    let found = deskpilot_core::live::TreeDiff {
        since: 0,
        edits: diff(earlier, &now),
    };
    let (changed, added, removed) = found.counts();
    let mut text = if found.is_empty() {
        format!("# nothing changed since {}\n", path.display())
    } else {
        format!(
            "# since {}: {changed} changed, {added} added, {removed} removed\n",
            path.display()
        )
    };
    text.push_str(&diff_lines(&found, &now, usize::MAX).0);
    text
}
