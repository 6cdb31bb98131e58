//! One focus per window. Qt says `focused` of every widget whose focus proxy has the focus:
//! KWrite's text area, its view above it and five status-bar buttons; FeatherPad's editor, its
//! viewport below it and its tab. A reader is shown one per window: the one the app's latest
//! focus event named, else the likeliest owner of the keys (`rank`).

use crate::model::{ElementId, State, Tree};

/// The elements of `tree` that share a window with another element claiming the focus: the
/// windows whose focus needs the app's focus events to settle. Empty for most apps (GTK,
/// Gecko and UIA claim one each).
pub fn in_doubt(tree: &Tree) -> Vec<ElementId> {
    let mut doubted = Vec::new();
    for (window, claims) in claims_per_window(tree) {
        if claims.len() > 1 {
            doubted.push(tree.nodes[window].node.id.clone());
        }
    }
    doubted
}

/// Leaves `focused` on one element of each window of `tree`: the one in `named` (elements the
/// apps' latest focus events named) when it claims the focus there, else the best by `rank`.
pub fn one_focus_per_window(tree: &mut Tree, named: &[ElementId]) {
    for (_, claims) in claims_per_window(tree) {
        let by_event = claims
            .iter()
            .copied()
            .find(|&i| named.contains(&tree.nodes[i].node.id));
        let kept = by_event.or_else(|| claims.iter().copied().max_by_key(|&i| rank(tree, i)));
        for index in claims {
            if Some(index) != kept {
                tree.nodes[index].node.states.set(State::Focused, false);
            }
        }
    }
}

/// How likely an element claiming the focus owns the keys, when no event says: one that is
/// shown and can take the focus itself (a proxy such as Qt's viewport cannot), then one
/// that takes typed text (a proxy's target is usually the editor), then the deepest (the
/// containers above an editor proxy to it), then the last in document order.
fn rank(tree: &Tree, index: usize) -> (bool, bool, u32) {
    let node = &tree.nodes[index].node;
    let able = crate::visibility::shown(node) && node.states.is(State::Focusable);
    (
        able,
        node.states.is(State::Editable),
        tree.nodes[index].depth,
    )
}

/// The elements claiming the focus, grouped by the top-level element holding them, in
/// document order.
fn claims_per_window(tree: &Tree) -> Vec<(usize, Vec<usize>)> {
    let mut windows: Vec<(usize, Vec<usize>)> = Vec::new();
    for index in 0..tree.nodes.len() {
        if !tree.nodes[index].node.states.is(State::Focused) {
            continue;
        }
        let window = super::window_of(tree, index);
        match windows.iter_mut().find(|(w, _)| *w == window) {
            Some((_, claims)) => claims.push(index),
            None => windows.push((window, vec![index])),
        }
    }
    windows
}

#[cfg(test)]
#[path = "focus_tests.rs"]
mod tests;
