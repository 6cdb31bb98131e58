//! A kept tree brought up to date from what the app's events named. Each named element is
//! read again with the list of its children: a new child is walked, a known one kept as it
//! was. The rest stays as read; `kept.rs` says when a tree is kept at all.
//!
//! GTK 3 and GTK 4 change some things without naming them (`docs/events.md`). Those are read
//! again too:
//! - A new child names itself, not its parent: its nearest ancestor in the tree is read.
//! - A removed child names itself, and is gone: its parent is read.
//! - A scroll bar's value: the scrolled children change `showing` with no event. The scroll
//!   bar's parent (the scrolled window) is walked again whole.
//! - A notebook switching pages takes the focus from a button with no event. Every element
//!   the tree says is focused is read again.
//! - Bounds move with no event (a tree view's columns widen for a longer cell). So does a
//!   scroll bar's range (rows added). Both are asked again under the nearest container above
//!   each named element that kept its size (or its scroll pane). One call per element, many
//!   in flight.
//! - GTK 4 and Qt announce no scroll: each scrolled content is asked where it is
//!   (`scrolls.rs`).
//!
//! Qt also renames windows and tab bars and changes menu items' states with no event: those
//! that differ are read again (`unannounced.rs`). Its events name a menu that shows, not its
//! items, which show with it. Each element its events name is walked whole
//! (`AppTraits::silent_descendants`).
//!
//! `kept.rs` (the Linux tests) `gtk3_a_kept_tree_is_reused_only_while_nothing_changed` and
//! its GTK 4 and Qt 5 twins keep these true; `freshness.rs` that a label's change asks little.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use deskpilot_platform::model::{Capability, ElementId, Realization, Rect, Role, State, Tree};
use deskpilot_platform::{Secrecy, WalkLimits};

use crate::backend::AtspiBackend;
use crate::error::{Failure, classify, is_unreachable};
use crate::kept::whole;
use crate::mapping::map_states;
use crate::prepare::Prepared;
use crate::proto::{Proto, ROOT_PATH};
use crate::read::{AppTraits, number, optional};
use crate::walk::{read_listed, walk};

/// More elements to read again than this: the tree is walked afresh instead.
const TARGETS_MOST: usize = 16;

/// How far up a new element's parents are asked for one the tree holds.
const ANCESTORS_MOST: usize = 8;

/// How many levels up from a gone element its nearest living ancestor is looked for.
const ROUNDS: usize = 8;

/// Calls in flight when a window's bounds are asked again.
const ASKED_AT_ONCE: usize = 64;

/// What is read again of a kept tree.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// The element and the list of its children.
    Element(ElementId),
    /// The element and everything under it.
    Subtree(ElementId),
}

/// An element read again: its node, how much of its children are held, and each child (a
/// known one `None`: its kept subtree stays; a new one walked).
struct Fresh {
    id: ElementId,
    node: deskpilot_platform::model::Node,
    realization: Realization,
    children: Vec<(ElementId, Option<Tree>)>,
}

/// What reading a target again gave.
enum Read {
    Element(Box<Fresh>),
    Subtree(ElementId, Tree),
    /// The element is gone: its parent is read instead.
    Gone(ElementId),
}

