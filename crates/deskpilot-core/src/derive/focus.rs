//! One focus per window. Qt reports `focused` on every widget whose focus proxy has the
//! focus (KWrite's five status-bar buttons beside its text area) and on the containers
//! above it: a reader is shown one, the deepest, as `focused` (the element `focused`
//! names when the app's events name none).

use crate::model::{Role, State, Tree};

/// Leaves `focused` on the deepest focused element of each window of `tree` (the last of
/// equally deep ones), and off on the others.
pub fn one_focus_per_window(tree: &mut Tree) {
    let mut kept: Vec<(usize, usize)> = Vec::new(); // (window, element)
    let mut dropped = Vec::new();
    for index in 0..tree.nodes.len() {
        if !tree.nodes[index].node.states.is(State::Focused) {
            continue;
        }
        let window = window_of(tree, index);
        match kept.iter_mut().find(|(w, _)| *w == window) {
            None => kept.push((window, index)),
            Some((_, best)) if tree.nodes[index].depth >= tree.nodes[*best].depth => {
                dropped.push(*best);
                *best = index;
            }
            Some(_) => dropped.push(index),
        }
    }
    for index in dropped {
        tree.nodes[index].node.states.set(State::Focused, false);
    }
}

/// The top-level element holding `index`: the child of the application on the way up, or
/// the tree's root when the tree is one window.
fn window_of(tree: &Tree, index: usize) -> usize {
    let mut at = index;
    while let Some(parent) = tree.nodes[at].parent {
        if tree.nodes[parent].node.role == Role::Application {
            return at;
        }
        at = parent;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ElementId, Node, Realization, StateSet, TreeNode};

    /// `(role, parent, focused)` in document order; depth follows the parents.
    fn tree(nodes: &[(Role, Option<usize>, bool)]) -> Tree {
        let mut tree = Tree::default();
        for (i, (role, parent, focused)) in nodes.iter().enumerate() {
            let mut node = Node::new(ElementId::new(":1.1", format!("/{i}")), *role);
            let on = focused.then_some(State::Focused);
            node.states = StateSet::all_known(on);
            let depth = parent.map_or(0, |p| tree.nodes[p].depth + 1);
            tree.nodes.push(TreeNode {
                node,
                parent: *parent,
                children: Vec::new(),
                depth,
                realization: Realization::Complete,
            });
            if let Some(p) = parent {
                tree.nodes[*p].children.push(i);
            }
        }
        tree
    }

    fn focused(tree: &Tree) -> Vec<usize> {
        (0..tree.len())
            .filter(|&i| tree.nodes[i].node.states.is(State::Focused))
            .collect()
    }

    /// KWrite: the text area deep in the window, five proxies in the status bar, the
    /// containers above the text area; and a second window keeps its own focus.
    #[test]
    fn the_deepest_focused_element_of_each_window_keeps_the_focus() {
        use Role::*;
        let mut kwrite = tree(&[
            (Application, None, false),
            (Window, Some(0), false),
            (Generic, Some(1), true),
            (Generic, Some(2), true),
            (TextBox, Some(3), true),
            (StatusBar, Some(1), false),
            (Button, Some(5), true),
            (Button, Some(5), true),
            (Dialog, Some(0), false),
            (Button, Some(8), true),
        ]);
        one_focus_per_window(&mut kwrite);
        assert_eq!(focused(&kwrite), [4, 9]);
        let mut one = tree(&[(Window, None, false), (Button, Some(0), true)]);
        one_focus_per_window(&mut one);
        assert_eq!(focused(&one), [1]);
    }
}
