//! Names, states and children Qt changes with no event, asked again at each reuse of a kept
//! tree. Seen so far: a window's title (FeatherPad's "*Untitled" once text is typed). A menu
//! item's `enabled` (its Save and Undo as text is typed). A tab bar's name (Qt names it after
//! its current tab). A container's children (FeatherPad destroyed one's child on Ctrl+F).
//! One call each, all at once; an element that differs is read again.
//! Tests: `kept.rs` (the Linux tests) `featherpads_kept_reads_match_cold_ones`, and the Qt 5
//! fixture's twin (`select_tab`).

use deskpilot_platform::model::{ElementId, Realization, Role, Tree, TreeNode};
use futures_util::future::join_all;

use crate::mapping::map_states;
use crate::proto::Proto;
use crate::read::AppTraits;

/// What is asked of an element.
enum Ask {
    Name,
    States,
    /// Its children's ids: FeatherPad destroyed a container's child on Ctrl+F with no event
    /// naming either.
    Children,
}

/// The elements of `tree` whose name, states or children differ now from what was read (none
/// when the toolkit announces them); `None` when one cannot say.
pub async fn changed(proto: &Proto, tree: &Tree, traits: AppTraits) -> Option<Vec<ElementId>> {
    if !traits.silent_changes {
        return Some(Vec::new());
    }
    let asked: Vec<(&TreeNode, Ask)> = tree
        .nodes
        .iter()
        .filter_map(|tn| Some((tn, ask(tn)?)))
        .collect();
    let answers = join_all(asked.iter().map(|(tn, ask)| async move {
        let id = &tn.node.id;
        match ask {
            Ask::Name => proto.name(id).await.map(|name| name == tn.node.name),
            Ask::States => proto
                .state(id)
                .await
                .map(|bits| map_states(bits, traits.reporting) == tn.node.states),
            Ask::Children => proto.children(id).await.map(|now| {
                tn.children
                    .iter()
                    .map(|&c| &tree.nodes[c].node.id)
                    .eq(now.iter())
            }),
        }
    }));
    let mut changed = Vec::new();
    for ((tn, _), same) in asked.iter().zip(answers.await) {
        if !same.ok()? {
            changed.push(tn.node.id.clone());
        }
    }
    Some(changed)
}

fn ask(tn: &TreeNode) -> Option<Ask> {
    match tn.node.role {
        Role::Window | Role::Dialog if tn.depth == 1 => Some(Ask::Name),
        Role::TabList => Some(Ask::Name),
        Role::MenuItem | Role::MenuItemCheckbox | Role::MenuItemRadio => Some(Ask::States),
        // Item views are listed by `rebuilds.rs` (Qt's tree views renew their items' ids).
        Role::Generic | Role::Group | Role::SplitPane | Role::ScrollPane | Role::Section
            if !tn.children.is_empty() && tn.realization == Realization::Complete =>
        {
            Some(Ask::Children)
        }
        _ => None,
    }
}
