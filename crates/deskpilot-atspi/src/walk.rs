//! The pipelined tree walk: breadth-first, many nodes in flight on one connection, within the
//! caller's budgets, and honest about every subtree it did not read.

use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::pin::Pin;

use deskpilot_platform::budget::{Children, Listed, Unlisted, after_listing, before_listing};
use deskpilot_platform::model::{
    CutReason, ElementId, Node, Pending, Realization, State, Tree, TreeNode,
};
use deskpilot_platform::{BackendError, WalkLimits};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;

use std::sync::Arc;

use crate::cache::CacheIndex;
use crate::error::{Failure, classify, to_backend};
use crate::proto::{Proto, ROOT_PATH};
use crate::read::{AppTraits, complete_node, read_node};

/// AT-SPI's MANAGES_DESCENDANTS state bit.
const MANAGES_DESCENDANTS: u64 = 1 << 31;

/// Progress is reported every this many nodes read.
const PROGRESS_EVERY: usize = 100;

/// Nodes read at once. Measured on this machine: 64 calls in flight reach ~30-40k calls/s on
/// the a11y bus; a node costs 4 + 1-4 calls, so 32 nodes keep ~128-256 calls in flight.
const IN_FLIGHT: usize = 32;

/// GTK 3 lists a container's children in time quadratic in their count (`GetChildren` on
/// 9,300 labels: 3.46 s, docs/benchmarks.md), answering nothing meanwhile: a container with
/// more children than this is asked for them one by one.
const LISTED_AT_MOST: u32 = 1000;

/// How many children of such a container are read: its first ones (`GetChildAtIndex` costs
/// GTK 3 1-4 ms there).
const FIRST_BY_INDEX: u32 = 200;

struct Slot {
    id: ElementId,
    node: Option<Node>,
    parent: Option<usize>,
    children: Vec<usize>,
    depth: u32,
    realization: Realization,
    secret: bool,
    /// Children known but not read (a budget stopped the walk).
    unread: Vec<ElementId>,
    /// Reading it failed (gone, unreadable): not something a later page can read.
    failed: bool,
    /// Children that answered but could not be read (wrong types, errors).
    unreadable: u32,
}

/// A node as read, with its children listed, or what it says unlisted.
enum Listing {
    Listed(Vec<ElementId>, Children),
    Left(Realization),
}

type Read = Pin<Box<dyn Future<Output = (usize, zbus::Result<(Node, Listing)>)> + Send>>;

