//! The tidy rules the code keeps, checked on its text (`cargo xtask structure`, and the `tidy`
//! test here, which `cargo test --workspace` runs), on every Rust file under `crates/*/src`
//! and `xtask/src`. Long functions and long comment sentences are ratchets
//! (`functions.rs`, `sentences.rs`); a file over `MAX_LINES` is a warning. No module of a crate depends on a module that depends back
//! on it (`imports.rs`), and no top-level modules in a circle beyond `KNOWN_CIRCLES`; a
//! layered crate's modules use lower layers only (`layers.rs`); core's shell types keep their
//! method counts (`methods.rs`); no face depends on a backend crate (`faces.rs`);
//! `deskpilot-core` and `deskpilot-platform` name no platform outside comments
//! (`PLATFORM_WORDS`).

use std::path::Path;

use crate::source::{code_part, rust_files};

use anyhow::bail;

/// A file longer than this, in lines, is warned about.
pub const MAX_LINES: usize = 500;

/// The crates that name no platform: the engine and the contract its backends fill in.
pub const NEUTRAL_CRATES: &[&str] = &["crates/deskpilot-core/src", "crates/deskpilot-platform/src"];

/// Words platform-neutral code never uses (comments aside): platform, toolkit and
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
    for warning in warnings(root)? {
        eprintln!("warning: {warning}");
    }
    let problems = problems(root)?;
    if problems.is_empty() {
        println!(
            "structure: no import cycles, long functions and sentences no more, no new circles of modules, layers kept, the engine no wider, neutral crates name no platform"
        );
        Ok(())
    } else {
        for p in &problems {
            eprintln!("{p}");
        }
        bail!("{} structure problems", problems.len())
    }
}

