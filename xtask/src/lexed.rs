//! A Rust file's text split into code and comments, for the counting rules. String, char
//! and comment contents are blanked from the code, so a `{` in a string is not a brace. The
//! comment text is kept apart, line by line.

/// One file's code and comments, each with the file's line count.
pub struct Lexed {
    /// The code with every literal's and comment's characters replaced by spaces.
    pub code: Vec<String>,
    /// Each line's `//` comment text, markers (`//`, `///`, `//!`) removed; empty for none.
    pub comments: Vec<String>,
}

/// Where the lexer is.
#[derive(Clone, Copy, PartialEq)]
enum In {
    Code,
    Str,
    /// A raw string closed by `"` and this many `#`.
    Raw(usize),
    Block(usize),
}

/// Splits `text` into code and comments.
pub fn lex(text: &str) -> Lexed {
    let mut state = In::Code;
    let mut code = Vec::new();
    let mut comments = Vec::new();
    for line in text.lines() {
        let (c, comment, next) = lex_line(line, state);
        code.push(c);
        comments.push(comment);
        state = next;
    }
    Lexed { code, comments }
}

/// One line from `state`: its code, its comment, and the state the next line starts in.
fn lex_line(line: &str, mut state: In) -> (String, String, In) {
    let chars: Vec<char> = line.chars().collect();
    let mut code = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match state {
            In::Code if c == '/' && next == Some('/') => {
                let comment: String = chars[i..].iter().collect();
                return (code, comment_text(&comment), state);
            }
            In::Code if c == '/' && next == Some('*') => {
                state = In::Block(1);
                code.push_str("  ");
                i += 2;
                continue;
            }
            In::Code if c == '"' => {
                state = In::Str;
                code.push('"');
            }
            In::Code
                if c == 'r' && raw_start(&chars[i..]).is_some() && !ident_before(&chars, i) =>
            {
                let hashes = raw_start(&chars[i..]).unwrap_or(0);
                state = In::Raw(hashes);
                code.push_str(&" ".repeat(hashes + 1));
                code.push('"');
                i += hashes + 2;
                continue;
            }
            In::Code if c == '\'' => {
                let len = char_literal(&chars[i..]);
                code.push('\'');
                code.push_str(&" ".repeat(len.saturating_sub(1)));
                i += len.max(1);
                continue;
            }
            In::Code => code.push(c),
            In::Str if c == '\\' => {
                code.push_str("  ");
                i += 2;
                continue;
            }
            In::Str if c == '"' => {
                state = In::Code;
                code.push('"');
            }
            In::Raw(hashes) if c == '"' && closes_raw(&chars[i + 1..], hashes) => {
                state = In::Code;
                code.push('"');
                code.push_str(&" ".repeat(hashes));
                i += hashes + 1;
                continue;
            }
            In::Block(depth) if c == '*' && next == Some('/') => {
                state = if depth == 1 {
                    In::Code
                } else {
                    In::Block(depth - 1)
                };
                code.push_str("  ");
                i += 2;
                continue;
            }
            In::Block(depth) if c == '/' && next == Some('*') => {
                state = In::Block(depth + 1);
                code.push_str("  ");
                i += 2;
                continue;
            }
            In::Str | In::Raw(_) | In::Block(_) => code.push(' '),
        }
        i += 1;
    }
    (code, String::new(), state)
}

/// A comment's words: the text after its marker.
fn comment_text(comment: &str) -> String {
    let text = comment.trim_start_matches('/');
    let text = text.strip_prefix('!').unwrap_or(text);
    text.trim().to_owned()
}

/// `r"` or `r#..#"` at the start: how many `#`.
fn raw_start(chars: &[char]) -> Option<usize> {
    let hashes = chars[1..].iter().take_while(|c| **c == '#').count();
    (chars.get(1 + hashes) == Some(&'"')).then_some(hashes)
}

fn closes_raw(after: &[char], hashes: usize) -> bool {
    after.len() >= hashes && after[..hashes].iter().all(|c| *c == '#')
}

/// Whether an identifier character is just before `i` (then `r` is part of a name).
fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// A char literal's length at the start of `chars` (`'a'`, `'\n'`, `'\u{7f}'`), or 1 for a
/// lifetime's quote.
fn char_literal(chars: &[char]) -> usize {
    match chars.get(1) {
        Some('\\') => chars[2..]
            .iter()
            .position(|c| *c == '\'')
            .map_or(1, |end| end + 3),
        Some(_) if chars.get(2) == Some(&'\'') => 3,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_comments_are_blanked_from_the_code() {
        let lexed =
            lex("let a = \"{\"; // a {\nlet b = '{'; let c: &'a str = r#\"}\"#;\n/* { */ x");
        assert_eq!(lexed.code[0], "let a = \" \"; ");
        assert_eq!(lexed.comments[0], "a {");
        assert!(!lexed.code[1].contains(['{', '}']), "{:?}", lexed.code[1]);
        assert!(lexed.code[1].contains("&'a str"), "{:?}", lexed.code[1]);
        assert_eq!(lexed.code[2].trim(), "x");
    }

    #[test]
    fn a_string_over_lines_is_blanked_on_each() {
        let lexed = lex("let s = \"a {\nb }\";\nfn f() {}");
        assert_eq!(lexed.code[1], "   \";");
        assert_eq!(lexed.code[2], "fn f() {}");
    }
}