/// Walks the subtree under `root`. Identities come from `cache` where it has them (one call
/// for the whole app), else from calls. Fails only when the root itself cannot be read.
pub async fn walk(
    proto: &Proto,
    root: &ElementId,
    limits: &WalkLimits,
    traits: AppTraits,
    cache: Option<Arc<CacheIndex>>,
) -> Result<Tree, BackendError> {
    let mut slots = vec![Slot {
        id: root.clone(),
        node: None,
        parent: None,
        children: Vec::new(),
        depth: 0,
        realization: Realization::Complete,
        secret: limits.secrecy.is_secret(),
        unread: Vec::new(),
        failed: false,
        unreadable: 0,
    }];
    // An element met again (a cycle, or one child of two parents) is read once, where first met.
    let mut seen: HashSet<ElementId> = HashSet::from([root.clone()]);
    let mut queue = VecDeque::from([0usize]);
    let mut in_flight: FuturesUnordered<Read> = FuturesUnordered::new();
    let mut unreachable_apps: HashSet<String> = HashSet::new();
    let deadline = tokio::time::Instant::from_std(limits.deadline);
    let calls_before = proto.calls();
    let mut read = 0usize;
    let started = std::time::Instant::now();

    loop {
        while in_flight.len() < IN_FLIGHT {
            let Some(index) = queue.pop_front() else {
                break;
            };
            let slot = &slots[index];
            if unreachable_apps.contains(&slot.id.app) {
                cut_parent(&mut slots, index, CutReason::Unreachable);
                continue;
            }
            in_flight.push(read_one(
                proto.clone(),
                index,
                slot,
                limits,
                traits,
                cache.clone(),
            ));
        }
        let next = match tokio::time::timeout_at(deadline, in_flight.next()).await {
            Ok(Some(done)) => done,
            Ok(None) => break,
            Err(_) => {
                // Deadline: everything queued or in flight is not read; each goes back to its
                // parent's unread list, in document order.
                // Children cut by the node budget come after these in document order, and a
                // child that already failed to read is not "unread".
                queue.clear();
                let mut late: HashMap<usize, Vec<ElementId>> = HashMap::new();
                for index in 1..slots.len() {
                    if slots[index].node.is_none() && !slots[index].failed {
                        cut_parent(&mut slots, index, CutReason::Deadline);
                        if let Some(parent) = slots[index].parent {
                            late.entry(parent)
                                .or_default()
                                .push(slots[index].id.clone());
                        }
                    }
                }
                for (parent, mut ids) in late {
                    ids.append(&mut slots[parent].unread);
                    slots[parent].unread = ids;
                }
                if slots[0].node.is_none() {
                    return Err(BackendError::AppNotResponding {
                        app: root.app.clone(),
                        // How long it was waited for (the deadline is past).
                        timeout: started.elapsed(),
                    });
                }
                break;
            }
        };
        let (index, result) = next;
        read += 1;
        if let Some(progress) = &limits.progress
            && read.is_multiple_of(PROGRESS_EVERY)
        {
            progress.report(read);
        }
        match result {
            Ok((node, listing)) => {
                let depth = slots[index].depth;
                let secret = slots[index].secret || node.is_secret();
                let logical = node.child_count;
                slots[index].node = Some(node);
                let (children, kind) = match listing {
                    Listing::Listed(children, kind) => (children, kind),
                    Listing::Left(left) => {
                        slots[index].realization = left;
                        continue;
                    }
                };
                let mut children: Vec<ElementId> = children
                    .into_iter()
                    .filter(|c| seen.insert(c.clone()))
                    .collect();
                let listed = Listed {
                    walked: slots.len(),
                    count: children.len(),
                    logical: Some(logical),
                    children: kind,
                };
                let kept = after_listing(limits, &listed);
                slots[index].realization = kept.realization;
                if kept.keep < children.len() {
                    slots[index].unread = children.split_off(kept.keep);
                }
                for child in children {
                    let child_index = slots.len();
                    slots.push(Slot {
                        id: child,
                        node: None,
                        parent: Some(index),
                        children: Vec::new(),
                        depth: depth + 1,
                        realization: Realization::Complete,
                        secret,
                        unread: Vec::new(),
                        failed: false,
                        unreadable: 0,
                    });
                    slots[index].children.push(child_index);
                    queue.push_back(child_index);
                }
            }
            Err(error) => {
                if index == 0 {
                    return Err(to_backend(error, root, "read", proto.timeout()));
                }
                slots[index].failed = true;
                match classify(&error) {
                    // The child vanished between GetChildren and now: it is simply not there.
                    Failure::ObjectGone => {}
                    Failure::Timeout | Failure::AppGone => {
                        unreachable_apps.insert(slots[index].id.app.clone());
                        cut_parent(&mut slots, index, CutReason::Unreachable);
                    }
                    Failure::Unsupported | Failure::Other => {
                        tracing::debug!(id = %slots[index].id, %error, "node unreadable");
                        if let Some(parent) = slots[index].parent {
                            slots[parent].unreadable += 1;
                        }
                    }
                }
            }
        }
    }
    let tree = into_tree(slots);
    tracing::debug!(
        nodes = tree.len(),
        from_cache = cache.as_ref().map_or(0, |c| tree
            .nodes
            .iter()
            .filter(|n| c.identities.contains_key(&n.node.id))
            .count()),
        calls = proto.calls() - calls_before,
        ms = started.elapsed().as_millis() as u64,
        "walk done"
    );
    Ok(tree)
}

