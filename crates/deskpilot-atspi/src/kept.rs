//! Whole trees and app descriptions kept between reads of an app whose events announce every
//! change (ATK's bridge: GTK 3 and LibreOffice's GTK 3 plugin), reused while the app sends no
//! event at all.
//!
//! What no registered event announces is checked or bounded instead: the windows' places on
//! the screen (asked again at every reuse: one call per window), and everything else that moves
//! without an event (the bounds inside a window) by reading the tree afresh once it is
//! `KEPT_FOR` old. Any event from the app forgets all its trees; so does an app that leaves.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deskpilot_platform::model::{ElementId, Realization, Rect, Role, Tree};
use deskpilot_platform::{Secrecy, WalkLimits};

use crate::apps::AppRead;
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

/// What is kept of one app.
#[derive(Default)]
struct App {
    trees: Vec<Kept>,
    /// Its windows (or the roots of walks inside one) and their bounds, as last read.
    windows: Vec<(ElementId, Rect)>,
}

/// Kept trees, per app (bus name).
#[derive(Default)]
pub struct KeptTrees {
    apps: Mutex<HashMap<String, App>>,
}

impl KeptTrees {
    /// Forgets every tree of `app` (it sent an event, or its events are not known).
    pub fn forget(&self, app: &str) {
        self.apps.lock().expect("kept trees").remove(app);
    }

    /// Forgets the trees of apps no longer registered.
    pub fn retain(&self, registered: &HashSet<String>) {
        self.apps
            .lock()
            .expect("kept trees")
            .retain(|app, _| registered.contains(app));
    }

    /// The tree of `root` read under `limits`' budgets, if one is kept, young enough and fits
    /// the node budget.
    pub fn tree(&self, root: &ElementId, limits: &WalkLimits) -> Option<Arc<Tree>> {
        let apps = self.apps.lock().expect("kept trees");
        let shape = Shape::of(limits);
        let kept = apps.get(&root.app)?.trees.iter().find(|k| {
            &k.root == root
                && k.shape == shape
                && k.read_at.elapsed() < KEPT_FOR
                && k.tree.len() <= limits.max_nodes
        })?;
        Some(Arc::clone(&kept.tree))
    }

    /// Notes where `tree`'s windows are, and keeps it if every part of it was read.
    pub fn keep(&self, root: &ElementId, limits: &WalkLimits, tree: &Arc<Tree>) {
        let mut apps = self.apps.lock().expect("kept trees");
        let app = apps.entry(root.app.clone()).or_default();
        for (id, bounds) in windows_of(tree) {
            app.windows.retain(|(known, _)| known != &id);
            app.windows.push((id, bounds));
        }
        if !whole(tree) {
            return;
        }
        let shape = Shape::of(limits);
        app.trees.retain(|k| !(&k.root == root && k.shape == shape));
        if app.trees.len() >= PER_APP {
            app.trees.remove(0);
        }
        app.trees.push(Kept {
            root: root.clone(),
            shape,
            tree: Arc::clone(tree),
            read_at: Instant::now(),
        });
    }

    /// Whether every window of `app` read so far is still where it was (one call each, all
    /// at once). No window known: nothing was read to compare with.
    pub async fn windows_hold(&self, proto: &Proto, app: &str) -> bool {
        let windows = match self.apps.lock().expect("kept trees").get(app) {
            Some(kept) if !kept.windows.is_empty() => kept.windows.clone(),
            _ => return false,
        };
        let reads =
            futures_util::future::join_all(windows.iter().map(|(id, _)| proto.extents(id))).await;
        windows
            .iter()
            .zip(reads)
            .all(|((_, was), now)| matches!(now, Ok((x, y, w, h)) if Rect::new(x, y, w, h) == *was))
    }
}

/// Apps as last read (their windows, names and states), each with the number of events the
/// app had sent before it was read: while that number holds, so does the read.
#[derive(Default)]
pub struct KeptApps {
    apps: Mutex<HashMap<String, (u64, AppRead)>>,
}

impl KeptApps {
    /// The read of `app` kept with its event count.
    pub fn get(&self, app: &str) -> Option<(u64, AppRead)> {
        self.apps.lock().expect("kept apps").get(app).cloned()
    }

    pub fn keep(&self, app: &str, count: u64, read: AppRead) {
        self.apps
            .lock()
            .expect("kept apps")
            .insert(app.to_owned(), (count, read));
    }

    pub fn retain(&self, registered: &HashSet<String>) {
        self.apps
            .lock()
            .expect("kept apps")
            .retain(|app, _| registered.contains(app));
    }
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