impl AtspiBackend {
    /// The kept tree of `root` (`prepare` said one is kept), brought up to date with what the
    /// app's events named since it was read. `None`: it must be walked afresh, and is no
    /// longer kept.
    pub(crate) async fn kept_tree(
        &self,
        root: &ElementId,
        limits: &WalkLimits,
        traits: AppTraits,
        prepared: &Prepared,
    ) -> Option<Arc<Tree>> {
        if !prepared.kept {
            return None;
        }
        let kept = self
            .apps
            .read(&root.app, |state| {
                state.trees.tree(root, limits, self.kept_for)
            })
            .flatten()?;
        let tree = Arc::clone(&kept.tree);
        let forget = || {
            self.apps
                .update(&root.app, |state| state.trees.forget(root, limits));
        };
        // Qt's popups are grafted in by a walk (`popups.rs`), not listed by their app: while
        // its events say one shows that the tree lacks, a tree they named something in is
        // walked afresh, before any check is asked.
        let patchable = !traits.unlisted_popups
            || kept.stale.is_empty()
            || self.shows_nothing_unlisted(root, &tree, traits).await;
        if !patchable && !kept.stale.is_empty() {
            forget();
            return None;
        }
        let (rebuilt, scrolled, renamed) = tokio::join!(
            crate::rebuilds::rebuilt(&self.proto, &tree, traits.silent_rebuilds),
            crate::scrolls::scrolled(&self.proto, &tree, traits),
            crate::unannounced::changed(&self.proto, &tree, traits)
        );
        let (Some(rebuilt), Some(scrolled), Some(renamed)) = (rebuilt, scrolled, renamed) else {
            forget();
            return None;
        };
        let walked = [rebuilt, scrolled].concat();
        if kept.stale.is_empty() && walked.is_empty() && renamed.is_empty() {
            self.kept_reuses
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return Some(tree);
        }
        let changed = Changed {
            stale: &kept.stale,
            walked,
            renamed,
            cached: kept.cached,
        };
        let patched = match patchable {
            true => patch(&self.proto, &tree, changed, limits, traits).await,
            false => None,
        };
        let Some(patched) = patched else {
            forget();
            return None;
        };
        let patched = Arc::new(patched);
        self.apps.update(&root.app, |state| {
            state.parents.note(&patched);
            state
                .trees
                .patched(root, limits, &patched, kept.stale.len());
        });
        self.kept_patches
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(patched)
    }

    /// Whether every object the app's events said shows is in `tree`, or no longer shows (a
    /// dialog closed, a menu hidden), or is a child of an element in it (a button added: the
    /// patch reads it). Two calls each for the others, at once.
    async fn shows_nothing_unlisted(
        &self,
        root: &ElementId,
        tree: &Tree,
        traits: AppTraits,
    ) -> bool {
        let Some(freshness) = &self.freshness else {
            return false;
        };
        let shown = freshness.shown(root);
        let unlisted: Vec<&ElementId> = shown.iter().filter(|id| tree.find(id).is_none()).collect();
        let asks = unlisted
            .iter()
            .map(|id| async { tokio::join!(self.proto.state(id), self.proto.parent(id)) });
        let answers = futures_util::future::join_all(asks).await;
        answers.into_iter().all(|answer| match answer {
            (Ok(bits), _) if !map_states(bits, traits.reporting).is(State::Showing) => true,
            (Ok(_), Ok(Some(parent))) => parent.object != ROOT_PATH && tree.find(&parent).is_some(),
            (Err(e), _) => classify(&e) == Failure::ObjectGone,
            _ => false,
        })
    }
}

/// `tree` with what the objects at `stale` (paths) hold now; `None` when that cannot be said
/// short of a whole walk.
async fn patch(
    proto: &Proto,
    tree: &Tree,
    changed: Changed<'_>,
    limits: &WalkLimits,
    traits: AppTraits,
) -> Option<Tree> {
    let stale = changed.stale;
    let mut targets = targets(proto, tree, stale, traits).await?;
    tracing::debug!(
        stale = stale.len(),
        targets = targets.len(),
        "patching a kept tree"
    );
    for changed in changed.walked {
        add(&mut targets, Target::Subtree(changed));
    }
    for changed in changed.renamed {
        add(&mut targets, Target::Element(changed));
    }
    let mut reads = Vec::new();
    let mut touched = Vec::new();
    // A gone element's parent is read in the next round (a closed dialog's boxes, one level
    // a round, up to the window that lost it).
    for _ in 0..ROUNDS {
        if targets.len() > TARGETS_MOST {
            return None;
        }
        let all = targets
            .iter()
            .map(|t| read_again(proto, tree, t, limits, traits));
        let mut gone = Vec::new();
        for read in futures_util::future::join_all(all).await {
            match read? {
                Read::Gone(id) => gone.push(id),
                read => reads.push(read),
            }
        }
        touched.extend(targets.iter().filter_map(|t| held_below_app(tree, t)));
        targets = Vec::new();
        let gone: Vec<usize> = gone.iter().filter_map(|id| tree.find(id)).collect();
        // Under a gone element: gone with it.
        let tops = gone
            .iter()
            .filter(|&&i| !tree.ancestors(i).any(|a| gone.contains(&a)));
        for &i in tops {
            let parent = tree.nodes[i].parent?;
            add(
                &mut targets,
                Target::Element(tree.nodes[parent].node.id.clone()),
            );
        }
        if targets.is_empty() {
            let fresh = fresh_ids(&reads);
            let mut patched = assemble(tree, reads, limits)?;
            if changed.cached {
                as_cached(&mut patched, &fresh);
            }
            let moved = moved_within(proto, &mut patched, &touched).await?;
            relayout(proto, &mut patched, &moved, traits).await?;
            return Some(patched);
        }
    }
    None
}

