//! The presentation layer: every text deskpilot shows a person or a model (the compact tree,
//! find results, truncation and cursors, pages of text and tables, the app list, action
//! reports, failures), built here and escaped here, so that the CLI, the MCP server and the
//! test library print the same thing and app-provided text can never forge a line or a ref.
//! Structured output (JSON) is each face's own business.

mod apps;
mod changes;
mod reading;
mod reports;
mod tree_text;

pub use crate::escape::{escape, quoted};
pub use apps::apps;
pub use changes::{diff_header, diff_lines, tree_update};
pub use reading::{
    connected, element, find, find_in, focus, hit_path, snapshot, table, table_tsv, text_page,
    truncation, unsearched_lines, waited,
};
pub use reports::{action, failure, failure_in, failure_line, launched, shot};
pub use tree_text::{TreeLine, parse_tree, strip_refs};

/// A page of text with what to ask for next, kept apart so that a shell face can print the
/// page on stdout and the trailer on stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub body: String,
    /// `# ...` lines: where the page sits, how to get the next one.
    pub trailer: Option<String>,
}

impl Page {
    /// Body and trailer as one text (what a model reads).
    pub fn joined(&self) -> String {
        match &self.trailer {
            Some(trailer) => format!("{}{trailer}", self.body),
            None => self.body.clone(),
        }
    }
}

#[cfg(test)]
#[path = "present_tests.rs"]
mod tests;
