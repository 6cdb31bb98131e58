//! What reading shows: elements, find results, the tree and where it was cut, pages.

use super::changes::{diff_header, diff_lines};
use super::{Page, escape, quoted};
use crate::hint::FaceVerb;
use crate::live::Changes;
use crate::read::{FindResult, Match, Snapshot, TableRead, TextRead, Truncation};
use crate::session::SessionInfo;
use crate::wait::WaitOutcome;

/// One element on a line: `- role "name" [hidden] [ref=eN]`.
pub fn element(m: &Match) -> String {
    format!(
        "- {} {}{} [ref={}]",
        m.role,
        quoted(&m.name, 100),
        if m.visible { "" } else { " [hidden]" },
        m.reference
    )
}

/// Find results: the matches, the counts, the containers that could not be searched.
pub fn find(found: &FindResult) -> String {
    find_in(found, &|verb| verb.marker().to_owned())
}

/// `find`, with the verbs the unsearched containers' notes name in a face's words.
pub fn find_in(found: &FindResult, word: &dyn Fn(FaceVerb) -> String) -> String {
    let mut text = String::new();
    for m in &found.matches {
        text.push_str(&element(m));
        text.push('\n');
    }
    text.push_str(&format!(
        "# {} matches ({} visible), {} exact\n",
        found.total, found.visible, found.exact
    ));
    for u in &found.unsearched {
        text.push_str(&format!("# not searched: {}\n", u.line(word)));
    }
    text
}

/// The lines `find` could not search, one each (as find results show them).
pub fn unsearched_lines(found: &FindResult) -> Vec<String> {
    found.unsearched.iter().map(ToString::to_string).collect()
}

/// The chain of elements at a point, outermost first, indented by depth.
pub fn hit_path(path: &[Match], x: i32, y: i32) -> String {
    let mut text = String::new();
    for (depth, m) in path.iter().enumerate() {
        text.push_str(&format!(
            "{}- {} {} [ref={}]\n",
            " ".repeat(depth),
            m.role,
            quoted(&m.name, 100),
            m.reference
        ));
    }
    if path.is_empty() {
        text.push_str(&format!(
            "# nothing at ({x}, {y}) in this session's window\n"
        ));
    }
    text
}

/// The focused element, or that there is none.
pub fn focus(focused: Option<&Match>) -> String {
    match focused {
        Some(m) => format!(
            "- {} {} [focused] [ref={}]\n",
            m.role,
            quoted(&m.name, 100),
            m.reference
        ),
        None => "# nothing in this session's window has the focus\n".into(),
    }
}

/// What a wait ended with, and what made it look again (the app's events or the poll).
pub fn waited(outcome: &WaitOutcome) -> String {
    let w = &outcome.wakes;
    let looks = match (w.looks(), w.events_watched) {
        (1, _) => "1 look".to_owned(),
        (n, true) if w.targeted > 0 => format!(
            "{n} looks: {} on events, {} on the poll; the last read only what the events named",
            w.by_event, w.by_poll
        ),
        (n, true) => format!(
            "{n} looks: {} on events, {} on the poll",
            w.by_event, w.by_poll
        ),
        (n, false) => format!("{n} looks on the poll (events not watched)"),
    };
    let looks = match w.flooded {
        0 => looks,
        1 => format!("{looks}; 1 after a flood of events read the whole tree"),
        n => format!("{looks}; {n} after floods of events read the whole tree"),
    };
    match &outcome.element {
        Some(m) => format!(
            "- {} {} [ref={}]\n# met after {} ms ({looks})\n",
            m.role,
            quoted(&m.name, 100),
            m.reference,
            outcome.elapsed_ms
        ),
        None => format!("# gone after {} ms ({looks})\n", outcome.elapsed_ms),
    }
}

/// Where a snapshot was cut and how to continue.
pub fn truncation(t: &Truncation) -> String {
    format!(
        "# truncated ({} budget){}{}\n",
        t.reason.name(),
        t.at.as_ref()
            .map(|r| format!(" at {r}"))
            .unwrap_or_default(),
        t.cursor
            .as_ref()
            .map(|c| format!("; continue with cursor \"{c}\""))
            .unwrap_or_default()
    )
}

/// The compact tree with its notes: minimized, truncated.
pub fn snapshot(snapshot: &Snapshot) -> Page {
    let mut trailer = String::new();
    if snapshot.minimized {
        trailer.push_str("# the window is minimized: restore it to read its contents\n");
    }
    if let Some(t) = &snapshot.truncated {
        trailer.push_str(&truncation(t));
    }
    let mut body = snapshot.rendered.text.clone();
    match (&snapshot.changes, snapshot.version()) {
        (Some(Changes::Diff(diff)), Some(version)) => {
            let new = snapshot.lines();
            body = diff_header(diff, &format!("v{version}"));
            body.push_str(&diff_lines(diff, &new, usize::MAX).0);
        }
        (Some(Changes::Whole { why }), Some(version)) => {
            trailer.push_str(&format!("# v{version}, the whole tree ({why})\n"));
        }
        (None, Some(version)) => trailer.push_str(&format!("# v{version}\n")),
        _ => {}
    }
    Page {
        body,
        trailer: (!trailer.is_empty()).then_some(trailer),
    }
}

/// A page of an element's text and where the next starts. The text itself is not escaped:
/// it is the content asked for, not a line of a listing.
pub fn text_page(read: &TextRead) -> Page {
    let s = &read.slice;
    Page {
        body: s.text.clone(),
        trailer: read.next_offset.map(|next| {
            format!(
                "\n# characters {}..{} of {}; next offset {next}\n",
                s.start, s.end, s.total
            )
        }),
    }
}

fn rows_trailer(read: &TableRead) -> String {
    let s = &read.slice;
    format!(
        "# rows {}..{} of {}{}\n",
        s.first_row,
        s.first_row + s.rows.len() as u32,
        s.row_count,
        read.next_row
            .map(|n| format!("; next first_row {n}"))
            .unwrap_or_default()
    )
}

/// A page of a table: headers, then rows, cells separated by ` | `.
pub fn table(read: &TableRead) -> String {
    let line = |cells: &[String]| {
        cells
            .iter()
            .map(|c| escape(c, 60))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let mut text = line(&read.slice.headers);
    text.push('\n');
    for row in &read.slice.rows {
        text.push_str(&line(row));
        text.push('\n');
    }
    text.push_str(&rows_trailer(read));
    text
}

/// A cell of tab-separated values: tabs, line breaks and backslashes escaped, nothing else.
fn tsv_cell(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    for c in cell.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A page of a table as tab-separated values (for shells), its position as the trailer.
pub fn table_tsv(read: &TableRead) -> Page {
    let line = |cells: &[String]| {
        cells
            .iter()
            .map(|c| tsv_cell(c))
            .collect::<Vec<_>>()
            .join("\t")
    };
    let mut body = line(&read.slice.headers);
    body.push('\n');
    for row in &read.slice.rows {
        body.push_str(&line(row));
        body.push('\n');
    }
    Page {
        body,
        trailer: Some(rows_trailer(read)),
    }
}

/// A session opened.
pub fn connected(info: &SessionInfo) -> String {
    format!(
        "session {} on {}{}",
        info.id,
        escape(&info.app.name, 80),
        info.window
            .as_ref()
            .map(|w| format!(", window {}", quoted(w, 100)))
            .unwrap_or_default()
    )
}
