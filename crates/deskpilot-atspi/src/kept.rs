//! Whole trees kept between reads of an app whose events announce every change: ATK's bridge
//! (GTK 3, LibreOffice's GTK 3 plugin), GTK 4 but for scrolls, web pages but for layouts. Qt
//! announces less: `unannounced.rs` and the modules beside it check the rest at each reuse. A
//! tree is reused as it is while the app sends no event, and patched where its events named
//! something (`patch.rs`). Trees are kept with the bounds the toolkit gave (GTK 4's relative
//! to their window), moved to the screen when served.
//!
//! What no registered event announces is checked or bounded instead. The windows' places on
//! the screen are asked again at every reuse (one call per window). The bounds inside a
//! window move without an event: a tree is read afresh once it is `ConnectOptions::kept_for`
//! old (5 s). Events the watch could not follow (a flood, an event naming no object) forget
//! all the app's trees; so does an app that leaves.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use deskpilot_platform::model::{ElementId, Realization, Rect, Role, Tree};
use deskpilot_platform::{Secrecy, WalkLimits};

use crate::error::{Failure, classify};
use crate::proto::Proto;

/// Trees kept per app (a session's root, a window over it, a `find within`).
const PER_APP: usize = 4;

/// A kept tree whose events named more objects than this since it was read is read afresh.
const STALE_MOST: usize = 32;

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
    /// The objects (paths) the app's events named since, in order, each once.
    stale: Vec<String>,
    cached: bool,
}

/// A kept tree as `KeptTrees::tree` gives it.
pub struct KeptTree {
    pub tree: Arc<Tree>,
    /// The objects (paths) the app's events named since it was read, in order, each once.
    pub stale: Vec<String>,
    /// It was walked with the app's cache, which has no ids: they were left unread.
    pub cached: bool,
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
    /// the node budget, with the objects the app's events named since.
    pub fn tree(
        &self,
        root: &ElementId,
        limits: &WalkLimits,
        kept_for: Duration,
    ) -> Option<KeptTree> {
        let shape = Shape::of(limits);
        let kept = self.trees.iter().find(|k| {
            &k.root == root
                && k.shape == shape
                && k.read_at.elapsed() < kept_for
                && k.tree.len() <= limits.max_nodes
        })?;
        Some(KeptTree {
            tree: Arc::clone(&kept.tree),
            stale: kept.stale.clone(),
            cached: kept.cached,
        })
    }

    /// Notes what the app's events named since the last look: `None` (the watch could not
    /// follow them) forgets every tree. Says whether the tree of `root` is kept.
    pub fn note(
        &mut self,
        named: Option<&HashSet<String>>,
        root: &ElementId,
        limits: &WalkLimits,
        kept_for: Duration,
    ) -> bool {
        let Some(named) = named else {
            *self = KeptTrees::default();
            return false;
        };
        for kept in &mut self.trees {
            for path in named {
                if !kept.stale.contains(path) {
                    kept.stale.push(path.clone());
                }
            }
        }
        self.trees.retain(|k| k.stale.len() <= STALE_MOST);
        self.tree(root, limits, kept_for).is_some()
    }

    /// Forgets the tree of `root` read under `limits`' budgets.
    pub fn forget(&mut self, root: &ElementId, limits: &WalkLimits) {
        let shape = Shape::of(limits);
        self.trees
            .retain(|k| !(&k.root == root && k.shape == shape));
    }

    /// Keeps `tree` as the tree of `root` brought up to date with the first `upto` objects
    /// named since its read (its age stays that of the read).
    pub fn patched(
        &mut self,
        root: &ElementId,
        limits: &WalkLimits,
        tree: &Arc<Tree>,
        upto: usize,
    ) {
        let shape = Shape::of(limits);
        if let Some(kept) = self
            .trees
            .iter_mut()
            .find(|k| &k.root == root && k.shape == shape && k.stale.len() >= upto)
        {
            kept.stale.drain(..upto);
            let was = std::mem::replace(&mut kept.tree, Arc::clone(tree));
            // A window gone from the tree (a dialog closed) is no longer looked at.
            let now = windows_of(tree);
            let gone: Vec<ElementId> = windows_of(&was)
                .into_iter()
                .map(|(id, _)| id)
                .filter(|id| !now.iter().any(|(kept, _)| kept == id))
                .collect();
            self.windows.retain(|(id, _)| !gone.contains(id));
            self.note_windows(tree);
        }
    }

    /// Notes where `tree`'s windows are, and keeps it if every part of it was read (with the
    /// app's cache: `cached`).
    pub fn keep(&mut self, root: &ElementId, limits: &WalkLimits, tree: &Arc<Tree>, cached: bool) {
        self.note_windows(tree);
        if !whole(tree) {
            return;
        }
        self.forget(root, limits);
        let shape = Shape::of(limits);
        if self.trees.len() >= PER_APP {
            self.trees.remove(0);
        }
        self.trees.push(Kept {
            root: root.clone(),
            shape,
            tree: Arc::clone(tree),
            read_at: Instant::now(),
            stale: Vec::new(),
            cached,
        });
    }

    fn note_windows(&mut self, tree: &Tree) {
        for (id, bounds) in windows_of(tree) {
            self.windows.retain(|(known, _)| known != &id);
            self.windows.push((id, bounds));
        }
    }

    /// The windows read so far, with their bounds then.
    pub fn windows(&self) -> Vec<(ElementId, Rect)> {
        self.windows.clone()
    }
}

/// Where each window in `windows` is now, next to where it was (one call each, all at once).
pub async fn window_places(
    proto: &Proto,
    windows: &[(ElementId, Rect)],
) -> Vec<(ElementId, Place)> {
    let reads =
        futures_util::future::join_all(windows.iter().map(|(id, _)| proto.extents(id))).await;
    let place = |was: &Rect, now: zbus::Result<(i32, i32, i32, i32)>| match now {
        Ok((x, y, w, h)) if Rect::new(x, y, w, h) == *was => Place::Same,
        Err(e) if classify(&e) == Failure::ObjectGone => Place::Gone,
        _ => Place::Moved,
    };
    windows
        .iter()
        .zip(reads)
        .map(|((id, was), now)| (id.clone(), place(was, now)))
        .collect()
}

/// A window's place next to where it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Same,
    /// Moved, resized, or not answering.
    Moved,
    Gone,
}

/// Whether what was read of the windows still holds: each where it was, or gone with an
/// event naming it (`named`, object paths: a closed dialog). No window: nothing was read to
/// compare with.
pub fn windows_hold(places: &[(ElementId, Place)], named: Option<&HashSet<String>>) -> bool {
    let named_gone = |id: &ElementId| named.is_some_and(|named| named.contains(&id.object));
    !places.is_empty()
        && places.iter().all(|(id, place)| match place {
            Place::Same => true,
            Place::Gone => named_gone(id),
            Place::Moved => false,
        })
}

/// A tree no budget cut, none of whose parts was unreachable.
pub fn whole(tree: &Tree) -> bool {
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
