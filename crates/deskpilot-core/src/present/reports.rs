//! What acting, launching and capturing report, and failures.

use super::escape;
use crate::act::{ActionReport, effect_name, rung_name};
use crate::capture::Shot;
use crate::error::Error;
use crate::hint::{FaceVerb, worded};
use crate::launch::Launched;
use crate::platform::Cover;

/// An action's report: the verb, the ref, the effect and its route, what changed, then the
/// rungs skipped (one line each).
pub fn action(report: &ActionReport) -> String {
    let mut line = format!(
        "{} {}: {}",
        report.verb,
        report.reference,
        effect_name(report.effect)
    );
    if let Some(route) = &report.route {
        line.push_str(&format!(" via {}", route.how));
    }
    if !report.changes.is_empty() {
        line.push_str(&format!(" ({})", report.changes.join("; ")));
    }
    if let Some(note) = &report.note {
        line.push_str(&format!(". {note}"));
    }
    for skipped in &report.skipped {
        line.push_str(&format!(
            "\nskipped {}: {}",
            rung_name(skipped.rung),
            skipped.why
        ));
    }
    if report.foreground_changed == Some(true) {
        line.push_str("\nthe active window changed");
    }
    match (
        report.interaction.raised_window,
        report.interaction.pointer_moved,
    ) {
        (true, true) => line.push_str("\nraised its window and moved the pointer"),
        (true, false) => line.push_str("\nraised its window"),
        (false, true) => line.push_str("\nmoved the pointer"),
        (false, false) => {}
    }
    if let Some(tree) = &report.tree {
        line.push('\n');
        line.push_str(super::tree_update(tree).trim_end());
    }
    line
}

/// A failure as a model reads it: `code (retryable): message Hint: hint`.
pub fn failure(error: &Error) -> String {
    failure_in(error, &|verb| verb.marker().to_owned())
}

/// `failure`, with the verbs its message and hint name in a face's words.
pub fn failure_in(error: &Error, word: &dyn Fn(FaceVerb) -> String) -> String {
    let mut text = format!(
        "{} ({}): {} Hint: {}",
        error.code.name(),
        if error.retryable() {
            "retryable"
        } else {
            "not retryable"
        },
        worded(&error.message, word),
        worded(&error.hint, word)
    );
    if let Some(tree) = &error.tree {
        text.push('\n');
        text.push_str(super::tree_update(tree).trim_end());
    }
    text
}

/// A failure on one line for a shell: `code (message): hint`, the verbs in `word`'s words.
pub fn failure_line(error: &Error, word: &dyn Fn(FaceVerb) -> String) -> String {
    format!(
        "{} ({}): {}",
        error.code.name(),
        worded(&error.message, word),
        worded(&error.hint, word)
    )
}

/// A program started and registered.
pub fn launched(program: &str, launched: &Launched) -> String {
    let app = &launched.app;
    format!(
        "started \"{}\" (pid {}); registered as \"{}\" pid {} with {} window(s): {}",
        escape(program, 200),
        launched.spawned_pid,
        escape(&app.name, 80),
        app.pid.map_or("?".into(), |p| p.to_string()),
        app.windows.len(),
        app.windows
            .iter()
            .map(|w| format!("\"{}\"", escape(&w.title, 100)))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A screenshot taken.
pub fn shot(shot: &Shot) -> String {
    format!(
        "{}x{} PNG of ({}, {}) {}x{}{}, {} refs labelled",
        shot.width,
        shot.height,
        shot.region.x,
        shot.region.y,
        shot.region.width,
        shot.region.height,
        if shot.scale < 1.0 {
            format!(" scaled by {:.2}", shot.scale)
        } else {
            String::new()
        },
        shot.labels
    ) + cover_note(shot.cover)
}

/// What a covered window's image shows, said because a screenshot of it can mislead.
fn cover_note(cover: Option<Cover>) -> &'static str {
    match cover {
        Some(Cover::Shown) => {
            "; another window covers part of it and shows in the image: raise the window first"
        }
        Some(Cover::Redrawn) => {
            "; another window covers part of it: the window drew its own content for the image"
        }
        Some(Cover::Clear) | None => "",
    }
}
