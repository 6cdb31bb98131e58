//! A pack's control by name in a selector: `@pack/control`, or `@control` inside the pack's
//! own workflows. A name starts a selector or one of its `>>` steps, outside quotes and
//! brackets; anywhere else `@` is text.

use std::ops::Range;

/// One control named in a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named<'a> {
    /// Where `@...` is in the text.
    pub range: Range<usize>,
    /// The pack, when the name gives one.
    pub pack: Option<&'a str>,
    pub control: &'a str,
}

fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Every control `text` names, in order.
pub fn named(text: &str) -> Vec<Named<'_>> {
    let mut found = Vec::new();
    scan(text, |at, c, previous, depth| {
        if c == '@' && depth == 0 && previous.is_none_or(|p| p.is_whitespace() || p == '>') {
            found.extend(one(text, at));
        }
    });
    found
}

/// Whether the byte at `at` of `text` is inside a quoted value.
pub fn quoted(text: &str, at: usize) -> bool {
    let mut outside = Vec::new();
    scan(text, |i, _, _, _| outside.push(i));
    !outside.contains(&at)
}

/// Calls `each(at, char, previous char, bracket depth)` for every character of `text`
/// outside quotes (the quotes themselves included).
fn scan(text: &str, mut each: impl FnMut(usize, char, Option<char>, usize)) {
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    let mut escaped = false;
    let mut previous: Option<char> = None;
    for (at, c) in text.char_indices() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
        } else {
            each(at, c, previous, depth);
            match c {
                '"' | '\'' => quote = Some(c),
                '[' => depth += 1,
                ']' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        previous = Some(c);
    }
}

/// The name at `at` (an `@`), if one is there.
fn one(text: &str, at: usize) -> Option<Named<'_>> {
    let rest = &text[at + 1..];
    let first = rest.find(|c: char| !name_char(c)).unwrap_or(rest.len());
    let (pack, control, len) = match rest[first..].strip_prefix('/') {
        Some(tail) => {
            let second = tail.find(|c: char| !name_char(c)).unwrap_or(tail.len());
            (Some(&rest[..first]), &tail[..second], first + 1 + second)
        }
        None => (None, &rest[..first], first),
    };
    let valid = !control.is_empty() && pack.is_none_or(|p| !p.is_empty());
    valid.then_some(Named {
        range: at..at + 1 + len,
        pack,
        control,
    })
}

/// `text` with each control named without a pack given `pack`'s.
pub fn qualify(text: &str, pack: &str) -> String {
    let mut out = text.to_owned();
    for n in named(text).iter().rev().filter(|n| n.pack.is_none()) {
        out.replace_range(n.range.clone(), &format!("@{pack}/{}", n.control));
    }
    out
}

/// `text` with each name replaced by what `with` gives for it, asked in order.
pub fn replace<'a>(text: &'a str, mut with: impl FnMut(&Named<'a>) -> String) -> String {
    let names = named(text);
    let replacements: Vec<String> = names.iter().map(&mut with).collect();
    let mut out = text.to_owned();
    for (n, replacement) in names.iter().zip(&replacements).rev() {
        out.replace_range(n.range.clone(), replacement);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names start a selector or a `>>` step; inside quotes or brackets `@` is text.
    #[test]
    fn names_are_found_where_a_step_starts() {
        let text = r#"@mousepad/save_dialog >> @file_name >>button[name="@x/y"] >> a@b"#;
        let found: Vec<(Option<&str>, &str)> =
            named(text).iter().map(|n| (n.pack, n.control)).collect();
        assert_eq!(
            found,
            [(Some("mousepad"), "save_dialog"), (None, "file_name")]
        );
        assert_eq!(
            qualify("@file_name >> @p/q", "mousepad"),
            "@mousepad/file_name >> @p/q"
        );
        assert!(named("@ >> @p/").is_empty());
        let text = r#"button[name="x ${a}"] >> ${b}"#;
        assert!(quoted(text, text.find("${a}").unwrap()));
        assert!(!quoted(text, text.find("${b}").unwrap()));
        assert_eq!(
            replace("@p/a >> @b", |n| n.control.to_uppercase()),
            "A >> B"
        );
        // Asked in order, whatever order the text is rewritten in.
        let mut asked = ["first", "second"].into_iter();
        assert_eq!(
            replace("@p/a >> @p/b", |_| asked.next().unwrap().to_owned()),
            "first >> second"
        );
    }
}
