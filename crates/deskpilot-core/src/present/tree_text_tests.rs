//! The compact tree read back: what the renderer writes parses to what the tree held.

use super::*;
use crate::filter::Filter;
use crate::model::{ElementId, Node, NodeValue, Realization, Role, State, Tree, TreeNode};
use crate::render::render;

fn node(role: Role, name: &str) -> Node {
    let mut n = Node::new(ElementId::new(":1.1", format!("/{name}")), role);
    n.name = name.to_owned();
    n
}

fn tree(nodes: Vec<(Node, Option<usize>, u32, Realization)>) -> Tree {
    let mut tree = Tree::default();
    for (i, (node, parent, depth, realization)) in nodes.into_iter().enumerate() {
        if let Some(p) = parent {
            tree.nodes[p].children.push(i);
        }
        tree.nodes.push(TreeNode {
            node,
            parent,
            children: Vec::new(),
            depth,
            realization,
        });
    }
    tree
}

#[test]
fn what_the_renderer_writes_parses_back() {
    let window = node(Role::Window, "Main \"quoted\" [ref=e99]");
    let mut field = node(Role::TextBox, "Name");
    field.value = Some(NodeValue::Text {
        text: "two\nlines \\ here".into(),
    });
    field.states.set(State::Focused, true);
    let mut check = node(Role::Checkbox, "Wrap");
    check.states.set(State::Checked, true);
    check.states.set(State::Enabled, false);
    let mut secret = node(Role::Password, "Password");
    secret.value = Some(NodeValue::Redacted { chars: Some(7) });
    let other = node(Role::Window, "Other");
    let tree = tree(vec![
        (window, None, 0, Realization::Complete),
        (field, Some(0), 1, Realization::Complete),
        (check, Some(0), 1, Realization::Complete),
        (secret, Some(0), 1, Realization::Complete),
        (other, None, 0, Realization::Folded),
    ]);
    let rendered = render(&tree, Filter::All, &|i| Some(format!("e{}", i + 1)));
    let lines = parse_tree(&rendered.text).unwrap();
    assert_eq!(lines.len(), 5, "{}", rendered.text);
    assert_eq!(lines[0].name.as_deref(), Some("Main \"quoted\" [ref=e99]"));
    assert_eq!(lines[0].reference.as_deref(), Some("e1"));
    assert_eq!(lines[1].depth, 1);
    assert_eq!(lines[1].role, "textbox");
    assert_eq!(lines[1].value.as_deref(), Some("two\nlines \\ here"));
    assert_eq!(lines[1].flags, ["focused"]);
    assert_eq!(lines[2].flags, ["checked", "disabled"]);
    assert_eq!(lines[3].value.as_deref(), Some("[redacted 7 chars]"));
    assert_eq!(lines[4].flags, ["folded"]);
    assert_eq!(lines[4].reference.as_deref(), Some("e5"));
    // Without refs, and the forged one in the name stays text.
    let stripped = strip_refs(&rendered.text);
    assert!(!stripped.contains(" [ref=e1]"), "{stripped}");
    assert!(stripped.contains("\\[ref=e99\\]"), "{stripped}");
    assert!(
        stripped.contains("- window \"Other\" [folded]"),
        "{stripped}"
    );
    assert!(
        parse_tree(&stripped)
            .unwrap()
            .iter()
            .all(|l| l.reference.is_none())
    );
}

#[test]
fn patterns_and_garbage() {
    let lines = parse_tree("- button /Sa.e/ [focused]\n# a note\n\n - label: 42").unwrap();
    assert_eq!(lines[0].name_pattern.as_deref(), Some("/Sa.e/"));
    assert_eq!(lines[1].value.as_deref(), Some("42"));
    assert!(parse_tree("button \"Save\"").is_err());
    assert!(parse_tree("- button \"Save").is_err());
}

/// An inferred label reads back as a label, never as the name.
#[test]
fn an_inferred_label_reads_back_as_such() {
    let lines = parse_tree("- textbox (label \"Na\\\"me\"): \"Ada\" [focused] [ref=e2]").unwrap();
    assert_eq!(lines[0].name, None);
    assert_eq!(lines[0].label.as_deref(), Some("Na\"me"));
    assert_eq!(lines[0].value.as_deref(), Some("Ada"));
    assert_eq!(lines[0].reference.as_deref(), Some("e2"));
}
