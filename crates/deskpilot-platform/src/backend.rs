//! The boundary between the engine and a platform: small and object-safe.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;

use crate::app::AppInfo;
use crate::events::{Events, NoEvents};
use crate::model::{ElementId, Node, Tree};
use crate::model::{TableSlice, TextSlice};
use crate::vocabulary::{EditKeys, NativeOp};

/// Told how many nodes a walk has read so far (every hundred or so): long snapshots report
/// progress to whoever asked for it.
#[derive(Clone)]
pub struct ProgressSink(pub std::sync::Arc<dyn Fn(usize) + Send + Sync>);

impl std::fmt::Debug for ProgressSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressSink")
    }
}

impl ProgressSink {
    pub fn report(&self, nodes: usize) {
        (self.0)(nodes)
    }
}

/// Whether a read may read text: not inside a password field (nothing below one may have its
/// text read), and not where the caller needs none. A bulk read that could fetch values with
/// everything else learns what is secret first (`ValueAdmission`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Secrecy {
    #[default]
    Plain,
    /// The read starts inside a password field.
    InsideSecret,
    /// The caller needs no text (a parent's role, an element's bounds): none is read, and the
    /// node comes back as one inside a secret would, its text unread.
    NoText,
}

impl Secrecy {
    pub fn of(inside_secret: bool) -> Self {
        if inside_secret {
            Secrecy::InsideSecret
        } else {
            Secrecy::Plain
        }
    }

    /// No text may be read (inside a secret, or none needed).
    pub fn is_secret(self) -> bool {
        self != Secrecy::Plain
    }
}

/// A text field's caret and selection, in the toolkit's character offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caret {
    pub offset: u32,
    /// The first selection (start, end), when something is selected.
    pub selection: Option<(u32, u32)>,
}

/// Bounds of one walk of a tree.
#[derive(Debug, Clone)]
pub struct WalkLimits {
    /// Stop after reading this many nodes.
    pub max_nodes: usize,
    /// Do not read below this depth (the root is depth 0).
    pub max_depth: u32,
    /// Stop reading at this instant; what was read so far is returned, marked cut.
    pub deadline: Instant,
    /// A container that creates children on demand (MANAGES_DESCENDANTS) is enumerated only
    /// when it reports at most this many children, and is then marked partly realized.
    pub max_managed_children: u32,
    /// Any container reporting more children than this is never enumerated (a spreadsheet's
    /// 2^31 cells would take the app down).
    pub max_children: u32,
    /// Where to report progress, if anyone listens.
    pub progress: Option<ProgressSink>,
    /// The walk's root is inside a password field.
    pub secrecy: Secrecy,
}

impl WalkLimits {
    pub fn with_timeout(timeout: Duration) -> Self {
        WalkLimits {
            deadline: Instant::now() + timeout,
            ..WalkLimits::default()
        }
    }
}

impl Default for WalkLimits {
    fn default() -> Self {
        WalkLimits {
            max_nodes: 5000,
            max_depth: 64,
            deadline: Instant::now() + Duration::from_secs(10),
            max_managed_children: 1000,
            max_children: 10_000,
            progress: None,
            secrecy: Secrecy::Plain,
        }
    }
}

/// Why a backend call failed. Every variant says whether retrying can help.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    #[error("application {app} did not answer within {timeout:?}")]
    AppNotResponding { app: String, timeout: Duration },
    #[error("application {app} is gone")]
    AppGone { app: String },
    #[error("element {id} no longer exists")]
    Defunct { id: ElementId },
    #[error("element {id} does not support {what}")]
    Unsupported { id: ElementId, what: String },
    #[error("accessibility system: {0}")]
    System(String),
    /// No desktop session was found; `hint` says how to give one (its platform's words).
    #[error("no desktop session: {why}")]
    NoDesktop { why: String, hint: String },
    /// The app runs with more rights than deskpilot: the system denies reading or acting
    /// on it (an elevated app, seen from an ordinary process).
    #[error("application {app} denies access: {why}")]
    AccessDenied { app: String, why: String },
    /// deskpilot has no backend for this operating system yet.
    #[error("deskpilot cannot drive apps on {0} yet")]
    PlatformUnsupported(String),
}

