//! Snapshots: the session's window (or app) read, refs issued, rendered; a truncated one
//! continued page by page through a cursor.

use crate::derive::derive_what_readers_see;
use crate::engine::Engine;
use crate::engine::read::find::root_for;
use crate::engine::read::find::tree_with_windows_over;
use crate::engine::read::focus::focus_named;
use crate::engine::scope::app_tree;
use crate::error::Result;
use crate::filter::Filter;
use crate::live::{Changes, Reading, View, changes_since};
use crate::model::{CutReason, ElementId, Rect, State, Tree};
use crate::platform::{BackendError, Secrecy, WalkLimits};
use crate::read::results::{Snapshot, SnapshotRequest, Truncation};
use crate::read::snapshot::*;
use crate::render::render_with_notes;
use crate::session::{PendingSubtree, RefId, format_ref};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// Keeps a whole first page as the session's next version, with what changed since the
/// version the request names.
fn keep_view(
    engine: &Engine,
    session: &str,
    request: &SnapshotRequest,
    tree: &Tree,
    rendered: &crate::render::Rendered,
) -> Result<(Arc<View>, Option<Changes>)> {
    let lines = View::lines_of(tree, rendered);
    let changes = request.since.map(|since| {
        let previous = engine.sessions().view(session, since);
        let reading = Reading {
            filter: request.filter,
            window: request.window.as_ref(),
        };
        changes_since(since, previous.as_deref(), reading, &lines)
    });
    let view = View {
        version: 0,
        filter: request.filter,
        window: request.window.clone(),
        max_nodes: request.max_nodes,
        lines,
    };
    Ok((engine.sessions().record_view(session, view)?, changes))
}

/// Refs for the shown nodes; the root of a first page is what the session (or `within`)
/// already names and gets none, the roots of a continued page do.
fn assign_refs(
    engine: &Engine,
    session: &str,
    tree: &Tree,
    filter: Filter,
    continued: bool,
) -> Result<HashMap<usize, RefId>> {
    let indices: Vec<usize> = filter
        .apply(tree)
        .into_iter()
        .map(|(index, _)| index)
        .filter(|&index| (continued || index > 0) && deserves_ref(&tree.nodes[index].node))
        .collect();
    let refs = engine
        .sessions()
        .issue_all(session, indices.iter().map(|&i| &tree.nodes[i].node))?;
    Ok(indices.into_iter().zip(refs).collect())
}

/// Keeps where the shown refs are (screenshots label them): a first page replaces what a
/// session remembered, a continued page adds to it.
fn place_refs(
    engine: &Engine,
    session: &str,
    tree: &Tree,
    refs: &HashMap<usize, RefId>,
    continued: bool,
) {
    // Only what an agent can act on is labelled (not windows, panes or text).
    let placed: Vec<(RefId, Rect)> = refs
        .iter()
        .filter(|(i, _)| {
            let node = &tree.nodes[**i].node;
            node.role.is_interactive() || (node.role.is_text() && node.states.is(State::Editable))
        })
        .filter_map(|(&i, &r)| Some((r, tree.nodes[i].node.bounds?)))
        .filter(|(_, b)| !b.is_empty())
        .collect();
    engine.sessions().place_refs(session, placed, continued);
}

