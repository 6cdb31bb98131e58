//! Item views changed without an event. Qt announces neither a list cleared and filled again
//! nor a cell's new text (`docs/events.md`). A kept Qt tree is reused only while each item
//! view lists as many children as it was read with, named as then; a view that does not is
//! walked again whole (`patch.rs`). One call per view and one per item read, all at once.
//! Names, not ids: Qt's tree views make new objects for their items at each query.
//! Test: `kept.rs` (the Linux tests) `qt5_a_kept_tree_is_reused_only_while_nothing_changed`.

use deskpilot_platform::model::{ElementId, Realization, Tree, TreeNode};
use futures_util::future::join_all;

use crate::proto::Proto;

/// The item views of `tree` that list other children now (none when `silent` is false: the
/// toolkit announces them); `None` when one cannot say.
pub async fn rebuilt(proto: &Proto, tree: &Tree, silent: bool) -> Option<Vec<ElementId>> {
    if !silent {
        return Some(Vec::new());
    }
    let views = tree.nodes.iter().filter(|tn| tn.node.role.is_item_view());
    let views: Vec<&TreeNode> = views.collect();
    let now = join_all(views.iter().map(|view| proto.children(&view.node.id))).await;
    let mut rebuilt = Vec::new();
    let mut named = Vec::new();
    for (view, now) in views.iter().zip(now) {
        let now = now.ok()?;
        let complete = view.realization == Realization::Complete;
        match complete {
            true if now.len() == view.children.len() => named.push((*view, now)),
            false if now.len() == view.node.child_count as usize => {}
            _ => rebuilt.push(view.node.id.clone()),
        }
    }
    let names = named
        .iter()
        .map(|(_, now)| join_all(now.iter().map(|c| proto.name(c))));
    for ((view, _), names) in named.iter().zip(join_all(names).await) {
        let kept = view
            .children
            .iter()
            .map(|&c| Some(&tree.nodes[c].node.name));
        if !kept.eq(names.iter().map(|n| n.as_ref().ok())) {
            rebuilt.push(view.node.id.clone());
        }
    }
    Some(rebuilt)
}
