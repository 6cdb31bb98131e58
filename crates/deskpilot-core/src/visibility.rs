//! Whether an element can be seen: the rule actions, strict resolution and `wait_for` share.
//! Visible means `showing` on, or unknown where the toolkit never reports it (GTK 4.8), and
//! `visible` not known off, for the element and each of its ancestors in the tree.

use crate::model::{Node, Role, State, Tree};

/// True unless the node itself says it is not shown. An application object reports no
/// states of its own (ATK: none at all) and counts as shown.
pub fn shown(node: &Node) -> bool {
    node.role == Role::Application
        || (!node.states.is_not(State::Showing) && !node.states.is_not(State::Visible))
}

/// For each node of `tree`, whether it and all its ancestors are shown.
pub fn visible(tree: &Tree) -> Vec<bool> {
    let mut out = vec![false; tree.nodes.len()];
    for (index, tn) in tree.nodes.iter().enumerate() {
        let parent = tn.parent.is_none_or(|p| out[p]);
        out[index] = parent && shown(&tn.node);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ElementId, Realization, StateSet, TreeNode};

    fn node(role: Role, showing: Option<bool>, parent: Option<usize>) -> TreeNode {
        let mut states = StateSet::default();
        if let Some(on) = showing {
            states.set(State::Showing, on);
        }
        let mut node = Node::new(ElementId::new(":1.1", "/x"), role);
        node.states = states;
        TreeNode {
            node,
            parent,
            children: Vec::new(),
            depth: 0,
            realization: Realization::Complete,
        }
    }

    #[test]
    fn hidden_ancestors_hide_and_applications_do_not() {
        let tree = Tree {
            nodes: vec![
                node(Role::Application, Some(false), None),
                node(Role::Window, Some(true), Some(0)),
                node(Role::Menu, Some(false), Some(1)),
                node(Role::MenuItem, None, Some(2)),
                node(Role::Button, None, Some(1)),
            ],
            pending: Vec::new(),
        };
        assert_eq!(visible(&tree), [true, true, false, false, true]);
    }
}