/// Every broken rule under `root` (a workspace), one line each.
pub fn problems(root: &Path) -> anyhow::Result<Vec<String>> {
    let mut problems = Vec::new();
    let roots = roots(root)?;
    let mut long = Long::default();
    for src in &roots {
        let files = rust_files(src)?;
        for (file, text) in &files {
            long.count(&rel(root, file), text);
        }
        let graph = crate::imports::graph(src, &files);
        for cycle in crate::imports::cycles(&graph) {
            problems.push(format!(
                "import cycle in {}: {}",
                rel(root, src),
                cycle.join(" -> ")
            ));
        }
        let here = rel(root, src);
        problems.extend(circles(&here, &graph));
        for table in crate::layers::TABLES.iter().filter(|t| t.src == here) {
            problems.extend(crate::layers::violations(table, &graph));
        }
    }
    problems.extend(long.problems());
    problems.extend(crate::methods::problems(root)?);
    problems.extend(crate::faces::problems(root)?);
    for neutral in NEUTRAL_CRATES {
        let src = root.join(neutral);
        if !src.is_dir() {
            continue;
        }
        for (file, text) in rust_files(&src)? {
            for (number, line) in text.lines().enumerate() {
                let code = code_part(line);
                for word in PLATFORM_WORDS {
                    if contains_word(code, word) {
                        problems.push(format!(
                            "{}:{}: a platform-neutral crate names the platform ({word:?}): {}",
                            rel(root, &file),
                            number + 1,
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    Ok(problems)
}

/// The source folders the rules read: `xtask/src` and each crate's `src`.
fn roots(root: &Path) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let mut roots = vec![root.join("xtask/src")];
    for entry in std::fs::read_dir(root.join("crates"))? {
        let src = entry?.path().join("src");
        if src.is_dir() {
            roots.push(src);
        }
    }
    roots.sort();
    Ok(roots)
}

/// Files over `MAX_LINES`: a warning, not a rule (split by purpose, not by size).
pub fn warnings(root: &Path) -> anyhow::Result<Vec<String>> {
    let mut warnings = Vec::new();
    for src in roots(root)? {
        for (file, text) in rust_files(&src)? {
            let lines = text.lines().count();
            if lines > MAX_LINES {
                warnings.push(format!(
                    "{}: {lines} lines (over {MAX_LINES}: does it hold one purpose?)",
                    rel(root, &file)
                ));
            }
        }
    }
    Ok(warnings)
}

/// The long functions and long comment sentences found, for their ratchets.
#[derive(Default)]
struct Long {
    functions: Vec<String>,
    sentences: Vec<String>,
}

impl Long {
    fn count(&mut self, file: &str, text: &str) {
        let lexed = crate::lexed::lex(text);
        for (name, line, length) in crate::functions::long_ones(&lexed) {
            self.functions
                .push(format!("{file}:{line}: fn {name}, {length} lines"));
        }
        for (line, words) in crate::sentences::long_ones(&lexed) {
            self.sentences
                .push(format!("{file}:{line}: a sentence of {words} words"));
        }
    }

    /// The ratchets over their limits, each with its list.
    fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let rules = [
            (
                &self.functions,
                crate::functions::LIMIT,
                "functions over 80 lines",
                "xtask/src/functions.rs",
            ),
            (
                &self.sentences,
                crate::sentences::LIMIT,
                "comment sentences over 40 words",
                "xtask/src/sentences.rs",
            ),
        ];
        for (found, limit, what, rule) in rules {
            if found.len() > limit {
                problems.push(format!(
                    "{} {what} (at most {limit}: {rule}):\n  {}",
                    found.len(),
                    found.join("\n  ")
                ));
            }
        }
        problems
    }
}

/// Circles among top-level modules that the code still has, with why (issue 41 and 42 removed
/// them all; a new one fails, and one that is gone must leave this list).
pub const KNOWN_CIRCLES: &[(&str, &[&str], &str)] = &[];

/// The circles among `src`'s top-level modules not in `KNOWN_CIRCLES`, and the known ones
/// that are gone.
fn circles(src: &str, graph: &crate::imports::Graph) -> Vec<String> {
    let found = crate::imports::top_level_cycles(graph);
    let mut problems: Vec<String> = found
        .iter()
        .filter(|c| {
            !KNOWN_CIRCLES
                .iter()
                .any(|(s, k, _)| *s == src && *k == c.as_slice())
        })
        .map(|c| {
            format!(
                "{src}: its top-level modules import each other in a circle: {}",
                c.join(", ")
            )
        })
        .collect();
    for (s, known, _) in KNOWN_CIRCLES.iter().filter(|(s, _, _)| *s == src) {
        if !found.iter().any(|c| c.as_slice() == *known) {
            problems.push(format!(
                "{s}: the circle {} is gone: remove it from KNOWN_CIRCLES",
                known.join(", ")
            ));
        }
    }
    problems
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

    /// The tidy test: this workspace keeps every rule.
    #[test]
    fn tidy() {
        let problems = problems(&crate::root()).unwrap();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// A scratch workspace with one crate, `crates/demo/src`, holding `files`.
    fn scratch(name: &str, files: &[(&str, String)]) -> std::path::PathBuf {
        let root = std::env::temp_dir().join(format!("xtask-tidy-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let src = root.join("crates/demo/src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::create_dir_all(root.join("xtask/src")).unwrap();
        for (file, text) in files {
            std::fs::write(src.join(file), text).unwrap();
        }
        root
    }

    #[test]
    fn a_file_of_501_lines_is_a_warning_not_a_problem() {
        let long = "fn f() {}\n".repeat(MAX_LINES + 1);
        let root = scratch(
            "long",
            &[("lib.rs", "mod long;\n".into()), ("long.rs", long)],
        );
        assert!(problems(&root).unwrap().is_empty());
        let warned = warnings(&root).unwrap();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(warned[0].contains("long.rs: 501 lines"), "{warned:?}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn one_long_function_over_the_ratchet_is_a_problem() {
        let mut long = Long::default();
        let body = format!("fn f() {{\n{}}}\n", "    x();\n".repeat(90));
        for n in 0..=crate::functions::LIMIT {
            long.count(&format!("f{n}.rs"), &body);
        }
        let found = long.problems();
        assert_eq!(found.len(), 1, "{found:?}");
        let over = format!("{} functions over 80 lines", crate::functions::LIMIT + 1);
        assert!(found[0].starts_with(&over), "{found:?}");
    }

    #[test]
    fn an_upward_import_fails() {
        let table = crate::layers::Layers {
            src: "crates/demo/src",
            layers: &[&["model"], &["engine"]],
            exceptions: &[],
        };
        let files = [
            ("lib.rs", "mod engine;\nmod model;\n".to_owned()),
            ("engine.rs", "use crate::model::Node;\n".to_owned()),
            ("model.rs", "pub struct Node;\n".to_owned()),
        ];
        let root = scratch("layers", &files);
        let src = root.join("crates/demo/src");
        let graph = |root: &Path| {
            crate::imports::graph(&src, &rust_files(&root.join("crates/demo/src")).unwrap())
        };
        assert!(crate::layers::violations(&table, &graph(&root)).is_empty());
        std::fs::write(
            src.join("model.rs"),
            "pub struct Node(crate::engine::Id);\n",
        )
        .unwrap();
        std::fs::write(src.join("engine.rs"), "pub struct Id;\n").unwrap();
        let found = crate::layers::violations(&table, &graph(&root));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("model.rs: model uses engine, a module above it"),
            "{found:?}"
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    /// `a/` uses `b`, `b` uses `a/c.rs`: no file is in a cycle, the folders are.
    #[test]
    fn a_circle_of_top_level_modules_fails() {
        let files = [
            ("lib.rs", "mod a;\nmod b;\n".to_owned()),
            ("b.rs", "pub struct B(crate::a::c::C);\n".to_owned()),
        ];
        let root = scratch("circle", &files);
        let src = root.join("crates/demo/src");
        std::fs::create_dir_all(src.join("a")).unwrap();
        std::fs::write(
            src.join("a/mod.rs"),
            "pub mod c;\npub struct A(crate::b::B);\n",
        )
        .unwrap();
        std::fs::write(src.join("a/c.rs"), "pub struct C;\n").unwrap();
        let found = problems(&root).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("in a circle: a, b"), "{found:?}");
        let _ = std::fs::remove_dir_all(&root);
    }

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
