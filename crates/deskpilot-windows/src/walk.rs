//! The walk: breadth-first by container, one `children` call (one cache request) per
//! container, within the caller's budgets. A second call counts each child's children, so
//! leaves are never asked for theirs: a call per container, not per element, is what keeps
//! a medium app within the deadline (`tests/faults.rs`). Then the values, never a password
//! field's (`value_reads`). Returned in document order.

use std::collections::HashMap;

use futures_util::StreamExt;

use deskpilot_platform::budget::{Children, Listed, Unlisted, after_listing, before_listing};
use deskpilot_platform::model::{
    CutReason, ElementId, Node, NodeValue, Pending, Realization, Tree, TreeNode,
};
use deskpilot_platform::{BackendError, ValueAdmission, WalkLimits};

use crate::calls::Calls;
use crate::error::to_backend;
use crate::mapping::node::node;
use crate::mapping::text::line_feeds;
use crate::raw::{Pattern, RawElement, RuntimeKey, UiaError};
use crate::source::{Below, UiaSource};

/// Calls queued at once on an app's worker: enough to keep it busy, few enough that a
/// walk past its deadline stops asking soon.
const IN_FLIGHT: usize = 16;

/// Progress is reported every this many nodes read.
const PROGRESS_EVERY: usize = 100;

/// Where a walk starts: an app's own root (its windows known), or an element.
pub enum Start {
    App {
        node: Node,
        windows: Vec<RawElement>,
    },
    Element(RawElement),
}

struct Slot {
    raw: Option<RawElement>,
    node: Node,
    parent: Option<usize>,
    children: Vec<usize>,
    depth: u32,
    realization: Realization,
    secret: bool,
    unread: Vec<ElementId>,
    /// How many children it has, where its parent's count read says.
    known: Option<u32>,
    /// Its children were listed (or counted none): what is below it was seen.
    seen: bool,
}

/// What a walk read: the tree, and each element as read (for the patterns the routes use).
pub struct Walked {
    pub tree: Tree,
    pub raws: Vec<RawElement>,
}

/// Walks app `app` (process `pid`) from `start` within `limits`.
pub async fn walk<S: UiaSource>(
    calls: &Calls<S>,
    app: &str,
    pid: u32,
    start: Start,
    limits: &WalkLimits,
) -> Result<Walked, BackendError> {
    let secret = limits.secrecy.is_secret();
    let (slots, from) = match start {
        Start::App { node, windows } => {
            let mut slots = vec![slot(None, node, None, 0, secret)];
            adopt(&mut slots, 0, windows, app, limits);
            (slots, 1)
        }
        Start::Element(raw) => {
            let mut node = node(&raw, app);
            node.inside_secret = secret;
            let secret = secret || raw.is_password();
            (vec![slot(Some(raw), node, None, 0, secret)], 0)
        }
    };
    finish(calls, app, pid, slots, limits, from).await
}

fn slot(
    raw: Option<RawElement>,
    node: Node,
    parent: Option<usize>,
    depth: u32,
    secret: bool,
) -> Slot {
    Slot {
        raw,
        node,
        parent,
        children: Vec::new(),
        depth,
        realization: Realization::Complete,
        secret,
        unread: Vec::new(),
        known: None,
        seen: false,
    }
}