impl BackendError {
    /// True when the same call may succeed later (a busy app), false when it cannot.
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            BackendError::AppNotResponding { .. } | BackendError::System(_)
        )
    }
}

/// How an app took a native operation it did not refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Performed {
    /// It answered: the request was taken (the engine reads back its effect).
    Answered,
    /// It has not answered, yet still answers other calls: it runs the operation in a loop
    /// of its own (a modal dialog the operation opened). The engine reads back its effect.
    Running { why: String },
}

/// One answer on an app that may be blind (its tree shows nearly nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blindness {
    /// Its content shows only when asked for (a web runtime): a tree with windows but no
    /// document is blind too.
    pub needs_document: bool,
    /// How to switch its accessibility on.
    pub hint: String,
}

/// How a backend does a semantic operation on one element: the operation it performs (a
/// closed verb mapped to the toolkit's own action, say) and how reports describe it.
#[derive(Debug, Clone, PartialEq)]
pub struct NativeRoute {
    pub op: NativeOp,
    /// The route as reports show it (`action "click"`, the platform call's name).
    pub how: String,
}

/// Which semantic operations a backend can do on an element, decided from the element as
/// read (no call to the app), and which keys its text fields take: the action ladder plans
/// its rungs with it.
pub trait NativeRoutes {
    /// How `op` is done on `node`, or why it cannot be (a sentence for the report's
    /// `skipped`): also where the platform answers a route that would not do what a
    /// person's input does (it would freeze the app's accessibility, or leave a menu open).
    fn native_route(&self, node: &Node, op: &NativeOp) -> Result<NativeRoute, String>;

    /// The keys that select a field's text and put its caret at the end, on this platform.
    fn edit_keys(&self) -> EditKeys;
}

/// A platform's accessibility tree and its native operations. Implementations keep their
/// threading and their timeouts inside: every call returns within a bounded time even when
/// an app is frozen.
#[async_trait]
pub trait Backend: NativeRoutes + Send + Sync {
    /// The applications registered now, with their top-level windows.
    async fn apps(&self) -> Result<Vec<AppInfo>, BackendError>;

    /// One application (by its root element) with its windows: what `apps` says of it, for
    /// one app's cost.
    async fn app(&self, root: &ElementId) -> Result<AppInfo, BackendError> {
        self.apps()
            .await?
            .into_iter()
            .find(|a| &a.id == root)
            .ok_or_else(|| BackendError::AppGone {
                app: root.app.clone(),
            })
    }

    /// Reads the subtree under `root` within `limits`.
    async fn snapshot(&self, root: &ElementId, limits: &WalkLimits) -> Result<Tree, BackendError>;

    /// `snapshot`, shared: a backend that keeps trees hands out the one it keeps (the same
    /// `Arc` while it holds), so a reader that only looks need not copy it.
    async fn shared_snapshot(
        &self,
        root: &ElementId,
        limits: &WalkLimits,
    ) -> Result<Arc<Tree>, BackendError> {
        Ok(Arc::new(self.snapshot(root, limits).await?))
    }

    /// Reads one element afresh (used to re-validate a ref before use). With
    /// `Secrecy::InsideSecret` its text is not read.
    async fn node(&self, id: &ElementId, secrecy: Secrecy) -> Result<Node, BackendError>;

    /// Everything the backend knows about one element: the node with its attributes and id.
    async fn properties(&self, id: &ElementId, secrecy: Secrecy) -> Result<Node, BackendError>;

