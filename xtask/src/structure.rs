//! `cargo xtask structure`: the layout rules the code keeps, checked on its text. No Rust file
//! under `crates/*/src` or `xtask/src` is over `MAX_LINES`; no module of a crate depends on a
//! module that depends back on it (`imports.rs`); `deskpilot-core` names no platform outside
//! comments (`PLATFORM_WORDS`).

use std::path::Path;

use crate::source::{code_part, rust_files};

use anyhow::bail;

/// Longest Rust file allowed, in lines.
pub const MAX_LINES: usize = 500;

/// Words platform-neutral core code never uses (comments aside): platform, toolkit and
/// protocol names, and AT-SPI interface methods.
pub const PLATFORM_WORDS: &[&str] = &[
    "AT-SPI",
    "atspi",
    "Atspi",
    "D-Bus",
    "dbus",
    "DBus",
    "zbus",
    "X11",
    "x11",
    "xid",
    "XTEST",
    "EWMH",
    "Xvfb",
    "GTK",
    "Gtk",
    "gtk",
    "Qt",
    "QT_",
    "Gecko",
    "LibreOffice",
    "ATK",
    "Wayland",
    "Chromium",
    "Electron",
    "Firefox",
    "EditableText.",
    "Component.",
    "Selection.",
    "Value.",
    "Text.",
    "Action.",
    "Accessible.",
    "DoAction",
    "GrabFocus",
    "SetTextContents",
    "ScrollTo",
    "GetActions",
    "SelectChild",
];

pub fn run(root: &Path) -> anyhow::Result<()> {
    let mut problems = Vec::new();
    let mut roots = vec![root.join("xtask/src")];
    for entry in std::fs::read_dir(root.join("crates"))? {
        let src = entry?.path().join("src");
        if src.is_dir() {
            roots.push(src);
        }
    }
    roots.sort();
    for src in &roots {
        let files = rust_files(src)?;
        for (file, text) in &files {
            let lines = text.lines().count();
            if lines > MAX_LINES {
                problems.push(format!(
                    "{}: {lines} lines (at most {MAX_LINES}: split it by purpose)",
                    rel(root, file)
                ));
            }
        }
        for cycle in crate::imports::cycles(src, &files) {
            problems.push(format!(
                "import cycle in {}: {}",
                rel(root, src),
                cycle.join(" -> ")
            ));
        }
    }
    let core = root.join("crates/deskpilot-core/src");
    for (file, text) in rust_files(&core)? {
        for (number, line) in text.lines().enumerate() {
            let code = code_part(line);
            for word in PLATFORM_WORDS {
                if contains_word(code, word) {
                    problems.push(format!(
                        "{}:{}: core names the platform ({word:?}): {}",
                        rel(root, &file),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    if problems.is_empty() {
        println!(
            "structure: {} crates, files <= {MAX_LINES} lines, no import cycles, core names no platform",
            roots.len()
        );
        Ok(())
    } else {
        for p in &problems {
            eprintln!("{p}");
        }
        bail!("{} structure problems", problems.len())
    }
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// `word` in `text` at the start of an identifier (`x11_window` and `GtkLabel` count,
/// `max11` does not).
fn contains_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(at) = text[from..].find(word) {
        let start = from + at;
        let before = text[..start].chars().next_back();
        if !word.starts_with(ident) || !before.is_some_and(ident) {
            return true;
        }
        from = start + 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_not_code_and_words_are_whole() {
        assert_eq!(code_part("let a = 1; // X11"), "let a = 1; ");
        assert_eq!(code_part(r#"let s = "a // b";"#), r#"let s = "a // b";"#);
        assert!(contains_word("x11_window", "x11"));
        assert!(!contains_word("max11", "x11"));
        assert!(contains_word("\"Component.GrabFocus\"", "Component."));
        assert!(contains_word("\"GtkLabel\"", "Gtk"));
    }
}