impl crate::engine::Session<'_> {
    /// Reads and renders the session's window (or `within` an element).
    pub async fn snapshot(&self, request: &SnapshotRequest) -> Result<Snapshot> {
        let session = self.id();
        let limits = |max_nodes: usize| WalkLimits {
            max_nodes,
            max_depth: request.max_depth,
            progress: request.progress.clone(),
            ..WalkLimits::with_timeout(request.timeout)
        };
        // A first page walks one root; a continued page walks the subtrees its cursor left,
        // in order, until the node budget is spent.
        let (mut tree, mut rest, notes) = match &request.cursor {
            None => {
                let app_wide = {
                    let info = self.engine.session_info(session)?;
                    info.root == info.app.id
                };
                let tree = if app_wide && request.within.is_none() {
                    app_tree(
                        self.engine,
                        session,
                        request.window.as_ref(),
                        &limits(request.max_nodes),
                    )
                    .await?
                } else {
                    let (root, secrecy) =
                        root_for(self.engine, session, request.within.as_ref()).await?;
                    let first = WalkLimits {
                        secrecy,
                        ..limits(request.max_nodes)
                    };
                    if request.within.is_none() {
                        std::sync::Arc::unwrap_or_clone(
                            tree_with_windows_over(self.engine, session, &root, &first).await?,
                        )
                    } else {
                        self.engine.backend().snapshot(&root, &first).await?
                    }
                };
                (tree, VecDeque::new(), HashMap::new())
            }
            Some(cursor) => {
                let mut queue = self.engine.sessions().take_cursor(session, cursor)?;
                let mut tree = Tree::default();
                let mut notes = HashMap::new();
                while tree.len() < request.max_nodes {
                    let Some(item) = queue.pop_front() else { break };
                    let budget = request.max_nodes - tree.len();
                    let item_limits = WalkLimits {
                        secrecy: Secrecy::of(item.secret),
                        ..limits(budget)
                    };
                    match self
                        .engine
                        .backend()
                        .snapshot(&item.root, &item_limits)
                        .await
                    {
                        Ok(sub) => {
                            notes.insert(tree.len(), item.parent);
                            tree.append(sub);
                        }
                        // Gone since the first page: nothing left to read there.
                        Err(BackendError::Defunct { .. }) => {}
                        Err(e) => {
                            // Nothing is lost: the cursor still leads to all it did.
                            queue.push_front(item);
                            self.engine
                                .sessions()
                                .restore_cursor(session, cursor, queue)?;
                            return Err(e.into());
                        }
                    }
                }
                (tree, queue, notes)
            }
        };
        self.engine.sessions().redact_held(session, &mut tree);
        let named = focus_named(self.engine, &tree).await;
        derive_what_readers_see(&mut tree, &named);
        let continued = request.cursor.is_some();
        let refs = assign_refs(self.engine, session, &tree, request.filter, continued)?;
        place_refs(self.engine, session, &tree, &refs, continued);
        // This page's own cuts come before what the cursor had not reached yet.
        let mut next: VecDeque<PendingSubtree> = tree
            .pending
            .iter()
            .flat_map(|p| {
                let parent = tree.nodes[p.parent].node.id.clone();
                let secret = tree.nodes[p.parent].node.is_secret();
                let roots = if p.unread.is_empty() {
                    vec![parent.clone()]
                } else {
                    p.unread.clone()
                };
                roots.into_iter().map(move |root| PendingSubtree {
                    parent: parent.clone(),
                    root,
                    secret,
                })
            })
            .collect();
        next.append(&mut rest);
        let cursor = (!next.is_empty())
            .then(|| self.engine.sessions().store_cursor(session, next))
            .transpose()?;
        let ref_text = |element: &ElementId| {
            self.engine
                .sessions()
                .ref_of(session, element)
                .map(format_ref)
        };
        let notes: HashMap<usize, String> = notes
            .into_iter()
            .map(|(index, parent)| {
                let under = ref_text(&parent).unwrap_or_else(|| parent.to_string());
                (index, format!("continued under {under}"))
            })
            .collect();
        let rendered = render_with_notes(
            &tree,
            request.filter,
            &|i| refs.get(&i).map(|r| format_ref(*r)),
            &|i| notes.get(&i).cloned(),
        );
        let truncated = match (tree.cut(), &cursor) {
            (Some((index, reason)), _) => Some(Truncation {
                reason,
                at: refs.get(&index).map(|r| format_ref(*r)),
                cursor: cursor.clone(),
            }),
            // The page itself is whole, but the cursor had more than fitted.
            (None, Some(cursor)) => Some(Truncation {
                reason: CutReason::Nodes,
                at: None,
                cursor: Some(cursor.clone()),
            }),
            (None, None) => None,
        };
        let minimized = tree
            .root()
            .is_some_and(|r| r.node.states.is(State::Minimized));
        let (view, changes) = if request.cursor.is_none() && request.within.is_none() {
            let (view, changes) = keep_view(self.engine, session, request, &tree, &rendered)?;
            (Some(view), changes)
        } else {
            (None, None)
        };
        Ok(Snapshot {
            tree,
            rendered,
            refs,
            truncated,
            minimized,
            view,
            changes,
        })
    }
}
