//! A budgeted walk over a fake app's tree, as a real backend walks: breadth-first, cut by
//! node, depth and deadline budgets.

use std::time::Instant;

use deskpilot_platform::WalkLimits;
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
        let managed = fake.node.states.is(State::ManagesDescendants);
        slots[index].realization = if count == 0 {
            Realization::Complete
        } else if Instant::now() >= limits.deadline {
            Realization::Cut {
                reason: CutReason::Deadline,
            }
        } else if depth >= limits.max_depth {
            Realization::Cut {
                reason: CutReason::Depth,
            }
        } else if count > limits.max_children || (managed && count > limits.max_managed_children) {
            Realization::NotRealized {
                logical: Some(count),
            }
        } else {
            let room = limits.max_nodes.saturating_sub(slots.len());
            for child in fake.children.iter().take(room) {
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
            if fake.children.len() > room {
                Realization::Cut {
                    reason: CutReason::Nodes,
                }
            } else if managed && fake.count_unknown {
                Realization::Partial {
                    realized: fake.children.len() as u32,
                    logical: None,
                }
            } else if managed && (fake.children.len() as u32) < count {
                Realization::Partial {
                    realized: fake.children.len() as u32,
                    logical: Some(count),
                }
            } else {
                Realization::Complete
            }
        };
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