/// What changed in a kept tree since its read.
struct Changed<'a> {
    /// The objects (paths) the app's events named.
    stale: &'a [String],
    /// What changed with no event, to walk again whole: scrolled areas (`scrolls.rs`), item
    /// views rebuilt (`rebuilds.rs`).
    walked: Vec<ElementId>,
    /// Elements whose name or states changed with no event (`unannounced.rs`).
    renamed: Vec<ElementId>,
    /// The tree was walked with the app's cache (`kept::KeptTree::cached`).
    cached: bool,
}

/// The elements `reads` read afresh.
fn fresh_ids(reads: &[Read]) -> HashSet<ElementId> {
    let mut walked: Vec<&Tree> = Vec::new();
    let mut fresh = HashSet::new();
    for read in reads {
        match read {
            Read::Subtree(_, sub) => walked.push(sub),
            Read::Element(element) => {
                walked.extend(element.children.iter().filter_map(|(_, sub)| sub.as_ref()));
                fresh.insert(element.id.clone());
            }
            Read::Gone(_) => {}
        }
    }
    let nodes = walked.into_iter().flat_map(|sub| sub.nodes.iter());
    fresh.extend(nodes.map(|tn| tn.node.id.clone()));
    fresh
}

/// Leaves the ids of `fresh` elements unread, as a walk with the app's cache does (the cache
/// has no ids), but the application's, which such a walk reads.
fn as_cached(tree: &mut Tree, fresh: &HashSet<ElementId>) {
    for tn in &mut tree.nodes {
        let node = &mut tn.node;
        if node.id.object != ROOT_PATH && fresh.contains(&node.id) {
            node.accessible_id = None;
            node.accessible_id_unread = true;
        }
    }
}

/// What to read again for the objects at `stale` (paths).
async fn targets(
    proto: &Proto,
    tree: &Tree,
    stale: &[String],
    traits: AppTraits,
) -> Option<Vec<Target>> {
    let app = &tree.root()?.node.id.app;
    let index: HashMap<&ElementId, usize> = tree
        .nodes
        .iter()
        .enumerate()
        .map(|(i, tn)| (&tn.node.id, i))
        .collect();
    let held = stale.iter().map(|path| {
        let id = ElementId::new(app.clone(), path.clone());
        let index = &index;
        async move { held(proto, index, id).await }
    });
    let mut targets = Vec::new();
    for held in futures_util::future::join_all(held).await {
        let Some(at) = held? else {
            continue;
        };
        let tn = &tree.nodes[at];
        let id = tn.node.id.clone();
        add(
            &mut targets,
            match traits.silent_descendants {
                true => Target::Subtree(id),
                false => Target::Element(id),
            },
        );
        if tn.node.role == Role::ScrollBar
            && let Some(parent) = tn.parent
        {
            let pane = tree.nodes[parent].node.id.clone();
            add(&mut targets, Target::Subtree(pane));
        }
    }
    let focused = tree
        .nodes
        .iter()
        .filter(|tn| tn.node.states.is(State::Focused));
    for tn in focused {
        add(&mut targets, Target::Element(tn.node.id.clone()));
    }
    Some(targets)
}

