//! Escaping app-provided text for one-line, quoted display: the only place it is done.

use std::fmt::Write;

/// App-provided text as a quoted field (`"..."`, escaped as `escape` does, cut at
/// `max_chars`): what every message that names an element, window or app shows.
pub fn quoted(text: &str, max_chars: usize) -> String {
    format!("\"{}\"", escape(text, max_chars))
}

/// Escapes text for a quoted field on one line: quotes, backslashes, brackets and control
/// characters are escaped, so app-provided text can neither end the quote, start a fake
/// `[ref=...]`, nor break the line. Long text is cut with an ellipsis.
pub fn escape(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars.saturating_add(8)));
    for (count, c) in text.chars().enumerate() {
        if count == max_chars {
            out.push('…');
            break;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '[' => out.push_str("\\["),
            ']' => out.push_str("\\]"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => write!(out, "\\u{{{:x}}}", c as u32).unwrap(),
            // Line and paragraph separators would break the line in some readers.
            '\u{2028}' | '\u{2029}' => write!(out, "\\u{{{:x}}}", c as u32).unwrap(),
            c => out.push(c),
        }
    }
    out
}