/// Adds `children` under slot `parent` within the node and child budgets, and says how much
/// of them it holds.
fn adopt(
    slots: &mut Vec<Slot>,
    parent: usize,
    children: Vec<RawElement>,
    app: &str,
    limits: &WalkLimits,
) {
    let managed = slots[parent]
        .raw
        .as_ref()
        .is_some_and(|r| r.has(Pattern::ItemContainer));
    let logical = slots[parent].raw.as_ref().and_then(|r| {
        r.grid
            .map(|(rows, _)| rows)
            .or(children.first().and_then(|c| c.size_of_set))
            // A count below one is a provider's lie: unknown.
            .filter(|n| *n > 0)
            .map(|n| n as u32)
    });
    let count = children.len();
    let listed = Listed {
        walked: slots.len(),
        count,
        logical,
        children: match managed {
            true => Children::OnDemand,
            false => Children::Listed,
        },
    };
    let kept = after_listing(limits, &listed);
    let depth = slots[parent].depth + 1;
    let secret = slots[parent].secret;
    let mut rest = Vec::new();
    for (i, raw) in children.into_iter().enumerate() {
        if i >= kept.keep {
            rest.push(crate::mapping::node::id_of(&raw, app));
            continue;
        }
        let mut child = node(&raw, app);
        child.inside_secret = secret;
        if secret {
            // Nothing inside a password field shows its text, its name included.
            child.name.clear();
        }
        let index = slots.len();
        let child_secret = secret || raw.is_password();
        slots.push(slot(Some(raw), child, Some(parent), depth, child_secret));
        slots[parent].children.push(index);
    }
    slots[parent].node.child_count = logical.unwrap_or(count as u32).max(count as u32);
    if kept.realization == cut(CutReason::Nodes) {
        slots[parent].unread = rest;
    }
    slots[parent].realization = kept.realization;
}

/// Reads every container from slot `from` on, breadth-first, then the values.
async fn finish<S: UiaSource>(
    calls: &Calls<S>,
    app: &str,
    pid: u32,
    mut slots: Vec<Slot>,
    limits: &WalkLimits,
    from: usize,
) -> Result<Walked, BackendError> {
    let mut next = from;
    let mut reported = 0;
    // Whether the app answered any call, and the first timeout if one came instead.
    let mut answered = false;
    let mut timed_out = None;
    while next < slots.len() {
        let mut batch = Vec::new();
        while next < slots.len() && batch.len() < IN_FLIGHT {
            let index = next;
            next += 1;
            match unlisted(&slots[index], limits) {
                Some(left) => slots[index].realization = left,
                None => batch.push(index),
            }
        }
        let reads = futures_util::future::join_all(
            batch
                .iter()
                .map(|&index| list(calls, pid, &slots[index], limits)),
        )
        .await;
        for (index, (read, counts)) in batch.into_iter().zip(reads) {
            match read {
                Ok(children) => {
                    answered = true;
                    slots[index].seen = true;
                    adopt(&mut slots, index, children, app, limits);
                    learn(&mut slots, index, counts);
                }
                Err(e) if index == 0 => {
                    return Err(to_backend(e, &slots[0].node.id, "read", calls.timeout()));
                }
                // Gone since its parent was read: it has no children to show.
                Err(UiaError::Unknown) => {}
                Err(UiaError::Com { hresult, .. })
                    if hresult == crate::error::hresult::UIA_E_ELEMENTNOTAVAILABLE => {}
                Err(e) => {
                    if e == UiaError::Timeout && timed_out.is_none() {
                        timed_out = Some(slots[index].node.id.clone());
                    }
                    slots[index].realization = cut(CutReason::Unreachable);
                }
            }
        }
        if let Some(progress) = &limits.progress
            && slots.len() >= reported + PROGRESS_EVERY
        {
            reported = slots.len();
            progress.report(reported);
        }
    }
    // An app that answered nothing (an app's root is read without it) is not responding: an
    // empty tree would say it has no content.
    if let (false, Some(id)) = (answered, timed_out) {
        return Err(to_backend(UiaError::Timeout, &id, "read", calls.timeout()));
    }
    read_values(calls, pid, &mut slots, limits).await;
    Ok(ordered(slots))
}

/// What a container says without listing it, or `None` to list it now. UI Automation
/// says how many children an element has only by listing them: its parent's count read
/// says it, where there was one.
fn unlisted(slot: &Slot, limits: &WalkLimits) -> Option<Realization> {
    let managed = slot
        .raw
        .as_ref()
        .is_some_and(|r| r.has(Pattern::ItemContainer));
    let unlisted = Unlisted {
        depth: slot.depth,
        count: slot.known,
        children: match managed {
            true => Children::OnDemand,
            false => Children::Listed,
        },
    };
    before_listing(limits, &unlisted).or_else(|| {
        let rows = too_many_rows(slot, limits)?;
        Some(Realization::NotRealized {
            logical: Some(rows),
        })
    })
}

