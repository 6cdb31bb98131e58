//! Finding, changing and removing nodes of a fake tree.

use deskpilot_platform::model::{ElementId, Node, NodeValue};

use crate::FakeNode;

/// Replaces each node that vanishes by its twin under a new id.
pub(crate) fn renew_vanishing(node: &mut FakeNode) {
    if node.vanishes {
        node.node.id.object.push('~');
    }
    for child in &mut node.children {
        renew_vanishing(child);
    }
}

/// Marks a node inside a secret and drops any text it would show.
pub(crate) fn keep_secret(node: &mut Node, inside_secret: bool) {
    node.inside_secret = inside_secret;
    if node.is_secret()
        && let Some(NodeValue::Text { text }) = &node.value
    {
        // Only the length, as the real backends read it.
        node.value = Some(NodeValue::Redacted {
            chars: Some(text.chars().count() as u32),
        });
    }
}

pub(crate) fn find<'a>(node: &'a FakeNode, id: &ElementId) -> Option<&'a FakeNode> {
    if &node.node.id == id {
        return Some(node);
    }
    node.children.iter().find_map(|c| find(c, id))
}

pub(crate) fn find_mut<'a>(node: &'a mut FakeNode, id: &ElementId) -> Option<&'a mut FakeNode> {
    if &node.node.id == id {
        return Some(node);
    }
    node.children.iter_mut().find_map(|c| find_mut(c, id))
}

pub(crate) fn remove_from(node: &mut FakeNode, id: &ElementId) {
    node.children.retain(|c| &c.node.id != id);
    for child in &mut node.children {
        remove_from(child, id);
    }
}
