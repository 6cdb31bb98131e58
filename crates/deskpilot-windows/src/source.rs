//! The seam between the backend and UI Automation: what the backend asks, in plain records.
//! `com/` answers it on Windows (COM on worker threads); `FakeUia` answers it anywhere, from
//! trees written as text. Every method is one cross-process call (or none); the backend
//! bounds each with its deadline, so an implementation need not.

use std::sync::Arc;

use async_trait::async_trait;
use deskpilot_platform::{Caret, Performed};

use crate::events::EventLog;
use crate::mapping::routes::PatternOp;

use crate::raw::{RawElement, RawProcess, RuntimeKey, UiaError};

/// What a `Text` pattern gave of its document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextRead {
    /// Characters `start..end` of a document that holds no CR LF, and its length: no other
    /// text handed over. All in the provider's characters, as its moves counted them.
    Page {
        text: String,
        start: u32,
        end: u32,
        total: u32,
    },
    /// The whole text of a document that holds a CR LF: its offsets as read (LF) need the
    /// text before them.
    Whole(String),
}

/// A grid's size and its column headers' names.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawGrid {
    pub headers: Vec<String>,
    pub row_count: u32,
    pub column_count: u32,
}

/// How far below an element a read reaches (`TreeScope_Children`, `TreeScope_Descendants`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Below {
    Children,
    Descendants,
}

/// UI Automation as the backend uses it. Elements are named by their process and their
/// `RuntimeId`; a source resolves them again (a kept element, or a search).
#[async_trait]
pub trait UiaSource: Send + Sync + 'static {
    /// The desktop's top-level windows, each read with one cache request.
    async fn top_level(&self) -> Result<Vec<RawElement>, UiaError>;

    /// Process `pid`'s top-level windows, asked of its provider alone (the search's condition
    /// names the process), in the app's turn.
    async fn windows_of(&self, pid: u32) -> Result<Vec<RawElement>, UiaError>;

    /// Starts noting process `pid`'s events in `log`; `false` where events cannot be watched.
    async fn watch(&self, pid: u32, log: Arc<EventLog>) -> Result<bool, UiaError>;

    /// A process, from the system (no call to the app).
    async fn process(&self, pid: u32) -> Result<RawProcess, UiaError>;

    /// One element of process `pid`, read afresh.
    async fn element(&self, pid: u32, key: &RuntimeKey) -> Result<RawElement, UiaError>;

    /// The element's children in the control view, one cache request for all of them.
    async fn children(&self, pid: u32, key: &RuntimeKey) -> Result<Vec<RawElement>, UiaError>;

    /// How many children each of the element's children has in the control view, by
    /// `RuntimeId`: one call whose cache request holds two levels and the id alone. A child
    /// counted 0 need not be asked for its own.
    async fn child_counts(
        &self,
        pid: u32,
        key: &RuntimeKey,
    ) -> Result<Vec<(RuntimeKey, u32)>, UiaError>;

    /// The element's parent in the control view (`None` under the desktop's root).
    async fn parent(&self, pid: u32, key: &RuntimeKey) -> Result<Option<RawElement>, UiaError>;

    /// The values (`Value.Value`) of the element's children, or all its descendants, that
    /// are not password fields, in one call whose condition leaves password fields out: a
    /// password's value is never requested. A password field's own descendants are not left
    /// out (UI Automation tests each element alone): `Below::Descendants` is asked only of
    /// a subtree read whole with no password field in it.
    async fn values_below(
        &self,
        pid: u32,
        key: &RuntimeKey,
        below: Below,
    ) -> Result<Vec<(RuntimeKey, String)>, UiaError>;

    /// One element's value; never asked of a secret.
    async fn value(&self, pid: u32, key: &RuntimeKey) -> Result<Option<String>, UiaError>;

    /// The chain of elements at a screen point, from its top-level window down to the
    /// deepest element, asked on behalf of process `pid` (whose calls it queues with).
    async fn element_at(&self, pid: u32, x: i32, y: i32) -> Result<Vec<RawElement>, UiaError>;

    /// Characters `start..end` of a `Text` pattern's document, in a few calls that hand
    /// over the page alone (review A6), where the document holds no CR LF; else its whole
    /// text. Never asked of a secret.
    async fn text(
        &self,
        pid: u32,
        key: &RuntimeKey,
        start: u32,
        end: Option<u32>,
    ) -> Result<TextRead, UiaError>;

    /// Calls a control pattern: the app took it (`Answered`), or the call has not returned
    /// and the app still answers others (`Running`: Invoke opened a modal dialog).
    async fn perform(
        &self,
        pid: u32,
        key: &RuntimeKey,
        op: &PatternOp,
    ) -> Result<Performed, UiaError>;

    /// Where the caret of a `Text` pattern is and what is selected, in characters from the
    /// start (`TextPattern2`); `None` where the element cannot say. Never asked of a secret.
    async fn caret(&self, pid: u32, key: &RuntimeKey) -> Result<Option<Caret>, UiaError>;

    /// A grid's size and column headers, in one call (two where the headers are not a
    /// `Header` child of the grid).
    async fn grid(&self, pid: u32, key: &RuntimeKey) -> Result<RawGrid, UiaError>;

    /// The cells of a grid's row, in column order, each read as an element: its first cell
    /// (`GridPattern.GetItem`), its parent, then the row with its cells cached, a call each.
    /// Cells straight under the grid, or under a group rather than a row, are read one by
    /// one. A page is read a row per call, each in the app's turn (review A5: a call per
    /// cell took a page past the deadline).
    async fn grid_row(
        &self,
        pid: u32,
        key: &RuntimeKey,
        row: u32,
    ) -> Result<Vec<RawElement>, UiaError>;
}