fn add(targets: &mut Vec<Target>, target: Target) {
    if !targets.contains(&target) {
        targets.push(target);
    }
}

/// The index of `id` in the tree (`index`), or of its nearest ancestor there for a new
/// element. `Some(None)`: gone, or outside the tree. `None`: its parents go up further than
/// `ANCESTORS_MOST`, or do not answer.
async fn held(
    proto: &Proto,
    index: &HashMap<&ElementId, usize>,
    mut id: ElementId,
) -> Option<Option<usize>> {
    for _ in 0..=ANCESTORS_MOST {
        if let Some(&at) = index.get(&id) {
            return Some(Some(at));
        }
        id = match proto.parent(&id).await {
            Ok(Some(parent)) => parent,
            Ok(None) => return Some(None),
            Err(e) if classify(&e) == Failure::ObjectGone => return Some(None),
            Err(_) => return None,
        };
    }
    None
}

/// Reads `target` again, under the budgets a walk from the tree's root would have there.
async fn read_again(
    proto: &Proto,
    tree: &Tree,
    target: &Target,
    limits: &WalkLimits,
    traits: AppTraits,
) -> Option<Read> {
    let (Target::Element(id) | Target::Subtree(id)) = target;
    let index = tree.find(id)?;
    let depth = tree.nodes[index].depth;
    let below = limits_at(tree, index, limits);
    let id = id.clone();
    if let Target::Subtree(_) = target {
        let sub = walk(proto, &id, &below, traits, None).await.ok()?;
        return whole(&sub).then_some(Read::Subtree(id, sub));
    }
    let (node, realization, listed) = match read_listed(proto, &id, depth, &below, traits).await {
        Ok(read) => read?,
        Err(e) if classify(&e) == Failure::ObjectGone => return Some(Read::Gone(id)),
        Err(_) => return None,
    };
    let known: Vec<&ElementId> = tree.nodes[index]
        .children
        .iter()
        .map(|&c| &tree.nodes[c].node.id)
        .collect();
    // GTK 4 gives bounds relative to their window, which a walk places from the window
    // system: a new window is left to one. The windows held (`kept::windows_hold`) read the
    // same as kept, so the others' bounds need no shift.
    let new_window = tree.nodes[index].node.role == Role::Application
        && listed.iter().any(|child| !known.contains(&child));
    if traits.window_relative_extents && new_window {
        return None;
    }
    let child_limits = WalkLimits {
        max_depth: below.max_depth.checked_sub(1)?,
        secrecy: secrecy(below.secrecy, node.is_secret()),
        ..below.clone()
    };
    let walks = listed.into_iter().map(|child| {
        let new = !known.contains(&&child);
        let limits = &child_limits;
        async move {
            if !new {
                return Some((child, None));
            }
            let sub = walk(proto, &child, limits, traits, None).await.ok()?;
            whole(&sub).then_some((child, Some(sub)))
        }
    });
    let children = futures_util::future::join_all(walks).await;
    Some(Read::Element(Box::new(Fresh {
        id,
        node,
        realization,
        children: children.into_iter().collect::<Option<_>>()?,
    })))
}

/// The budgets of a walk from the tree's root, at `index`: less depth, and secret inside a
/// password field.
fn limits_at(tree: &Tree, index: usize, limits: &WalkLimits) -> WalkLimits {
    let inside = tree
        .ancestors(index)
        .any(|a| tree.nodes[a].node.is_secret());
    WalkLimits {
        max_depth: limits.max_depth.saturating_sub(tree.nodes[index].depth),
        secrecy: secrecy(limits.secrecy, inside),
        ..limits.clone()
    }
}