/// Lists a container's children, then counts theirs where it found two or more (for a lone
/// child the count costs what asking it costs) and they are above the depth limit. Never
/// where a child is a grid or an item container: the count would list their items, past
/// the budgets that keep a spreadsheet's cells unread (`too_many_rows`).
async fn list<S: UiaSource>(
    calls: &Calls<S>,
    pid: u32,
    slot: &Slot,
    limits: &WalkLimits,
) -> (Result<Vec<RawElement>, UiaError>, HashMap<RuntimeKey, u32>) {
    let key = slot.raw.as_ref().map(|r| r.key.clone());
    let key = key.expect("only elements are asked");
    let children = calls.source().children(pid, &key);
    let children = calls.on(pid, Some(&key), children).await;
    let countable = children.as_ref().is_ok_and(|c| {
        let holds_items = |r: &RawElement| r.grid.is_some() || r.has(Pattern::ItemContainer);
        c.len() >= 2 && !c.iter().any(holds_items)
    });
    if !countable || slot.depth + 1 >= limits.max_depth {
        return (children, HashMap::new());
    }
    let counts = calls.source().child_counts(pid, &key);
    let counts = calls.on(pid, Some(&key), counts).await;
    (children, counts.map(HashMap::from_iter).unwrap_or_default())
}

/// Notes how many children each of `parent`'s children has, as counted.
fn learn(slots: &mut [Slot], parent: usize, counts: HashMap<RuntimeKey, u32>) {
    for i in 0..slots[parent].children.len() {
        let child = &mut slots[slots[parent].children[i]];
        let count = child.raw.as_ref().and_then(|r| counts.get(&r.key));
        if let Some(&count) = count {
            child.known = Some(count);
            child.seen = count == 0;
            child.node.child_count = count;
        }
    }
}

fn cut(reason: CutReason) -> Realization {
    Realization::Cut { reason }
}

/// A grid whose rows are more than the child budget: never enumerated (a spreadsheet).
fn too_many_rows(slot: &Slot, limits: &WalkLimits) -> Option<u32> {
    let (rows, columns) = slot.raw.as_ref()?.grid?;
    let rows = rows.max(0) as u32;
    (rows > limits.max_children || rows.saturating_mul(columns.max(1) as u32) > limits.max_children)
        .then_some(rows)
}

/// The values of admitted elements, the calls' conditions leaving password fields out;
/// nothing inside a secret is asked (`value_reads` says which calls).
async fn read_values<S: UiaSource>(
    calls: &Calls<S>,
    pid: u32,
    slots: &mut [Slot],
    limits: &WalkLimits,
) {
    let holds = holders(slots, limits);
    let reads = value_reads(slots, &holds);
    let answers: Vec<Vec<(RuntimeKey, String)>> =
        futures_util::stream::iter(reads.into_iter().map(|(p, below)| {
            let key = slots[p].raw.as_ref().map(|r| r.key.clone());
            async move {
                let key = key?;
                if std::time::Instant::now() >= limits.deadline {
                    return None;
                }
                let values = calls.source().values_below(pid, &key, below);
                calls.on(pid, Some(&key), values).await.ok()
            }
        }))
        .buffered(IN_FLIGHT)
        .filter_map(std::future::ready)
        .collect()
        .await;
    let by_key = holders_by_key(slots, &holds);
    for (key, value) in answers.into_iter().flatten() {
        if let Some(&Some(i)) = by_key.get(&key) {
            slots[i].node.value = Some(NodeValue::Text {
                text: line_feeds(value),
            });
        }
    }
    let in_time = std::time::Instant::now() < limits.deadline;
    if holds[0]
        && in_time
        && let Some(key) = slots[0].raw.as_ref().map(|r| r.key.clone())
    {
        let value = calls
            .on(pid, Some(&key), calls.source().value(pid, &key))
            .await;
        if let Ok(Some(text)) = value {
            slots[0].node.value = Some(NodeValue::Text {
                text: line_feeds(text),
            });
        }
    }
}

