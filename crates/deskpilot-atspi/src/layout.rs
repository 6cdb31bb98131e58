//! Web pages (Gecko, Chromium) move under a style change or a scroll with no event. At each
//! reuse, every element of a kept tree read as placed is asked where it is. Every other is
//! asked whether it shows now (Chromium shows a scrolled-back element with no event). One call
//! each. Test: `kept_web.rs` (the Linux tests), its "shifted", "scrolled" and "focused" steps.

use deskpilot_platform::model::{ElementId, Rect, State, Tree, TreeNode};

use crate::error::is_unreachable;
use crate::mapping::map_states;
use crate::proto::Proto;
use crate::read::AppTraits;

/// The outermost elements of `tree` that moved or began or ceased to show since it was read
/// (walking them reads the others). `None` when the app stops answering.
pub async fn moved(proto: &Proto, tree: &Tree, traits: AppTraits) -> Option<Vec<ElementId>> {
    let asked: Vec<usize> = (0..tree.nodes.len())
        .filter(|&i| worth_asking(tree, i))
        .collect();
    let asks = asked.iter().map(|&i| still(proto, &tree.nodes[i], traits));
    let answers = futures_util::future::join_all(asks).await;
    let mut moved = vec![false; tree.nodes.len()];
    for (&i, still) in asked.iter().zip(answers) {
        moved[i] = !still?;
    }
    let outermost = |&i: &usize| moved[i] && !tree.ancestors(i).any(|a| moved[a]);
    let tops = (0..tree.nodes.len()).filter(outermost);
    Some(tops.map(|i| tree.nodes[i].node.id.clone()).collect())
}

/// Whether the node at `index` is asked: one read as placed, or the outermost of those read
/// as not shown (what is under an element that does not show does not show either).
fn worth_asking(tree: &Tree, index: usize) -> bool {
    let tn = &tree.nodes[index];
    let shown = |tn: &TreeNode| tn.node.bounds.is_some() || tn.node.states.is(State::Showing);
    shown(tn) || tn.parent.is_none_or(|p| shown(&tree.nodes[p]))
}

/// Whether `tn` is where it was read, or shows as it did; `None`: the app does not answer.
async fn still(proto: &Proto, tn: &TreeNode, traits: AppTraits) -> Option<bool> {
    let node = &tn.node;
    let answer = match node.bounds {
        Some(was) => proto
            .extents(&node.id)
            .await
            .map(|(x, y, w, h)| Rect::new(x, y, w, h) == was),
        None => proto.state(&node.id).await.map(|bits| {
            let now = map_states(bits, traits.reporting);
            [State::Showing, State::Visible]
                .iter()
                .all(|&s| now.is(s) == node.states.is(s))
        }),
    };
    match answer {
        Ok(still) => Some(still),
        Err(e) if is_unreachable(&e) => None,
        // Gone, or no longer answering where it is: read it again.
        Err(_) => Some(false),
    }
}
