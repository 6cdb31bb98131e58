//! The layout rule on hand-built trees: zenity's form, a label above, ties, and what a
//! label never names.

use super::*;
use crate::model::{ElementId, Node, Realization, TreeNode};

/// A container (index 0) holding `children`: (role, name, bounds).
fn form(children: &[(Role, &str, Rect)]) -> Tree {
    let mut tree = Tree::default();
    tree.nodes.push(TreeNode {
        node: Node::new(ElementId::new(":1.1", "/0"), Role::Group),
        parent: None,
        children: (1..=children.len()).collect(),
        depth: 0,
        realization: Realization::Complete,
    });
    for (i, (role, name, bounds)) in children.iter().enumerate() {
        let mut node = Node::new(ElementId::new(":1.1", format!("/{}", i + 1)), *role);
        node.name = (*name).to_owned();
        node.bounds = Some(*bounds);
        tree.nodes.push(TreeNode {
            node,
            parent: Some(0),
            children: Vec::new(),
            depth: 1,
            realization: Realization::Complete,
        });
    }
    tree
}

fn labels(tree: &Tree) -> Vec<Option<&str>> {
    tree.nodes.iter().map(|n| n.node.label.as_deref()).collect()
}

/// zenity's form: each label left of its entry on the same row, listed in any order.
#[test]
fn a_label_left_of_a_field_on_its_row_labels_it() {
    let mut tree = form(&[
        (Role::TextBox, "", Rect::new(70, 8, 200, 24)),
        (Role::Label, "Email", Rect::new(10, 42, 50, 20)),
        (Role::TextBox, "", Rect::new(70, 40, 200, 24)),
        (Role::Label, "Name", Rect::new(10, 10, 50, 20)),
    ]);
    infer_labels(&mut tree);
    assert_eq!(
        labels(&tree),
        [None, Some("Name"), None, Some("Email"), None]
    );
}

/// No label on the row: the nearest one above that overlaps it across.
#[test]
fn else_the_nearest_label_above_it() {
    let mut tree = form(&[
        (Role::Label, "Title", Rect::new(10, 0, 100, 20)),
        (Role::Label, "Notes", Rect::new(10, 60, 100, 20)),
        (Role::TextBox, "", Rect::new(10, 84, 260, 60)),
    ]);
    infer_labels(&mut tree);
    assert_eq!(labels(&tree)[3], Some("Notes"));
}

/// Two labels equally near give none; a named field, a label to its right, or a label in
/// another container give none either.
#[test]
fn ties_names_and_far_labels_give_none() {
    let mut tree = form(&[
        (Role::Label, "Left", Rect::new(10, 0, 100, 20)),
        (Role::Label, "Right", Rect::new(150, 0, 100, 20)),
        (Role::TextBox, "", Rect::new(10, 30, 260, 24)),
        (Role::Label, "kg", Rect::new(395, 100, 20, 24)),
        (Role::SpinButton, "", Rect::new(300, 100, 90, 24)),
        (Role::TextBox, "Own name", Rect::new(330, 30, 90, 24)),
    ]);
    infer_labels(&mut tree);
    assert_eq!(labels(&tree)[3], None, "two labels above, equally near");
    assert_eq!(labels(&tree)[5], None, "a unit to its right is no label");
    assert_eq!(labels(&tree)[6], None, "the accessible name wins");
    let mut alone = form(&[(Role::TextBox, "", Rect::new(70, 8, 200, 24))]);
    alone.nodes[0].children.clear();
    alone.nodes.push(TreeNode {
        node: {
            let mut l = Node::new(ElementId::new(":1.1", "/9"), Role::Label);
            l.name = "Elsewhere".into();
            l.bounds = Some(Rect::new(10, 10, 50, 20));
            l
        },
        parent: None,
        children: Vec::new(),
        depth: 0,
        realization: Realization::Complete,
    });
    infer_labels(&mut alone);
    assert!(labels(&alone).iter().all(Option::is_none));
}

/// zenity's form in a mirrored layout (GTK in Hebrew): each label right of its entry.
#[test]
fn in_a_mirrored_window_the_label_at_a_fields_right_labels_it() {
    let mut tree = form(&[
        (Role::TextBox, "", Rect::new(535, 416, 168, 34)),
        (Role::Label, "Email", Rect::new(715, 416, 37, 34)),
        (Role::TextBox, "", Rect::new(535, 376, 168, 34)),
        (Role::Label, "Name", Rect::new(713, 376, 39, 34)),
    ]);
    infer_labels(&mut tree);
    assert_eq!(
        labels(&tree),
        [None, Some("Email"), None, Some("Name"), None]
    );
}

/// Labels above, flush with the fields' start, and units after them: the units do not turn
/// the reading round, in either direction.
#[test]
fn units_after_fields_never_turn_the_reading_round() {
    let mut ltr = form(&[
        (Role::Label, "Width", Rect::new(10, 0, 60, 20)),
        (Role::SpinButton, "", Rect::new(10, 24, 90, 24)),
        (Role::Label, "px", Rect::new(104, 24, 20, 24)),
    ]);
    infer_labels(&mut ltr);
    assert_eq!(labels(&ltr)[2], Some("Width"));
    let mut rtl = form(&[
        (Role::Label, "Width", Rect::new(40, 0, 60, 20)),
        (Role::SpinButton, "", Rect::new(10, 24, 90, 24)),
        (Role::Label, "px", Rect::new(-14, 24, 20, 24)),
    ]);
    infer_labels(&mut rtl);
    assert_eq!(labels(&rtl)[2], Some("Width"));
}
