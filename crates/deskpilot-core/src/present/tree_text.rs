//! Reading the compact tree back: each line's depth, role, name, value and bracketed flags,
//! unescaped. Tests compare trees with it (refs aside), and the renderer's round trip is
//! checked with it.

/// One line of the compact tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeLine {
    /// Leading spaces (one per level).
    pub depth: usize,
    /// The role's name (`button`), or `unknown(raw)`.
    pub role: String,
    /// The name, unescaped; a `/regex/` written in place of a quoted name is kept as written
    /// in `name_pattern`.
    pub name: Option<String>,
    pub name_pattern: Option<String>,
    /// A label inferred from the layout (`(label "Name")`), unescaped.
    pub label: Option<String>,
    /// The value after `: ` as written (`"text"` unescaped to text, a number, or
    /// `[redacted N chars]`).
    pub value: Option<String>,
    /// The bracketed flags in order (`focused`, `checked`, `disabled`, `folded`, ...), the ref
    /// excluded.
    pub flags: Vec<String>,
    /// The ref (`e12`), when the line has one.
    pub reference: Option<String>,
}

/// Parses the compact tree (`# ...` note lines and blank lines are skipped). A line that is
/// not a tree line is an error naming it.
pub fn parse_tree(text: &str) -> Result<Vec<TreeLine>, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(parse_line)
        .collect()
}

fn parse_line(line: &str) -> Result<TreeLine, String> {
    let depth = line.len() - line.trim_start_matches(' ').len();
    let rest = line[depth..]
        .strip_prefix("- ")
        .ok_or_else(|| format!("not a tree line (no \"- \"): {line:?}"))?;
    let mut chars = Cursor { text: rest, at: 0 };
    let role = chars.take_role();
    let mut out = TreeLine {
        depth,
        role,
        name: None,
        name_pattern: None,
        label: None,
        value: None,
        flags: Vec::new(),
        reference: None,
    };
    chars.skip_spaces();
    if chars.peek() == Some('"') {
        out.name = Some(
            chars
                .take_quoted()
                .ok_or_else(|| format!("unterminated name: {line:?}"))?,
        );
    } else if chars.peek() == Some('/') {
        out.name_pattern = Some(chars.take_until_unescaped('/', 1));
    } else if chars.rest().starts_with("(label \"") {
        chars.at += "(label ".len();
        out.label = chars.take_quoted();
        if out.label.is_none() || !chars.rest().starts_with(')') {
            return Err(format!("unterminated label: {line:?}"));
        }
        chars.at += 1;
    }
    if chars.rest().starts_with(": ") {
        chars.at += 2;
        out.value = Some(match chars.peek() {
            Some('"') => chars
                .take_quoted()
                .ok_or_else(|| format!("unterminated value: {line:?}"))?,
            Some('[') => chars.take_bracket(),
            _ => chars.take_word(),
        });
    }
    loop {
        chars.skip_spaces();
        match chars.peek() {
            None => break,
            Some('[') => {
                let flag = chars.take_bracket();
                let inner = &flag[1..flag.len() - 1];
                match inner.strip_prefix("ref=") {
                    Some(r) => out.reference = Some(r.to_owned()),
                    None => out.flags.push(inner.to_owned()),
                }
            }
            Some(_) => return Err(format!("unexpected text at {:?} in {line:?}", chars.rest())),
        }
    }
    Ok(out)
}

struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn skip_spaces(&mut self) {
        while self.peek() == Some(' ') {
            self.at += 1;
        }
    }

    /// The role: up to a space (an `unknown(...)` role up to its closing parenthesis).
    fn take_role(&mut self) -> String {
        let rest = self.rest();
        let end = if rest.starts_with("unknown(") {
            rest.find(')').map_or(rest.len(), |e| e + 1)
        } else {
            let space = rest.find(' ').unwrap_or(rest.len());
            rest.find(": ").map_or(space, |colon| colon.min(space))
        };
        self.at += end;
        rest[..end].to_owned()
    }

    fn take_word(&mut self) -> String {
        let rest = self.rest();
        let end = rest.find(' ').unwrap_or(rest.len());
        self.at += end;
        rest[..end].to_owned()
    }

    /// `[...]` with escaped brackets inside, brackets included.
    fn take_bracket(&mut self) -> String {
        self.take_until_unescaped(']', 1)
    }

    /// From the current character up to and including the next unescaped `end` after `skip`
    /// characters.
    fn take_until_unescaped(&mut self, end: char, skip: usize) -> String {
        let rest = self.rest();
        let mut escaped = false;
        for (i, c) in rest.char_indices().skip(skip) {
            match c {
                '\\' if !escaped => escaped = true,
                c if c == end && !escaped => {
                    let len = i + c.len_utf8();
                    self.at += len;
                    return rest[..len].to_owned();
                }
                _ => escaped = false,
            }
        }
        self.at += rest.len();
        rest.to_owned()
    }

    /// A quoted field, unescaped (as `escape` wrote it).
    fn take_quoted(&mut self) -> Option<String> {
        let rest = self.rest();
        let mut out = String::new();
        let mut chars = rest.char_indices().skip(1);
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.at += i + 1;
                    return Some(out);
                }
                '\\' => match chars.next()?.1 {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'u' => {
                        // \u{hex}
                        let mut hex = String::new();
                        for (_, c) in chars.by_ref() {
                            match c {
                                '{' => {}
                                '}' => break,
                                c => hex.push(c),
                            }
                        }
                        out.push(
                            u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)?,
                        );
                    }
                    other => out.push(other),
                },
                c => out.push(c),
            }
        }
        None
    }
}

/// The compact tree without its refs (` [ref=eN]`), for comparing trees across runs. An
/// escaped `\[ref=...\]` in a name is text, and stays.
pub fn strip_refs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut line = line.to_owned();
        while let Some(at) = line.find(" [ref=e") {
            let end = line[at..].find(']').map_or(line.len(), |e| at + e + 1);
            line.replace_range(at..end, "");
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
#[path = "tree_text_tests.rs"]
mod tests;
