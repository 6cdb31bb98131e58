//! Text and tables: a `Text` pattern's document and caret, a grid's cells. Never asked of a
//! secret (the backend checks first).

use deskpilot_platform::Caret;
use windows::Win32::UI::Accessibility::*;
use windows::core::{BOOL, BSTR, Interface};

use super::uia::Uia;
use super::{com_error, props, variant};
use crate::raw::{RawElement, RuntimeKey, UiaError};
use crate::source::{RawGrid, TextRead};

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

/// A selection's start and end in characters, from its own text's length and the caret
/// where the caret is at either end (no text before it read again), else from the text
/// before it. So the text before the caret is read once, not once per endpoint (review A6).
fn selection(
    document: &IUIAutomationTextRange,
    caret: &IUIAutomationTextRange,
    caret_at: u32,
    selected: &IUIAutomationTextRange,
) -> Result<Option<(u32, u32)>, UiaError> {
    // SAFETY: COM calls on this thread's objects.
    unsafe {
        let at_caret = |endpoint| {
            selected
                .CompareEndpoints(endpoint, caret, TextPatternRangeEndpoint_Start)
                .map(|apart| apart == 0)
                .map_err(com_error)
        };
        let text = selected.GetText(-1).map_err(com_error)?.to_string();
        let length = text.chars().count() as u32;
        let start = if at_caret(TextPatternRangeEndpoint_Start)? {
            caret_at
        } else if at_caret(TextPatternRangeEndpoint_End)? {
            caret_at.saturating_sub(length)
        } else {
            offset(document, selected, TextPatternRangeEndpoint_Start)?
        };
        Ok((length > 0).then_some((start, start + length)))
    }
}

/// The document's length in the provider's characters: a range moved from its start to
/// its end counts them, handing no text over.
fn length(document: &IUIAutomationTextRange) -> Result<u32, UiaError> {
    // SAFETY: COM calls on this thread's objects.
    unsafe {
        let probe = document.Clone().map_err(com_error)?;
        probe
            .MoveEndpointByRange(
                TextPatternRangeEndpoint_End,
                &probe,
                TextPatternRangeEndpoint_Start,
            )
            .map_err(com_error)?;
        let moved = probe
            .MoveEndpointByUnit(TextPatternRangeEndpoint_End, TextUnit_Character, i32::MAX)
            .map_err(com_error)?;
        Ok(moved.max(0) as u32)
    }
}

/// Characters `start..end` of the document (to its end where `None`): a range moved there,
/// then its text alone; with where it starts and ends as the moves counted them (the
/// provider's characters, whatever its unit).
fn page(
    document: &IUIAutomationTextRange,
    start: u32,
    end: Option<u32>,
) -> Result<(String, u32, Option<u32>), UiaError> {
    let clamp = |n: u32| n.min(i32::MAX as u32) as i32;
    // SAFETY: COM calls on this thread's objects.
    unsafe {
        let range = document.Clone().map_err(com_error)?;
        let moved = range
            .MoveEndpointByUnit(
                TextPatternRangeEndpoint_Start,
                TextUnit_Character,
                clamp(start),
            )
            .map_err(com_error)?;
        let start = moved.max(0) as u32;
        let mut ends = None;
        if let Some(end) = end {
            range
                .MoveEndpointByRange(
                    TextPatternRangeEndpoint_End,
                    &range,
                    TextPatternRangeEndpoint_Start,
                )
                .map_err(com_error)?;
            let length = clamp(end.saturating_sub(start));
            let moved = range
                .MoveEndpointByUnit(TextPatternRangeEndpoint_End, TextUnit_Character, length)
                .map_err(com_error)?;
            ends = Some(start + moved.max(0) as u32);
        }
        let text = range.GetText(-1).map_err(com_error)?.to_string();
        Ok((text, start, ends))
    }
}

/// The cells of row `row` among `parent`'s cached children, in column order; `None` where
/// they are not the row's `columns` cells (a group of rows, not a row), to read one by one.
fn row_cells(
    parent: &IUIAutomationElement,
    row: u32,
    columns: Option<i32>,
) -> Result<Option<Vec<IUIAutomationElement>>, UiaError> {
    let mut cells = Uia::found(
        // SAFETY: reads the element's cache (no cross-process call).
        unsafe { parent.GetCachedChildren() },
    )?;
    let at = |c: &IUIAutomationElement, p| props::cached(c, p).i32();
    cells.retain(|c| at(c, UIA_GridItemRowPropertyId) == Some(row as i32));
    cells.retain(|c| at(c, UIA_GridItemColumnPropertyId).is_some());
    cells.sort_by_key(|c| at(c, UIA_GridItemColumnPropertyId));
    let whole = columns.is_none_or(|n| cells.len() == n.max(0) as usize) && !cells.is_empty();
    Ok(whole.then_some(cells))
}

