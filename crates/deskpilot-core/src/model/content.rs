//! Targeted reads beside the snapshot: text and tables, paged.

use serde::Serialize;

/// A range of an element's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextSlice {
    /// The text from `start` (inclusive) to `end` (exclusive), in characters.
    pub text: String,
    pub start: u32,
    pub end: u32,
    /// The element's whole length in characters.
    pub total: u32,
}

/// A page of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableSlice {
    /// Column headers (repeated on every page).
    pub headers: Vec<String>,
    /// The rows of this page, each a cell text per column.
    pub rows: Vec<Vec<String>>,
    /// The index of the first row of this page.
    pub first_row: u32,
    /// Rows and columns the table says it has (may be far more than exist as objects).
    pub row_count: u32,
    pub column_count: u32,
}
