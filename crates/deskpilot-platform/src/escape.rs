//! Escaping app-provided text for one-line, quoted display: the only place it is done.

use std::fmt::Write;

/// App-provided text as a quoted field (`"..."`, escaped as `escape` does, cut at
/// `max_chars`): what every message that names an element, window or app shows.
pub fn quoted(text: &str, max_chars: usize) -> String {
    format!("\"{}\"", escape(text, max_chars))
}

/// Escapes text for a quoted field on one line: quotes, backslashes, brackets, control and
/// bidi characters (and a leading combining mark) are escaped, so app-provided text can neither
/// end the quote, start a fake `[ref=...]`, break or reorder the line. Long text is cut with an
/// ellipsis.
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
            c if c.is_control() || breaks_the_line(c, count == 0) => {
                write!(out, "\\u{{{:x}}}", c as u32).unwrap()
            }
            c => out.push(c),
        }
    }
    out
}

/// Characters that would break or reorder the line, printed raw: line and paragraph
/// separators (some readers break there), bidi controls (what follows is reordered), and a
/// combining mark `first` (it would combine with the opening quote).
fn breaks_the_line(c: char, first: bool) -> bool {
    matches!(
        c,
        '\u{2028}' | '\u{2029}' | '\u{61c}' | '\u{200e}' | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    ) || first
        && matches!(
            c,
            '\u{300}'..='\u{36f}'
                | '\u{1ab0}'..='\u{1aff}'
                | '\u{1dc0}'..='\u{1dff}'
                | '\u{20d0}'..='\u{20ff}'
                | '\u{fe20}'..='\u{fe2f}'
        )
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn bidi_controls_and_a_leading_combining_mark_are_escaped() {
        let escaped = escape(
            "\u{301}a\u{202e}evil\u{202c} \u{2067}x\u{2069}\u{200f}e\u{301}",
            100,
        );
        assert_eq!(
            escaped,
            "\\u{301}a\\u{202e}evil\\u{202c} \\u{2067}x\\u{2069}\\u{200f}e\u{301}"
        );
    }
}
