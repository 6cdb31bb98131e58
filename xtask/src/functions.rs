//! A ratchet on long functions: how many functions under the tidy's roots run over
//! `MAX_LINES` lines, never more than `LIMIT`. A long function is split by what it does,
//! which a file cap could not ask.

use crate::lexed::Lexed;

/// A function longer than this many lines counts.
pub const MAX_LINES: usize = 80;

/// At most this many long functions: 35 when the ratchet was set (2026-12-03), 33 once the
/// pipeline runner was split. Lower it as functions are split.
pub const LIMIT: usize = 33;

/// Each function of a lexed file over `MAX_LINES`: its name, first line (from 1) and length.
pub fn long_ones(lexed: &Lexed) -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    for (start, line) in lexed.code.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let Some(end) = body_end(&lexed.code, start) else {
            continue;
        };
        let length = end - start + 1;
        if length > MAX_LINES {
            found.push((name, start + 1, length));
        }
    }
    found
}

/// The name of the function a code line declares.
fn fn_name(code: &str) -> Option<String> {
    let mut words = code.split(|c: char| !(c.is_alphanumeric() || c == '_'));
    words.by_ref().find(|w| *w == "fn")?;
    let name = words.find(|w| !w.is_empty())?;
    let declared = code.split_whitespace().any(|w| w == "fn");
    declared.then(|| name.to_owned())
}

/// The line where the body opened after `start` closes; `None` for a declaration (`;`).
fn body_end(code: &[String], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut opened = false;
    for (n, line) in code.iter().enumerate().skip(start) {
        for c in line.chars() {
            match c {
                ';' if !opened && depth == 0 => return None,
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' if opened => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(n);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexed::lex;

    #[test]
    fn a_function_of_81_lines_is_long_and_one_of_80_is_not() {
        let body = |n: usize| format!("fn f() {{\n{}}}\n", "    x();\n".repeat(n - 2));
        assert_eq!(long_ones(&lex(&body(81))), [("f".to_owned(), 1, 81)]);
        assert!(long_ones(&lex(&body(80))).is_empty());
    }

    #[test]
    fn a_declaration_and_a_brace_in_a_string_are_not_bodies() {
        let text = "trait T {\n    fn g(&self);\n}\nfn h() { let s = \"{\"; }\n";
        assert!(long_ones(&lex(text)).is_empty());
    }
}
