//! `deskpilot export LOG --as test|pipeline|workflow`: a recording (`docs/recording.md`)
//! made a test a person would have written, a pipeline, or an app pack workflow. Reads that changed nothing are dropped. Repeated tries of a call are
//! folded into the one that worked, with a comment. Each confirmed effect becomes the
//! expectation that was read back. An export holds no ref, time or id, so a golden file
//! can hold it.

mod pipeline;
mod plan;
mod read;
mod test;
mod workflow;

pub use read::{Recorded, read};

/// What an export is made as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A Rust test for `deskpilot-test`.
    Test,
    /// A pipeline for `deskpilot run` / `run_steps`.
    Pipeline,
    /// An app pack workflow, with the `controls.json` entries it needs.
    Workflow,
}

/// An export, and what the reader should know of it (a truncated last line, calls that
/// failed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Export {
    pub text: String,
    pub notes: Vec<String>,
}

/// Why a log cannot be exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error("line {line}: {why}")]
    Line { line: usize, why: String },
    #[error("the log is of format version {found}; this deskpilot reads version {known} and older")]
    Newer { found: u32, known: u32 },
    #[error("the log has no header line")]
    NoHeader,
    #[error("call {seq} ({tool}): {why}")]
    Call { seq: u64, tool: String, why: String },
}

/// The log `text` exported as `kind`; `known` says which tools exist
/// (`deskpilot_mcp::has_tool`).
pub fn export(text: &str, kind: Kind, known: &dyn Fn(&str) -> bool) -> Result<Export, ExportError> {
    let recorded = read(text)?;
    let plan = plan::plan(&recorded, known)?;
    let text = match kind {
        Kind::Test => test::test(&recorded.header, &plan),
        Kind::Pipeline => pipeline::pipeline(&recorded.header, &plan)?,
        Kind::Workflow => workflow::workflow(&recorded.header, &plan)?,
    };
    let mut notes = recorded.notes;
    notes.extend(plan.notes());
    Ok(Export { text, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = r#"{"kind":"header","version":1,"session":"s1","app":{"name":"Editor"},"connect":{"app":"Editor"}}"#;
    const CLICK: &str = r#"{"kind":"call","seq":1,"tool":"click","args":{"target":"e5"},"elements":[{"arg":"target","given":"e5","locator":"button[name=\"OK\"]","basis":"name"}],"ok":true,"effect":"confirmed"}"#;

    fn every(_: &str) -> bool {
        true
    }

    /// A newer format, a log with no header, a second header: each a clear error.
    #[test]
    fn what_cannot_be_read_is_refused() {
        let newer = HEADER.replace(r#""version":1"#, r#""version":2"#);
        let error = export(&format!("{newer}\n"), Kind::Test, &every).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the log is of format version 2; this deskpilot reads version 1 and older"
        );
        assert_eq!(
            export(&format!("{CLICK}\n"), Kind::Test, &every).unwrap_err(),
            ExportError::NoHeader
        );
        let twice = format!("{HEADER}\n{HEADER}\n");
        assert!(matches!(
            export(&twice, Kind::Test, &every),
            Err(ExportError::Line { line: 2, .. })
        ));
    }

    /// A last line cut short is left out and said; one cut short inside the log is an error.
    #[test]
    fn a_last_line_cut_short_is_left_out() {
        let cut = &CLICK[..40];
        let exported = export(&format!("{HEADER}\n{CLICK}\n{cut}"), Kind::Test, &every).unwrap();
        assert!(
            exported.text.contains(r#"button[name="OK"]"#),
            "{}",
            exported.text
        );
        assert_eq!(exported.notes.len(), 1, "{:?}", exported.notes);
        let inside = format!("{HEADER}\n{cut}\n{CLICK}\n");
        assert!(matches!(
            export(&inside, Kind::Test, &every),
            Err(ExportError::Line { line: 2, .. })
        ));
    }

    /// A tool this deskpilot does not have, and a ref that was never located: errors naming
    /// the call, never a test without the step.
    #[test]
    fn a_call_that_cannot_be_replayed_is_refused() {
        let log = format!("{HEADER}\n{CLICK}\n");
        let none = export(&log, Kind::Test, &|_| false).unwrap_err();
        assert!(
            none.to_string().starts_with("call 1 (click): no tool"),
            "{none}"
        );
        let unlocated = CLICK.replace(r#","locator":"button[name=\"OK\"]","basis":"name""#, "");
        let error = export(&format!("{HEADER}\n{unlocated}\n"), Kind::Test, &every).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("a ref means nothing in another run"),
            "{error}"
        );
    }
}
