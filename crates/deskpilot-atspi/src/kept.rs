//! Whole trees kept between reads of an app whose events announce every
//! change (ATK's bridge: GTK 3 and LibreOffice's GTK 3 plugin), reused while the app sends no
//! event at all.
//!
//! What no registered event announces is checked or bounded instead: the windows' places on
//! the screen (asked again at every reuse: one call per window), and everything else that moves
//! without an event (the bounds inside a window) by reading the tree afresh once it is
//! `KEPT_FOR` old. Any event from the app forgets all its trees; so does an app that leaves.

use std::sync::Arc;
use std::time::{Duration, Instant};

use deskpilot_platform::model::{ElementId, Realization, Rect, Role, Tree};
use deskpilot_platform::{Secrecy, WalkLimits};

use crate::proto::Proto;

/// How long after its read a tree may be reused: bounds inside a window can move with no
/// event (a layout settling), so a kept tree is read afresh at least this often.
pub const KEPT_FOR: Duration = Duration::from_secs(5);

/// Trees kept per app (a session's root, a window over it, a `find within`).
const PER_APP: usize = 4;

/// The walk budgets a kept tree was read under that change what it holds (the deadline and
/// the node budget do not, for a tree no budget cut).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    max_depth: u32,
    max_managed_children: u32,
    max_children: u32,
    secrecy: Secrecy,
}

impl Shape {
    fn of(limits: &WalkLimits) -> Self {
        Shape {
            max_depth: limits.max_depth,
            max_managed_children: limits.max_managed_children,
            max_children: limits.max_children,
            secrecy: limits.secrecy,
        }
    }
}

struct Kept {
    root: ElementId,
    shape: Shape,
    tree: Arc<Tree>,
    read_at: Instant,
}

/// The trees kept of one app, and where its windows were.
#[derive(Default)]
pub struct KeptTrees {
    trees: Vec<Kept>,
    /// Its windows (or the roots of walks inside one) and their bounds, as last read.
    windows: Vec<(ElementId, Rect)>,
}

impl KeptTrees {
    /// The tree of `root` read under `limits`' budgets, if one is kept, young enough and fits
    /// the node budget.
    pub fn tree(&self, root: &ElementId, limits: &WalkLimits) -> Option<Arc<Tree>> {
        let shape = Shape::of(limits);
        let kept = self.trees.iter().find(|k| {
            &k.root == root
                && k.shape == shape
                && k.read_at.elapsed() < KEPT_FOR
                && k.tree.len() <= limits.max_nodes
        })?;
        Some(Arc::clone(&kept.tree))
    }

    /// Notes where `tree`'s windows are, and keeps it if every part of it was read.
    pub fn keep(&mut self, root: &ElementId, limits: &WalkLimits, tree: &Arc<Tree>) {
        for (id, bounds) in windows_of(tree) {
            self.windows.retain(|(known, _)| known != &id);
            self.windows.push((id, bounds));
        }
        if !whole(tree) {
            return;
        }
        let shape = Shape::of(limits);
        self.trees
            .retain(|k| !(&k.root == root && k.shape == shape));
        if self.trees.len() >= PER_APP {
            self.trees.remove(0);
        }
        self.trees.push(Kept {
            root: root.clone(),
            shape,
            tree: Arc::clone(tree),
            read_at: Instant::now(),
        });
    }

    /// The windows read so far, with their bounds then.
    pub fn windows(&self) -> Vec<(ElementId, Rect)> {
        self.windows.clone()
    }
}

/// Whether every window in `windows` is still where it was (one call each, all at once). No
/// window: nothing was read to compare with.
pub async fn windows_hold(proto: &Proto, windows: &[(ElementId, Rect)]) -> bool {
    if windows.is_empty() {
        return false;
    }
    let reads =
        futures_util::future::join_all(windows.iter().map(|(id, _)| proto.extents(id))).await;
    windows
        .iter()
        .zip(reads)
        .all(|((_, was), now)| matches!(now, Ok((x, y, w, h)) if Rect::new(x, y, w, h) == *was))
}

/// A tree no budget cut, none of whose parts was unreachable.
fn whole(tree: &Tree) -> bool {
    tree.pending.is_empty()
        && !tree.is_empty()
        && tree
            .nodes
            .iter()
            .all(|tn| !matches!(tn.realization, Realization::Cut { .. }))
}

/// The nodes whose place moves everything under them: the root, and an application's
/// windows.
fn windows_of(tree: &Tree) -> Vec<(ElementId, Rect)> {
    let app_root = tree
        .root()
        .is_some_and(|r| r.node.role == Role::Application);
    tree.nodes
        .iter()
        .filter(|tn| tn.depth == 0 || (app_root && tn.depth == 1))
        .filter_map(|tn| Some((tn.node.id.clone(), tn.node.bounds?)))
        .collect()
}
