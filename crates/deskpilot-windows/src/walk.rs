//! The walk: breadth-first by container, one `children` call (one cache request) per
//! container, within the caller's budgets; then values, one call per container whose children
//! hold admitted values, never a password field's. Returned in document order.

use deskpilot_platform::budget::{Children, Listed, Unlisted, after_listing, before_listing};
use deskpilot_platform::model::{
    CutReason, ElementId, Node, NodeValue, Pending, Realization, Tree, TreeNode,
};
use deskpilot_platform::{BackendError, ValueAdmission, WalkLimits};

use crate::calls::Calls;
use crate::error::to_backend;
use crate::mapping::node::node;
use crate::mapping::text::line_feeds;
use crate::raw::{Pattern, RawElement, UiaError};
use crate::source::UiaSource;

/// Containers asked at once.
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
            // UI Automation says how many children an element has only by listing them.
            let unlisted = Unlisted {
                depth: slots[index].depth,
                count: None,
                children: Children::Listed,
            };
            let left = before_listing(limits, &unlisted).or_else(|| {
                let rows = too_many_rows(&slots[index], limits)?;
                Some(Realization::NotRealized {
                    logical: Some(rows),
                })
            });
            match left {
                Some(left) => slots[index].realization = left,
                None => batch.push(index),
            }
        }
        let reads = futures_util::future::join_all(batch.iter().map(|&index| {
            let key = slots[index].raw.as_ref().map(|r| r.key.clone());
            async move {
                let key = key.expect("only elements are asked");
                calls
                    .on(pid, Some(&key), calls.source().children(pid, &key))
                    .await
            }
        }))
        .await;
        for (index, read) in batch.into_iter().zip(reads) {
            match read {
                Ok(children) => {
                    answered = true;
                    adopt(&mut slots, index, children, app, limits)
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

/// The values of admitted elements: one call per container whose children hold values, its
/// condition leaving password fields out; nothing inside a secret is asked.
async fn read_values<S: UiaSource>(
    calls: &Calls<S>,
    pid: u32,
    slots: &mut [Slot],
    limits: &WalkLimits,
) {
    let parents: Vec<Option<usize>> = slots.iter().map(|s| s.parent).collect();
    let password: Vec<bool> = slots
        .iter()
        .map(|s| s.raw.as_ref().is_some_and(RawElement::is_password))
        .collect();
    let admission = ValueAdmission::decide(&parents, &password, limits.secrecy.is_secret());
    let holds: Vec<bool> = (0..slots.len())
        .map(|i| {
            slots[i].raw.as_ref().is_some_and(|r| r.has(Pattern::Value)) && admission.admits(i)
        })
        .collect();
    let holds_value = |i: usize| holds[i];
    let containers: Vec<usize> = (0..slots.len())
        .filter(|&p| slots[p].children.iter().any(|&c| holds_value(c)))
        .collect();
    let root_value = holds_value(0);
    if std::time::Instant::now() >= limits.deadline {
        return;
    }
    let reads = futures_util::future::join_all(containers.iter().map(|&p| {
        let key = slots[p].raw.as_ref().map(|r| r.key.clone());
        async move {
            let key = key?;
            calls
                .on(pid, Some(&key), calls.source().child_values(pid, &key))
                .await
                .ok()
        }
    }))
    .await;
    for (&p, values) in containers.iter().zip(reads) {
        for (key, value) in values.unwrap_or_default() {
            let child =
                slots[p].children.iter().copied().find(|&c| {
                    slots[c].raw.as_ref().is_some_and(|r| r.key == key) && holds_value(c)
                });
            if let Some(c) = child {
                slots[c].node.value = Some(NodeValue::Text {
                    text: line_feeds(value),
                });
            }
        }
    }
    if root_value && let Some(key) = slots[0].raw.as_ref().map(|r| r.key.clone()) {
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