/// The holders by their `RuntimeId`; `None` for an id two of them share (a provider's bug:
/// a value is never given to an element it may not be). An empty id names none.
fn holders_by_key(slots: &[Slot], holds: &[bool]) -> HashMap<RuntimeKey, Option<usize>> {
    let mut by_key = HashMap::new();
    for i in (0..slots.len()).filter(|&i| holds[i]) {
        let Some(raw) = slots[i].raw.as_ref().filter(|r| !r.key.0.is_empty()) else {
            continue;
        };
        by_key
            .entry(raw.key.clone())
            .and_modify(|held| *held = None)
            .or_insert(Some(i));
    }
    by_key
}

/// Which slots hold a value the walk may ask for: a `Value` pattern, admitted.
fn holders(slots: &[Slot], limits: &WalkLimits) -> Vec<bool> {
    let parents: Vec<Option<usize>> = slots.iter().map(|s| s.parent).collect();
    let password: Vec<bool> = slots
        .iter()
        .map(|s| s.raw.as_ref().is_some_and(RawElement::is_password))
        .collect();
    let admission = ValueAdmission::decide(&parents, &password, limits.secrecy.is_secret());
    (0..slots.len())
        .map(|i| {
            slots[i].raw.as_ref().is_some_and(|r| r.has(Pattern::Value)) && admission.admits(i)
        })
        .collect()
}

/// The calls that read the held values: a subtree read whole with no password field in it
/// is asked once for all its descendants' (where that spares a call); elsewhere each
/// container whose children hold values is asked for theirs. Read whole: each element's
/// children listed or counted none, not one listing failed. Slots come parents first.
fn value_reads(slots: &[Slot], holds: &[bool]) -> Vec<(usize, Below)> {
    let n = slots.len();
    // Whether the subtree was read whole with no secret in it, and how many of its
    // containers have children that hold values.
    let mut clean = vec![true; n];
    let mut holding = vec![0usize; n];
    for i in (0..n).rev() {
        let slot = &slots[i];
        let has = slot.children.iter().any(|&c| holds[c]);
        holding[i] += usize::from(has);
        clean[i] &= slot.seen
            && slot.realization == Realization::Complete
            && slot.unread.is_empty()
            && !slot.secret;
        if let Some(p) = slot.parent {
            holding[p] += holding[i];
            clean[p] &= clean[i];
        }
    }
    let mut covered = vec![false; n];
    let mut reads = Vec::new();
    for i in 0..n {
        if slots[i].parent.is_some_and(|p| covered[p]) {
            covered[i] = true;
        } else if slots[i].raw.is_some() && clean[i] && holding[i] >= 2 {
            covered[i] = true;
            reads.push((i, Below::Descendants));
        } else if slots[i].children.iter().any(|&c| holds[c]) {
            reads.push((i, Below::Children));
        }
    }
    reads
}

/// The slots in document order, with what budgets left unread.
fn ordered(slots: Vec<Slot>) -> Walked {
    let children: Vec<&[usize]> = slots.iter().map(|s| s.children.as_slice()).collect();
    let (order, new_index) = deskpilot_platform::model::document_order(&children);
    let mut pending = Vec::new();
    for (new, &old) in order.iter().enumerate() {
        if let Realization::Cut { reason } = slots[old].realization
            && reason != CutReason::Unreachable
        {
            pending.push(Pending {
                parent: new,
                unread: slots[old].unread.clone(),
            });
        }
    }
    let mut taken: Vec<Option<Slot>> = slots.into_iter().map(Some).collect();
    let mut raws = Vec::new();
    let mut nodes = Vec::with_capacity(order.len());
    for &old in &order {
        let slot = taken[old].take().expect("each slot once");
        if let Some(raw) = slot.raw {
            raws.push(raw);
        }
        nodes.push(TreeNode {
            node: slot.node,
            parent: slot.parent.map(|p| new_index[p]),
            children: slot.children.iter().map(|&c| new_index[c]).collect(),
            depth: slot.depth,
            realization: slot.realization,
        });
    }
    Walked {
        tree: Tree { nodes, pending },
        raws,
    }
}