fn secrecy(outer: Secrecy, inside: bool) -> Secrecy {
    match outer {
        Secrecy::NoText => Secrecy::NoText,
        _ => Secrecy::of(outer.is_secret() || inside),
    }
}

/// `tree` with `reads` put in: whole subtrees first, then elements deepest first (each keeps
/// its known children's subtrees as they are by then).
fn assemble(tree: &Tree, reads: Vec<Read>, limits: &WalkLimits) -> Option<Tree> {
    let mut subtrees = HashMap::new();
    let mut elements = Vec::new();
    for read in reads {
        match read {
            Read::Subtree(id, sub) => {
                subtrees.insert(tree.find(&id)?, sub);
            }
            Read::Element(fresh) => elements.push(*fresh),
            Read::Gone(_) => return None,
        }
    }
    let mut tree = tree.patched(&subtrees);
    elements.sort_by_key(|fresh| tree.find(&fresh.id).map(|i| tree.nodes[i].depth));
    for fresh in elements.into_iter().rev() {
        // Under a subtree walked whole: read with it.
        let Some(index) = tree.find(&fresh.id) else {
            continue;
        };
        let sub = element(&tree, index, fresh)?;
        tree = tree.patched(&HashMap::from([(index, sub)]));
    }
    (tree.len() <= limits.max_nodes).then_some(tree)
}

/// The subtree of the element at `index` as read again: its known children's subtrees kept.
fn element(tree: &Tree, index: usize, fresh: Fresh) -> Option<Tree> {
    let mut sub = Tree::default();
    let top = sub.push(fresh.node, None);
    sub.nodes[top].realization = fresh.realization;
    for (child, walked) in fresh.children {
        let below = match walked {
            Some(walked) => walked,
            None => {
                let known = tree.nodes[index].children.iter();
                let at = known.copied().find(|&c| tree.nodes[c].node.id == child)?;
                tree.subtree(at)
            }
        };
        sub.graft(top, below);
    }
    Some(sub)
}

/// The element `target` reads again; none for an application (its new windows are read
/// whole).
fn held_below_app(tree: &Tree, target: &Target) -> Option<ElementId> {
    let (Target::Element(id) | Target::Subtree(id)) = target;
    let index = tree.find(id)?;
    let app_root = tree.root()?.node.role == Role::Application;
    (!(app_root && index == 0)).then(|| id.clone())
}

/// Where a change at `changed` can have moved things with no event. That is under the
/// nearest ancestor whose bounds, asked again, are as kept: its size held, so nothing outside
/// it moved. A scroll pane above it is taken instead (its bars' range follows what it holds).
/// With no such ancestor, the whole window (or the tree's root). One call per level climbed;
/// the bounds asked are put in. `None` when the app stops answering.
async fn moved_within(
    proto: &Proto,
    tree: &mut Tree,
    changed: &[ElementId],
) -> Option<Vec<ElementId>> {
    let app_root = tree.root()?.node.role == Role::Application;
    let mut roots = Vec::new();
    for id in changed {
        let Some(index) = tree.find(id) else {
            continue;
        };
        let mut held = index;
        for up in tree.ancestors(index).collect::<Vec<_>>() {
            held = up;
            if tree.nodes[up].depth <= u32::from(app_root) {
                break;
            }
            let node = &tree.nodes[up].node;
            let Some(was) = node
                .bounds
                .filter(|_| node.capabilities.contains(Capability::Bounds))
            else {
                continue;
            };
            let now = proto.extents(&node.id).await;
            match now {
                Ok((x, y, w, h)) if Rect::new(x, y, w, h) == was => break,
                Ok((x, y, w, h)) => tree.nodes[up].node.bounds = Some(Rect::new(x, y, w, h)),
                Err(e) if is_unreachable(&e) => return None,
                Err(_) => {}
            }
        }
        let pane = std::iter::once(held)
            .chain(tree.ancestors(held))
            .take(3)
            .find(|&i| tree.nodes[i].node.role == Role::ScrollPane);
        roots.push(tree.nodes[pane.unwrap_or(held)].node.id.clone());
    }
    Some(roots)
}

