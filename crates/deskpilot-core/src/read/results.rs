//! What reading answers: snapshots, matches, resolved elements, pages of text and tables.

use std::collections::HashMap;
use std::time::Duration;

use serde::Serialize;

use crate::filter::Filter;
use crate::live::{Changes, Since, View};
use crate::model::{CutReason, Node, Role, Tree};
use crate::render::Rendered;
use crate::selector::Selector;
use crate::session::RefId;

/// What an element-taking operation is aimed at.
#[derive(Debug, Clone)]
pub enum Target {
    Ref(String),
    Selector(Selector),
}

/// Options of a snapshot.
#[derive(Debug, Clone)]
pub struct SnapshotRequest {
    pub within: Option<Target>,
    /// For a session on an app: the window shown in full (default: the active one); the
    /// others are listed in one line each.
    pub window: Option<super::WindowPick>,
    /// Continue a truncated snapshot from the cursor it returned (`within` is then ignored).
    pub cursor: Option<String>,
    pub filter: Filter,
    pub max_nodes: usize,
    pub max_depth: u32,
    pub timeout: Duration,
    /// Where to report the number of nodes read while the walk runs.
    pub progress: Option<crate::platform::ProgressSink>,
    /// Answer with what changed since this version of the session's tree (a whole first
    /// page only).
    pub since: Option<Since>,
}

impl Snapshot {
    /// The version this read became (see `view`).
    pub fn version(&self) -> Option<u64> {
        self.view.as_ref().map(|v| v.version)
    }

    /// Its lines: those its version kept (a whole first page), else read from it.
    pub fn lines(&self) -> std::borrow::Cow<'_, [crate::live::ViewLine]> {
        match &self.view {
            Some(view) => std::borrow::Cow::Borrowed(view.lines.as_slice()),
            None => {
                std::borrow::Cow::Owned(crate::live::View::lines_of(&self.tree, &self.rendered))
            }
        }
    }
}

impl Default for SnapshotRequest {
    fn default() -> Self {
        SnapshotRequest {
            within: None,
            window: None,
            cursor: None,
            filter: Filter::Interactive,
            max_nodes: 2000,
            max_depth: 64,
            timeout: Duration::from_secs(10),
            progress: None,
            since: None,
        }
    }
}

/// Where and why a snapshot stopped short.
#[derive(Debug, Clone, Serialize)]
pub struct Truncation {
    pub reason: CutReason,
    /// The ref of the first node whose children were not all read.
    pub at: Option<String>,
    /// Pass this as `cursor` to read what was left out.
    pub cursor: Option<String>,
}

/// A snapshot as the front ends present it.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub tree: Tree,
    pub rendered: Rendered,
    /// Ref of each tree node that has one, by index.
    pub refs: HashMap<usize, RefId>,
    pub truncated: Option<Truncation>,
    /// The root is a minimized window: its tree is (nearly) empty for that reason.
    pub minimized: bool,
    /// The version this read became, with its lines: a whole first page of the session's
    /// tree is a version of it (`within` and continued pages are not).
    pub view: Option<std::sync::Arc<View>>,
    /// What changed since the version asked for (`SnapshotRequest::since`).
    pub changes: Option<Changes>,
}

/// One element found.
#[derive(Debug, Clone, Serialize)]
pub struct Match {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: Role,
    pub name: String,
    pub exact: bool,
    /// It and its ancestors are shown (see `visibility`).
    pub visible: bool,
    #[serde(skip)]
    pub node: Node,
}

/// The result of `find`.
#[derive(Debug, Clone, Serialize)]
pub struct FindResult {
    /// Visible matches first, then exact before partial, then document order.
    pub matches: Vec<Match>,
    /// All matches, before `limit`.
    pub total: usize,
    /// How many of them are visible.
    pub visible: usize,
    pub exact: usize,
    /// Containers that could not be searched (not realized, or over budget), by ref.
    pub unsearched: Vec<Unsearched>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Unsearched {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: Role,
    pub name: String,
    pub why: String,
}

impl Unsearched {
    /// On one line: `role "name" [ref=eN]: why`, the verbs `why` names in `word`'s words.
    pub fn line(&self, word: &dyn Fn(crate::hint::FaceVerb) -> String) -> String {
        format!(
            "{} {} [ref={}]: {}",
            self.role,
            crate::escape::quoted(&self.name, 60),
            self.reference,
            crate::hint::worded(&self.why, word)
        )
    }
}

/// `Unsearched::line`, the verbs by the tools' names.
impl std::fmt::Display for Unsearched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.line(&|verb| verb.marker().to_owned()))
    }
}

/// One element, resolved strictly and re-validated.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub reference: String,
    pub node: Node,
    /// The element is, or is inside, a password field: its text is never read.
    pub secret: bool,
}

/// A page of an element's text.
#[derive(Debug, Clone, Serialize)]
pub struct TextRead {
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(flatten)]
    pub slice: crate::model::TextSlice,
    /// Where the next page starts, when there is more.
    pub next_offset: Option<u32>,
}

/// A page of a table.
#[derive(Debug, Clone, Serialize)]
pub struct TableRead {
    #[serde(rename = "ref")]
    pub reference: String,
    #[serde(flatten)]
    pub slice: crate::model::TableSlice,
    /// Where the next page starts, when there are more rows.
    pub next_row: Option<u32>,
}
