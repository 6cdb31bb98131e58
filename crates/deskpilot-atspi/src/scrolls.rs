//! Scrolls no event announces (GTK 4, Qt; web pages: `layout.rs`): where a kept tree's
//! scrolled content is, asked at each reuse. The windows held (`kept::windows_hold`), so
//! bounds compare as read. Tests: `kept.rs` (the Linux tests), the GTK 4 and Qt 5 twins.

use deskpilot_platform::model::{ElementId, Rect, Role, Tree};

use crate::error::is_unreachable;
use crate::proto::Proto;
use crate::read::{AppTraits, SilentScrolls};

/// The scrolled areas of `tree` whose content moved since it was read: one call each. `None`
/// when the app stops answering.
pub async fn scrolled(proto: &Proto, tree: &Tree, traits: AppTraits) -> Option<Vec<ElementId>> {
    let probes = match traits.silent_scrolls {
        SilentScrolls::Announced => return Some(Vec::new()),
        SilentScrolls::PaneContent => pane_contents(tree),
        SilentScrolls::OverflowingContent => overflowing(tree),
        SilentScrolls::Layout => return crate::layout::moved(proto, tree, traits).await,
    };
    let asks = probes.iter().map(|(_, content, _)| proto.extents(content));
    let now = futures_util::future::join_all(asks).await;
    let mut moved = Vec::new();
    for ((area, _, was), now) in probes.iter().zip(now) {
        match now {
            Ok((x, y, w, h)) if Rect::new(x, y, w, h) == *was => {}
            Err(e) if is_unreachable(&e) => return None,
            _ => moved.push((*area).clone()),
        }
    }
    Some(moved)
}

/// A scrolled area, the element whose bounds show its scroll, and those bounds as read.
type Probe<'a> = (&'a ElementId, &'a ElementId, Rect);

/// GTK 4: each scroll pane, and what its viewport (its first child that is not a scroll
/// bar) shows first.
fn pane_contents(tree: &Tree) -> Vec<Probe<'_>> {
    tree.nodes
        .iter()
        .filter(|tn| tn.node.role == Role::ScrollPane)
        .filter_map(|pane| {
            let mut below = pane.children.iter().copied();
            let port = below.find(|&c| tree.nodes[c].node.role != Role::ScrollBar)?;
            // The viewport stays; what it shows moves.
            let content = &tree.nodes[*tree.nodes[port].children.first().unwrap_or(&port)].node;
            Some((&pane.node.id, &content.id, content.bounds?))
        })
        .collect()
}

/// Qt: its scroll areas are no scroll panes. Each element that reaches out of its parent (a
/// scroll area's content, larger than the viewport showing it), and the area above the
/// viewport; each item view and its first item.
fn overflowing(tree: &Tree) -> Vec<Probe<'_>> {
    let within = |inner: &Rect, outer: &Rect| {
        inner.x >= outer.x
            && inner.y >= outer.y
            && inner.x + inner.width <= outer.x + outer.width
            && inner.y + inner.height <= outer.y + outer.height
    };
    let probe = |index: usize| -> Option<Probe<'_>> {
        let tn = &tree.nodes[index];
        let parent = &tree.nodes[tn.parent?];
        let (inner, outer) = (tn.node.bounds?, parent.node.bounds?);
        if parent.node.role.is_item_view() && parent.children.first() == Some(&index) {
            return Some((&parent.node.id, &tn.node.id, inner));
        }
        let area = parent.parent.map_or(parent, |p| &tree.nodes[p]);
        (!within(&inner, &outer)).then_some((&area.node.id, &tn.node.id, inner))
    };
    (0..tree.nodes.len()).filter_map(probe).collect()
}
