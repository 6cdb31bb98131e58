//! The last lines of a log file, for error messages.

use std::path::Path;

/// The last `lines` lines of the file at `path` (empty if it cannot be read).
pub fn tail_of_file(path: &Path, lines: usize) -> String {
    let Ok(bytes) = std::fs::read(path) else {
        return String::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
