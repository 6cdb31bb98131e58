//! The changes in a session's tree as a model reads them: a `#` header with the versions and
//! counts, then unified-diff lines (`-` a line gone or as it was, `+` a line new or as it is
//! now, two spaces for the line a run of new lines follows; `live/lines.rs` picks them).

use crate::escape::quoted;
use crate::live::{Mark, TreeDiff, TreeUpdate, UpdateLine, ViewLine, update_lines};
use crate::read::WindowPick;

/// The diff's lines, at most `cap` of them; returns the text and how many were left out.
pub fn diff_lines(diff: &TreeDiff, new: &[ViewLine], cap: usize) -> (String, usize) {
    let (lines, omitted) = update_lines(diff, new, cap);
    (lines_text(&lines), omitted)
}

/// An action's tree update as its result shows it.
pub fn tree_update(update: &TreeUpdate) -> String {
    if let Some(why) = &update.unread {
        return format!("# the tree was not read after the action: {why}\n");
    }
    let v = match (update.version, &update.window) {
        (Some(v), None) => format!("v{v}"),
        (Some(v), Some(WindowPick::Ref(r))) => format!("v{v} (window {r})"),
        (Some(v), Some(WindowPick::Title(t))) => format!("v{v} (window {})", quoted(t, 60)),
        (None, _) => "?".into(),
    };
    let body = lines_text(&update.lines);
    let more = more(update.omitted);
    match update.since {
        Some(since) if update.whole.is_none() => {
            let counts = (update.changed, update.added, update.removed);
            format!("{}{body}{more}", header(since, counts, &v))
        }
        _ => {
            let why = update.whole.as_deref().unwrap_or("no earlier version");
            format!("# {v}, the whole tree ({why}):\n{body}{more}")
        }
    }
}

fn lines_text(lines: &[UpdateLine]) -> String {
    let mut text = String::new();
    for line in lines {
        text.push_str(match line.mark {
            Mark::Removed => "-",
            Mark::Added => "+",
            Mark::Context => " ",
            Mark::Tree => "",
        });
        text.push_str(&line.text);
        text.push('\n');
    }
    text
}

/// The first line of a diff: versions and counts.
pub fn diff_header(diff: &TreeDiff, version: &str) -> String {
    header(diff.since, diff.counts(), version)
}

/// The first line of changes since `since`: versions and counts.
fn header(since: u64, (changed, added, removed): (usize, usize, usize), version: &str) -> String {
    if changed + added + removed == 0 {
        return format!("# {version}: nothing changed since v{since}\n");
    }
    let counts: Vec<String> = [(changed, "changed"), (added, "added"), (removed, "removed")]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    format!(
        "# {version} since v{since}: {} (other lines as they were)\n",
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
