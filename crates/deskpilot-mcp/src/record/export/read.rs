//! A recording read back: its header first (a newer format is refused), then its calls; a
//! last line cut short (the server stopped mid-write) is left out with a note.

use super::ExportError;
use crate::record::line::{Entry, Header, Line, VERSION};

/// A recording: its header, its calls in order, and what reading it noticed.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub header: Header,
    pub calls: Vec<Entry>,
    pub notes: Vec<String>,
}

/// The recording in `text`.
pub fn read(text: &str) -> Result<Recorded, ExportError> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let cut_short = !text.ends_with('\n');
    let mut header = None;
    let mut calls = Vec::new();
    let mut notes = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let number = index + 1;
        if number == 1 {
            header = Some(first(line)?);
            continue;
        }
        match serde_json::from_str::<Line>(line) {
            Ok(Line::Call(entry)) => calls.push(entry),
            Ok(Line::Header(_)) => {
                return Err(ExportError::Line {
                    line: number,
                    why: "a second header: one log is one session".into(),
                });
            }
            Err(_) if number == lines.len() && cut_short => {
                notes.push(format!(
                    "line {number} was cut short (the recording stopped while writing it): left out"
                ));
            }
            Err(e) => {
                return Err(ExportError::Line {
                    line: number,
                    why: e.to_string(),
                });
            }
        }
    }
    Ok(Recorded {
        header: header.ok_or(ExportError::NoHeader)?,
        calls,
        notes,
    })
}

/// The header, once its version is known to be one this reads.
fn first(line: &str) -> Result<Header, ExportError> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| ExportError::Line {
        line: 1,
        why: e.to_string(),
    })?;
    if value.get("kind").and_then(|k| k.as_str()) != Some("header") {
        return Err(ExportError::NoHeader);
    }
    let found = value.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
    if found > u64::from(VERSION) {
        return Err(ExportError::Newer {
            found: found as u32,
            known: VERSION,
        });
    }
    match serde_json::from_value::<Line>(value) {
        Ok(Line::Header(header)) => Ok(header),
        Ok(Line::Call(_)) => Err(ExportError::NoHeader),
        Err(e) => Err(ExportError::Line {
            line: 1,
            why: e.to_string(),
        }),
    }
}
