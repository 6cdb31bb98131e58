//! A budgeted walk over a fake app's tree, as a real backend walks: breadth-first, within the
//! walk budget the backends share (`deskpilot_platform::budget`).

use deskpilot_platform::WalkLimits;
use deskpilot_platform::budget::{Children, Listed, Unlisted, after_listing, before_listing};
use deskpilot_platform::model::{CutReason, Pending, Realization, State, Tree, TreeNode};

use crate::FakeNode;

/// Breadth-first within the limits, like the real backends; returned in document order.
pub(crate) fn walk(root: &FakeNode, limits: &WalkLimits) -> Tree {
    struct Slot<'a> {
        fake: &'a FakeNode,
        parent: Option<usize>,
        children: Vec<usize>,
        depth: u32,
        realization: Realization,
    }
    let mut slots = vec![Slot {
        fake: root,
        parent: None,
        children: Vec::new(),
        depth: 0,
        realization: Realization::Complete,
    }];
    let mut next = 0;
    while next < slots.len() {
        let index = next;
        next += 1;
        let fake = slots[index].fake;
        let depth = slots[index].depth;
        let count = fake.node.child_count;
        let kind = match fake.node.states.is(State::ManagesDescendants) {
            true => Children::OnDemand,
            false => Children::Listed,
        };
        let unlisted = Unlisted {
            depth,
            count: Some(count),
            children: kind,
        };
        if let Some(left) = before_listing(limits, &unlisted) {
            slots[index].realization = left;
            continue;
        }
        let listed = Listed {
            walked: slots.len(),
            count: fake.children.len(),
            logical: (!fake.count_unknown).then_some(count),
            children: kind,
        };
        let kept = after_listing(limits, &listed);
        for child in fake.children.iter().take(kept.keep) {
            let child_index = slots.len();
            slots.push(Slot {
                fake: child,
                parent: Some(index),
                children: Vec::new(),
                depth: depth + 1,
                realization: Realization::Complete,
            });
            slots[index].children.push(child_index);
        }
        slots[index].realization = kept.realization;
    }
    let children: Vec<&[usize]> = slots.iter().map(|s| s.children.as_slice()).collect();
    let (order, new_index) = deskpilot_platform::model::document_order(&children);
    let pending = order
        .iter()
        .enumerate()
        .filter_map(|(new, &old)| {
            let s = &slots[old];
            let Realization::Cut { reason } = s.realization else {
                return None;
            };
            let unread = match reason {
                CutReason::Nodes => s.fake.children[s.children.len()..]
                    .iter()
                    .map(|c| c.node.id.clone())
                    .collect(),
                _ => Vec::new(),
            };
            Some(Pending {
                parent: new,
                unread,
            })
        })
        .collect();
    Tree {
        pending,
        nodes: order
            .iter()
            .map(|&old| {
                let s = &slots[old];
                let mut node = s.fake.node.clone();
                if s.fake.lags
                    && let Some(checked) = node.states.get(State::Checked)
                {
                    node.states.set(State::Checked, !checked);
                }
                TreeNode {
                    node,
                    parent: s.parent.map(|p| new_index[p]),
                    children: s.children.iter().map(|&c| new_index[c]).collect(),
                    depth: s.depth,
                    realization: s.realization,
                }
            })
            .collect(),
    }
}
