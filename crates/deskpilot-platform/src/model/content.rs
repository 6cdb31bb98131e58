//! Targeted reads beside the snapshot: text and tables, paged.

use serde::Serialize;

use super::ElementId;

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

impl TextSlice {
    /// Characters `start..end` of `text` (`end` = None: to its end), clamped to it.
    pub fn of(text: &str, start: u32, end: Option<u32>) -> TextSlice {
        let total = text.chars().count() as u32;
        let start = start.min(total);
        let end = end.unwrap_or(total).clamp(start, total);
        TextSlice {
            text: text
                .chars()
                .skip(start as usize)
                .take((end - start) as usize)
                .collect(),
            start,
            end,
            total,
        }
    }
}

/// A page of a table's cells, by name (searching a long table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableCells {
    /// Rows the table says it has.
    pub row_count: u32,
    /// The row after the last one read.
    pub next_row: u32,
    /// Each cell read (or a part of it that holds its text), with its name.
    pub cells: Vec<(ElementId, String)>,
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
