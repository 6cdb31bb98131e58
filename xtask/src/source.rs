//! Reading the workspace's Rust sources for the layout checks: the files, and each line's
//! code without its comment.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// Every `.rs` file under `dir`, with its text.
pub fn rust_files(dir: &Path) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| d.display().to_string())? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path)?;
                out.push((path, text));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A line without its `//` comment (string contents are kept: a message is code).
pub fn code_part(line: &str) -> &str {
    let mut in_string = false;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '"' if prev != '\\' => in_string = !in_string,
            '/' if !in_string && prev == '/' => return &line[..i - 1],
            _ => {}
        }
        prev = if prev == '\\' && c == '\\' { ' ' } else { c };
    }
    line
}