impl Uia {
    /// A page of the document, or its whole text where it holds a CR LF (`TextRead`).
    pub fn text(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
        start: u32,
        end: Option<u32>,
    ) -> Result<TextRead, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let pattern: IUIAutomationTextPattern = element
                .GetCurrentPatternAs(UIA_TextPatternId)
                .map_err(com_error)?;
            let document = pattern.DocumentRange().map_err(com_error)?;
            // The provider searches; no text comes back but a range where it found one.
            let crlf = match document.FindText(&BSTR::from("\r\n"), false, false) {
                Ok(found) => !found.as_raw().is_null(),
                // Not found answers success and no range.
                Err(e) if e.code().is_ok() => false,
                // A provider that cannot search: its whole text, read as LF.
                Err(_) => true,
            };
            if crlf {
                let text = document.GetText(-1).map_err(com_error)?.to_string();
                return Ok(TextRead::Whole(text));
            }
            let total = length(&document)?;
            let (text, start, end) = page(&document, start, end)?;
            Ok(TextRead::Page {
                text,
                start,
                end: end.unwrap_or(total).max(start),
                total,
            })
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
                    selection(&document, &caret, at, &first)?
                }
            };
            Ok(Some(Caret {
                offset: at,
                selection,
            }))
        }
    }

    /// A grid's size (cached with one call) and its column headers: the names of its
    /// `Header` child's items (one call), else the Table pattern's headers, one by one.
    pub fn grid(&mut self, pid: u32, key: &RuntimeKey) -> Result<RawGrid, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let fresh = element
                .BuildUpdatedCache(&self.request)
                .map_err(com_error)?;
            let size = |p| props::cached(&fresh, p).i32().unwrap_or(0).max(0) as u32;
            let (row_count, column_count) = (
                size(UIA_GridRowCountPropertyId),
                size(UIA_GridColumnCountPropertyId),
            );
            let headers = match self.header_row(&element)? {
                Some(names) => names,
                None => self.table_headers(&element),
            };
            Ok(RawGrid {
                headers,
                row_count,
                column_count,
            })
        }
    }

    /// The names of the items of the grid's `Header` child, in one call; `None` without one.
    fn header_row(&self, grid: &IUIAutomationElement) -> Result<Option<Vec<String>>, UiaError> {
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let header = self
                .automation
                .CreatePropertyCondition(
                    UIA_ControlTypePropertyId,
                    &variant::of_i32(UIA_HeaderControlTypeId.0).0,
                )
                .map_err(com_error)?;
            let found = grid.FindFirstBuildCache(TreeScope_Children, &header, &self.rows);
            let Ok(header) = found else {
                return Ok(None);
            };
            let items = Self::found(header.GetCachedChildren())?;
            Ok(Some(items.iter().map(|h| props::raw(h).name).collect()))
        }
    }

    /// The Table pattern's column headers, each name its own call.
    fn table_headers(&self, grid: &IUIAutomationElement) -> Vec<String> {
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let Ok(table) =
                grid.GetCurrentPatternAs::<IUIAutomationTablePattern>(UIA_TablePatternId)
            else {
                return Vec::new();
            };
            let Ok(headers) = table.GetCurrentColumnHeaders() else {
                return Vec::new();
            };
            Self::all(headers)
                .unwrap_or_default()
                .iter()
                .map(|h| h.CurrentName().map(|n| n.to_string()).unwrap_or_default())
                .collect()
        }
    }

    /// A grid row's cells, in column order: its first cell (`GetItem`), then the row with
    /// its cells cached (one call). Cells straight under the grid are read one by one.
    pub fn grid_row(
        &mut self,
        pid: u32,
        key: &RuntimeKey,
        row: u32,
    ) -> Result<Vec<RawElement>, UiaError> {
        let element = self.resolve(pid, key)?;
        // SAFETY: COM calls on this thread's objects.
        let cells = unsafe {
            let grid: IUIAutomationGridPattern = element
                .GetCurrentPatternAs(UIA_GridPatternId)
                .map_err(com_error)?;
            let first = grid.GetItem(row as i32, 0).map_err(com_error)?;
            // The parent alone first: where it is the grid, its children are every cell.
            let parent = self.walker.GetParentElement(&first).map_err(com_error)?;
            let flat = self
                .automation
                .CompareElements(&parent, &element)
                .map_err(com_error)?;
            let columns = props::cached(&element, UIA_GridColumnCountPropertyId).i32();
            let cells = match flat.as_bool() {
                true => None,
                false => {
                    let parent = parent.BuildUpdatedCache(&self.rows).map_err(com_error)?;
                    row_cells(&parent, row, columns)?
                }
            };
            match cells {
                Some(cells) => cells,
                None => self.cells_one_by_one(&grid, row)?,
            }
        };
        Ok(cells.into_iter().map(|c| self.keep(c)).collect())
    }

    /// Each cell of a row asked alone: where a grid holds its cells with no row element.
    fn cells_one_by_one(
        &self,
        grid: &IUIAutomationGridPattern,
        row: u32,
    ) -> Result<Vec<IUIAutomationElement>, UiaError> {
        // SAFETY: COM calls on this thread's objects.
        unsafe {
            let columns = grid.CurrentColumnCount().map_err(com_error)?.max(0);
            (0..columns)
                .map(|column| {
                    let cell = grid.GetItem(row as i32, column).map_err(com_error)?;
                    cell.BuildUpdatedCache(&self.request).map_err(com_error)
                })
                .collect()
        }
    }
}
