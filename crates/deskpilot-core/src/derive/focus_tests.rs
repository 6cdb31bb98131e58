use super::*;
use crate::model::{Node, Realization, Role, StateSet, TreeNode};

use Role::{Application, Button, Dialog, Generic, Label, StatusBar, Tab, TabList, TextBox, Window};
use State::{Editable, Focusable, Focused, Showing, Visible};

/// `(role, parent, states)` in document order; depth follows the parents.
fn tree(nodes: &[(Role, Option<usize>, &[State])]) -> Tree {
    let mut tree = Tree::default();
    for (i, (role, parent, states)) in nodes.iter().enumerate() {
        let mut node = Node::new(ElementId::new(":1.1", format!("/{i}")), *role);
        node.states = StateSet::all_known(states.iter().copied());
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
        .filter(|&i| tree.nodes[i].node.states.is(Focused))
        .collect()
}

fn id(i: usize) -> ElementId {
    ElementId::new(":1.1", format!("/{i}"))
}

const SHOWN: &[State] = &[Showing, Visible, Focused];
const PROXY: &[State] = &[Showing, Visible, Focusable, Focused];
const EDITOR: &[State] = &[Showing, Visible, Focusable, Editable, Focused];

/// KWrite as pyatspi read it after "New File": a container above the text area, the view
/// (focusable) holding it, a page tab that is not showing, status-bar buttons; and a dialog
/// with its own focus.
fn kwrite() -> Tree {
    tree(&[
        (Application, None, &[]),
        (Window, Some(0), &[Showing, Visible]),
        (Generic, Some(1), SHOWN),
        (Generic, Some(2), PROXY),
        (TextBox, Some(3), EDITOR),
        (Tab, Some(2), &[Focusable, Focused]),
        (StatusBar, Some(1), &[Showing, Visible]),
        (Button, Some(6), PROXY),
        (Button, Some(6), PROXY),
        (Dialog, Some(0), &[Showing, Visible]),
        (Button, Some(9), PROXY),
    ])
}

#[test]
fn with_no_event_the_shown_focusable_editor_keeps_the_focus_and_each_window_its_own() {
    let mut kwrite = kwrite();
    assert_eq!(
        in_doubt(&kwrite),
        [id(1)],
        "the dialog claims one: no doubt"
    );
    one_focus_per_window(&mut kwrite, &[]);
    assert_eq!(focused(&kwrite), [4, 10]);
}

#[test]
fn the_element_the_focus_event_named_wins_over_the_rank() {
    let mut kwrite = kwrite();
    one_focus_per_window(&mut kwrite, &[id(8)]);
    assert_eq!(focused(&kwrite), [8, 10]);
    // A name that no longer claims the focus is no evidence: the rank decides.
    let mut kwrite = self::kwrite();
    one_focus_per_window(&mut kwrite, &[id(6)]);
    assert_eq!(focused(&kwrite), [4, 10]);
}

/// FeatherPad: the editor's viewport below it and its tab claim the focus, neither
/// focusable; the deepest would be the viewport.
#[test]
fn a_proxy_that_cannot_take_the_focus_never_keeps_it_though_deeper() {
    let mut featherpad = tree(&[
        (Window, None, &[Showing, Visible]),
        (TextBox, Some(0), EDITOR),
        (Generic, Some(1), SHOWN),
        (TabList, Some(0), &[Showing, Visible]),
        (Tab, Some(3), SHOWN),
    ]);
    one_focus_per_window(&mut featherpad, &[]);
    assert_eq!(focused(&featherpad), [1]);
}

/// GTK, Gecko and UIA claim one focus: nothing to settle, the tree is left as it is.
#[test]
fn a_single_claim_is_left_alone() {
    let mut one = tree(&[(Window, None, &[]), (Label, Some(0), &[Focused])]);
    assert!(in_doubt(&one).is_empty());
    one_focus_per_window(&mut one, &[]);
    assert_eq!(focused(&one), [1]);
}