/// Asks again what moves with no event under `roots`. First the states of elements in a
/// scrolled area: GTK 3 works `showing` out from the viewport when asked. Then the bounds of
/// every element that has a place (showing, or not saying), and the range of every scroll
/// bar: GTK 3 announces a value, not a new maximum when rows are added. `None` when the app
/// stops answering.
async fn relayout(
    proto: &Proto,
    tree: &mut Tree,
    roots: &[ElementId],
    traits: AppTraits,
) -> Option<()> {
    let under = under(tree, roots);
    let scrolled: Vec<usize> = under
        .iter()
        .copied()
        .filter(|&i| {
            tree.ancestors(i)
                .any(|a| matches!(tree.nodes[a].node.role, Role::ScrollPane | Role::Viewport))
        })
        .collect();
    let asks = scrolled.iter().map(|&i| (i, Ask::States));
    answer(proto, tree, asks.collect(), traits).await?;
    let asks = under.into_iter().flat_map(|i| {
        let node = &tree.nodes[i].node;
        let ranged = node.role == Role::ScrollBar && node.capabilities.contains(Capability::Number);
        [(true, Ask::Bounds), (ranged, Ask::Range)]
            .into_iter()
            .filter(|(wanted, _)| *wanted)
            .map(move |(_, ask)| (i, ask))
    });
    answer(proto, tree, asks.collect(), traits).await
}

/// The elements under `roots`, each once.
fn under(tree: &Tree, roots: &[ElementId]) -> Vec<usize> {
    let mut under = Vec::new();
    for root in roots {
        let Some(top) = tree.find(root) else {
            continue;
        };
        let mut stack = vec![top];
        while let Some(i) = stack.pop() {
            under.push(i);
            stack.extend(tree.nodes[i].children.iter().copied());
        }
    }
    under.sort_unstable();
    under.dedup();
    under
}

/// Asks `asks` of the tree's elements, many in flight, and puts the answers in.
async fn answer(
    proto: &Proto,
    tree: &mut Tree,
    asks: Vec<(usize, Ask)>,
    traits: AppTraits,
) -> Option<()> {
    use futures_util::StreamExt;
    let asks: Vec<(usize, ElementId, Ask, bool)> = asks
        .into_iter()
        .map(|(i, ask)| {
            let node = &tree.nodes[i].node;
            let placed = node.capabilities.contains(Capability::Bounds)
                && !node.states.is_not(State::Showing);
            (i, node.id.clone(), ask, placed)
        })
        .collect();
    let asks = asks.into_iter().map(|(i, id, ask, placed)| async move {
        let answer = match ask {
            Ask::States => proto
                .state(&id)
                .await
                .map(|bits| Answer::States(map_states(bits, traits.reporting))),
            Ask::Bounds => optional(placed, proto.extents(&id))
                .await
                .map(|b| Answer::Bounds(b.map(|(x, y, w, h)| Rect::new(x, y, w, h)))),
            Ask::Range => optional(true, proto.value_props(&id))
                .await
                .map(|v| Answer::Range(v.map(|props| number(&props)))),
        };
        (i, answer)
    });
    let mut asks = futures_util::stream::iter(asks).buffer_unordered(ASKED_AT_ONCE);
    while let Some((i, answer)) = asks.next().await {
        let node = &mut tree.nodes[i].node;
        match answer.ok()? {
            Answer::States(states) => node.states = states,
            Answer::Bounds(bounds) => node.bounds = bounds,
            Answer::Range(value) => node.value = value,
        }
    }
    Some(())
}

/// What `relayout` asks of an element.
#[derive(Debug, Clone, Copy)]
enum Ask {
    States,
    Bounds,
    Range,
}

enum Answer {
    States(deskpilot_platform::model::StateSet),
    Bounds(Option<Rect>),
    Range(Option<deskpilot_platform::model::NodeValue>),
}