    /// The chain of elements at screen point (x, y) inside `root`: from `root`'s child that
    /// contains it down to the deepest one. Everything below a password field in the chain is
    /// read as a secret.
    async fn hit_test(&self, root: &ElementId, x: i32, y: i32) -> Result<Vec<Node>, BackendError>;

    /// Characters `start..end` of an element's text (`end` = None: to the end). Never called
    /// on a secret (the engine refuses first).
    async fn text(
        &self,
        id: &ElementId,
        start: u32,
        end: Option<u32>,
    ) -> Result<TextSlice, BackendError>;

    /// The cells of rows `first_row..` of a table (at most `max_rows`), each by identity and
    /// its own name only (nothing else is read: searching a long table by name costs two
    /// calls a cell, where walking its children would cost a dozen), with the table's row
    /// count and the row after the last one read. Default: `unsupported`.
    async fn table_cell_names(
        &self,
        table: &ElementId,
        _first_row: u32,
        _max_rows: u32,
    ) -> Result<crate::model::TableCells, BackendError> {
        Err(BackendError::Unsupported {
            id: table.clone(),
            what: "reading a table's cells by row".into(),
        })
    }

    /// Rows `first_row..first_row + max_rows` of a table, with its headers.
    async fn table(
        &self,
        id: &ElementId,
        first_row: u32,
        max_rows: u32,
    ) -> Result<TableSlice, BackendError>;

    /// Does `op` on the element through the app's own semantics. `Ok` means the app accepted
    /// the request, not that it had an effect (the engine reads that back).
    async fn perform(&self, id: &ElementId, op: &NativeOp) -> Result<Performed, BackendError> {
        Err(BackendError::Unsupported {
            id: id.clone(),
            what: format!("{op:?}"),
        })
    }

    /// Where a text field's caret is and what is selected in it (`None`: it cannot say).
    async fn caret(&self, id: &ElementId) -> Result<Option<Caret>, BackendError> {
        let _ = id;
        Ok(None)
    }

    /// What the backend learns from apps' events (`NoEvents` where it watches none).
    fn events(&self) -> &dyn Events {
        &NoEvents
    }

    /// Whether a whole read of `app` is kept for the reads after it (its events report every
    /// change, or what they miss is checked, so a later read is patched from them instead of
    /// walked). Default: no.
    fn keeps_reads(&self, app: &str) -> bool {
        let _ = app;
        false
    }

    /// How `app` shows its content to an accessibility client, and how to switch that on when
    /// it shows (nearly) nothing; for `None`, a process with windows on the display that the
    /// accessibility tree does not list.
    fn blindness(&self, app: Option<&AppInfo>) -> Blindness {
        let _ = app;
        Blindness {
            needs_document: false,
            hint: "the app exposes almost no accessibility tree; check its accessibility settings"
                .into(),
        }
    }

    /// Whether `app` still runs, asked of the system rather than of the app (a frozen app
    /// cannot answer, an exiting one may not): `None` where the backend cannot tell.
    async fn app_running(&self, _app: &ElementId) -> Option<bool> {
        None
    }

    /// The top-level window (frame, dialog) that holds the element.
    async fn toplevel(&self, id: &ElementId) -> Result<ElementId, BackendError> {
        Err(BackendError::Unsupported {
            id: id.clone(),
            what: "finding its window".into(),
        })
    }

    /// The element's parent (`None` at the top).
    async fn parent(&self, id: &ElementId) -> Result<Option<ElementId>, BackendError> {
        Err(BackendError::Unsupported {
            id: id.clone(),
            what: "finding its parent".into(),
        })
    }

    /// The accessible ids of these elements (for nodes whose id a snapshot left unread).
    /// `None` for an element without one or that could not be read.
    async fn accessible_ids(&self, ids: &[ElementId]) -> Vec<Option<String>> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            out.push(
                // Only the id is wanted: never read text on the way.
                self.node(id, Secrecy::NoText)
                    .await
                    .ok()
                    .and_then(|n| n.accessible_id),
            );
        }
        out
    }
}