/// One element read afresh with the ids of its children, as a walk reading it at `depth`
/// would, with no cache (a kept tree brought up to date, `patch.rs`). `None` where the walk's
/// budgets would leave some of its children unread.
pub async fn read_listed(
    proto: &Proto,
    id: &ElementId,
    depth: u32,
    limits: &WalkLimits,
    traits: AppTraits,
) -> zbus::Result<Option<(Node, Realization, Vec<ElementId>)>> {
    let slot = Slot {
        id: id.clone(),
        node: None,
        parent: None,
        children: Vec::new(),
        depth,
        realization: Realization::Complete,
        secret: limits.secrecy.is_secret(),
        unread: Vec::new(),
        failed: false,
        unreadable: 0,
    };
    let (_, read) = read_one(proto.clone(), 0, &slot, limits, traits, None).await;
    let (node, listing) = read?;
    let (children, kind) = match listing {
        Listing::Left(left) => return Ok(Some((node, left, Vec::new()))),
        Listing::Listed(children, kind) => (children, kind),
    };
    let listed = Listed {
        walked: 1,
        count: children.len(),
        logical: Some(node.child_count),
        children: kind,
    };
    let kept = after_listing(limits, &listed);
    Ok((kept.keep >= children.len()).then_some((node, kept.realization, children)))
}

fn read_one(
    proto: Proto,
    index: usize,
    slot: &Slot,
    limits: &WalkLimits,
    traits: AppTraits,
    cache: Option<Arc<CacheIndex>>,
) -> Read {
    let id = slot.id.clone();
    let secret = slot.secret;
    let depth = slot.depth;
    let limits = limits.clone();
    Box::pin(async move {
        let result = async {
            // Children always come from the element: the cache's `index_in_parent` can be stale
            // (seen on GTK3 combo menus), it leaves out transient children, and GTK 4 caches
            // only what was already asked for.
            if id.object == ROOT_PATH {
                // An application's windows are its children whatever its ChildCount says
                // (GTK 4.8 says 0 on its application object).
                let mut node = read_node(&proto, &id, traits, secret).await?;
                let unlisted = Unlisted {
                    depth,
                    count: None,
                    children: Children::Listed,
                };
                if let Some(left) = before_listing(&limits, &unlisted) {
                    return Ok((node, Listing::Left(left)));
                }
                let children = proto.children(&id).await?;
                node.child_count = node.child_count.max(children.len() as u32);
                return Ok((node, Listing::Listed(children, Children::Listed)));
            }
            let cached = cache.as_ref().and_then(|c| c.identities.get(&id).cloned());
            match cached {
                Some(identity) => {
                    // The count is asked of the element every time, with the rest of the
                    // node: a kept one would hide a new child, since GTK 3 sends no
                    // children-changed when a container gains one (only the child's own
                    // events, which name the child), and the cache says -1 where it does
                    // not know (menus, containers with transient children).
                    let managed = identity.states & MANAGES_DESCENDANTS != 0;
                    let (node, count) = tokio::join!(
                        complete_node(&proto, &id, identity, traits, secret),
                        proto.child_count(&id)
                    );
                    let mut node = node?;
                    node.child_count = count?.max(0) as u32;
                    list(&proto, node, managed, depth, &limits).await
                }
                None => {
                    let mut node = read_node(&proto, &id, traits, secret).await?;
                    // As if from the cache, which has no ids: a walk with one leaves every
                    // id unread, whatever the cache held at the time (`patch.rs` too).
                    if cache.is_some() {
                        node.accessible_id = None;
                        node.accessible_id_unread = true;
                    }
                    let managed = node.states.is(State::ManagesDescendants);
                    list(&proto, node, managed, depth, &limits).await
                }
            }
        }
        .await;
        (index, result)
    })
}

