//! Text and tables: a `Text` pattern's document and caret, a grid's cells. Never asked of a
//! secret (the backend checks first).

use deskpilot_platform::Caret;
use windows::Win32::UI::Accessibility::*;
use windows::core::BOOL;

use super::com_error;
use super::uia::Uia;
use crate::raw::{RawElement, RuntimeKey, UiaError};
use crate::source::RawGrid;

/// How many characters of `document` lie before `at`'s `endpoint`.
fn offset(
    document: &IUIAutomationTextRange,
    at: &IUIAutomationTextRange,
    endpoint: TextPatternRangeEndpoint,
) -> Result<u32, UiaError> {
    // SAFETY: COM calls on this thread's objects.
    unsafe {
        let before = document.Clone().map_err(com_error)?;
        before
            .MoveEndpointByRange(TextPatternRangeEndpoint_End, at, endpoint)
            .map_err(com_error)?;
        let text = before.GetText(-1).map_err(com_error)?.to_string();
        Ok(text.chars().count() as u32)
    }
}

impl Uia {
    pub fn text(&mut self, pid: u32, key: &RuntimeKey) -> Result<String, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let pattern: IUIAutomationTextPattern = element
                .GetCurrentPatternAs(UIA_TextPatternId)
                .map_err(com_error)?;
            let range = pattern.DocumentRange().map_err(com_error)?;
            Ok(range.GetText(-1).map_err(com_error)?.to_string())
        }
    }

    /// The caret (`TextPattern2`) and the first selection, in characters from the start.
    pub fn caret(&mut self, pid: u32, key: &RuntimeKey) -> Result<Option<Caret>, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let Ok(pattern) =
                element.GetCurrentPatternAs::<IUIAutomationTextPattern2>(UIA_TextPattern2Id)
            else {
                return Ok(None);
            };
            let mut active = BOOL(0);
            let caret = pattern.GetCaretRange(&mut active).map_err(com_error)?;
            let document = pattern.DocumentRange().map_err(com_error)?;
            let at = offset(&document, &caret, TextPatternRangeEndpoint_Start)?;
            let selections = pattern.GetSelection().map_err(com_error)?;
            let selection = match selections.Length().map_err(com_error)? {
                0 => None,
                _ => {
                    let first = selections.GetElement(0).map_err(com_error)?;
                    let start = offset(&document, &first, TextPatternRangeEndpoint_Start)?;
                    let end = offset(&document, &first, TextPatternRangeEndpoint_End)?;
                    (end > start).then_some((start, end))
                }
            };
            Ok(Some(Caret {
                offset: at,
                selection,
            }))
        }
    }

    /// A grid's cells of some rows, each read as an element.
    pub fn grid_items(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
        first_row: u32,
        max_rows: u32,
    ) -> Result<(u32, Vec<RawElement>), UiaError> {
        let element = self.resolve(pid, key)?;
        let mut cells = Vec::new();
        // SAFETY: COM calls on this thread's objects.
        let rows = unsafe {
            let grid: IUIAutomationGridPattern = element
                .GetCurrentPatternAs(UIA_GridPatternId)
                .map_err(com_error)?;
            let rows = grid.CurrentRowCount().map_err(com_error)?.max(0) as u32;
            let columns = grid.CurrentColumnCount().map_err(com_error)?.max(0) as u32;
            for row in first_row..rows.min(first_row.saturating_add(max_rows)) {
                for column in 0..columns {
                    let cell = grid.GetItem(row as i32, column as i32).map_err(com_error)?;
                    let cell = cell.BuildUpdatedCache(&self.request).map_err(com_error)?;
                    cells.push(cell);
                }
            }
            rows
        };
        Ok((rows, cells.into_iter().map(|c| self.keep(c)).collect()))
    }

    pub fn grid(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
        first_row: u32,
        max_rows: u32,
    ) -> Result<RawGrid, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let grid: IUIAutomationGridPattern = element
                .GetCurrentPatternAs(UIA_GridPatternId)
                .map_err(com_error)?;
            let rows = grid.CurrentRowCount().map_err(com_error)?.max(0) as u32;
            let columns = grid.CurrentColumnCount().map_err(com_error)?.max(0) as u32;
            let headers = match element
                .GetCurrentPatternAs::<IUIAutomationTablePattern>(UIA_TablePatternId)
            {
                Ok(table) => match table.GetCurrentColumnHeaders() {
                    Ok(headers) => Self::all(headers)?
                        .iter()
                        .map(|h| h.CurrentName().map(|n| n.to_string()).unwrap_or_default())
                        .collect(),
                    Err(_) => Vec::new(),
                },
                Err(_) => Vec::new(),
            };
            let last = rows.min(first_row.saturating_add(max_rows));
            let mut page = Vec::new();
            for row in first_row..last {
                let mut cells = Vec::with_capacity(columns as usize);
                for column in 0..columns {
                    let cell = grid.GetItem(row as i32, column as i32).map_err(com_error)?;
                    cells.push(
                        cell.CurrentName()
                            .map(|n| n.to_string())
                            .unwrap_or_default(),
                    );
                }
                page.push(cells);
            }
            Ok(RawGrid {
                headers,
                rows: page,
                row_count: rows,
                column_count: columns,
            })
        }
    }
}