/// The children of `id`, which reports `count`: all in one call, or the first
/// `FIRST_BY_INDEX` one by one where there are too many to list (see `LISTED_AT_MOST`).
async fn children_of(proto: &Proto, id: &ElementId, count: u32) -> zbus::Result<Vec<ElementId>> {
    if count <= LISTED_AT_MOST {
        return proto.children(id).await;
    }
    let asked = (0..count.min(FIRST_BY_INDEX)).map(|i| proto.child_at_index(id, i as i32));
    let mut children = Vec::new();
    for child in futures_util::future::join_all(asked).await {
        match child {
            Ok(Some(child)) => children.push(child),
            Ok(None) => {}
            Err(e) if matches!(classify(&e), Failure::Timeout | Failure::AppGone) => return Err(e),
            Err(e) => tracing::debug!(%id, error = %e, "a child by index unreadable"),
        }
    }
    Ok(children)
}

/// `node`'s children, within the walk budget: listed where the budget allows; a container
/// that creates children on demand only below a bound, and a huge child count never
/// (LibreOffice Calc's sheet reports 2^31 - 1 and a `GetChildren` on it grows the app by
/// gigabytes).
async fn list(
    proto: &Proto,
    node: Node,
    managed: bool,
    depth: u32,
    limits: &WalkLimits,
) -> zbus::Result<(Node, Listing)> {
    let count = node.child_count;
    let kind = match (managed, count > LISTED_AT_MOST) {
        (true, _) => Children::OnDemand,
        (false, true) => Children::FirstOnes,
        (false, false) => Children::Listed,
    };
    let unlisted = Unlisted {
        depth,
        count: Some(count),
        children: kind,
    };
    if let Some(left) = before_listing(limits, &unlisted) {
        return Ok((node, Listing::Left(left)));
    }
    let children = children_of(proto, &node.id, count).await?;
    Ok((node, Listing::Listed(children, kind)))
}

/// Marks the parent of an unread slot as cut (the first reason wins).
fn cut_parent(slots: &mut [Slot], index: usize, reason: CutReason) {
    if let Some(parent) = slots[index].parent
        && !matches!(slots[parent].realization, Realization::Cut { .. })
    {
        slots[parent].realization = Realization::Cut { reason };
    }
}

/// Reorders the slots that were read into document (pre-)order.
fn into_tree(mut slots: Vec<Slot>) -> Tree {
    let mut order = Vec::with_capacity(slots.len());
    let mut stack = vec![0usize];
    while let Some(index) = stack.pop() {
        if slots[index].node.is_none() {
            continue;
        }
        order.push(index);
        stack.extend(slots[index].children.iter().rev().copied());
    }
    let mut new_index = vec![usize::MAX; slots.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    let mut nodes = Vec::with_capacity(order.len());
    let mut pending = Vec::new();
    for &old in &order {
        let cut = matches!(slots[old].realization, Realization::Cut { reason } if reason != CutReason::Unreachable);
        if cut {
            pending.push(Pending {
                parent: nodes.len(),
                unread: std::mem::take(&mut slots[old].unread),
            });
        }
        let slot = &mut slots[old];
        let node = slot.node.take().expect("only read slots are ordered");
        let children: Vec<usize> = slot
            .children
            .iter()
            .map(|&c| new_index[c])
            .filter(|&c| c != usize::MAX)
            .collect();
        // Children that could not be read leave the container partly read.
        if slot.unreadable > 0 && slot.realization == Realization::Complete {
            slot.realization = Realization::Partial {
                realized: children.len() as u32,
                logical: Some(node.child_count.max(children.len() as u32)),
            };
        }
        nodes.push(TreeNode {
            node,
            parent: slot.parent.map(|p| new_index[p]),
            children,
            depth: slot.depth,
            realization: slot.realization,
        });
    }
    Tree { nodes, pending }
}
