//! What a reader sees that the tree does not say outright: a list row named by the label
//! inside it ("name from content", as ARIA computes it), a field named by the label beside it
//! (`labels.rs`), one focused element per window (`focus.rs`).

mod focus;
mod labels;

pub use focus::in_doubt as focus_in_doubt;
pub use labels::infer_labels;

use crate::model::{ElementId, Role, Tree};

/// The last tree a backend shared, and it as a reader sees it with the focus events named
/// (kept by the engine for `find`: a kept tree read again is not derived again).
pub(crate) struct DerivedTree {
    pub source: std::sync::Arc<Tree>,
    pub focus_named: Vec<ElementId>,
    pub derived: std::sync::Arc<Tree>,
}

/// Roles whose name comes from their content when they have none. Rows only when they have no
/// cells: cells already carry the text, and repeating it would double a table's token cost.
fn named_by_content(role: Role) -> bool {
    use Role::*;
    matches!(
        role,
        Button
            | ToggleButton
            | MenuButton
            | Checkbox
            | Radio
            | Link
            | MenuItem
            | MenuItemCheckbox
            | MenuItemRadio
            | ListItem
            | TreeItem
            | Row
            | Cell
            | Tab
            | ColumnHeader
            | RowHeader
    )
}

/// The most text a derived name takes from content.
const MAX_DERIVED: usize = 100;

/// Fills `derived_name` of unnamed elements from the text of the labels below them, then
/// `label` of unnamed fields from the labels beside them (`labels.rs`), and leaves one
/// focused element per window, the one in `focus_named` where it claims it (`focus.rs`).
pub fn derive_what_readers_see(tree: &mut Tree, focus_named: &[ElementId]) {
    for index in 0..tree.nodes.len() {
        let node = &tree.nodes[index].node;
        if node.is_secret()
            || !node.name.is_empty()
            || node.derived_name.is_some()
            || !named_by_content(node.role)
        {
            continue;
        }
        let has_cells = tree.nodes[index]
            .children
            .iter()
            .any(|&c| tree.nodes[c].node.role == Role::Cell);
        if node.role == Role::Row && has_cells {
            continue;
        }
        let mut parts: Vec<&str> = Vec::new();
        let mut stack: Vec<usize> = tree.nodes[index].children.iter().rev().copied().collect();
        while let Some(i) = stack.pop() {
            let child = &tree.nodes[i].node;
            // Nothing inside a password field lends its text to a name.
            if child.is_secret() {
                continue;
            }
            if matches!(
                child.role,
                Role::Label | Role::Paragraph | Role::Heading | Role::Caption
            ) && !child.name.is_empty()
            {
                parts.push(&child.name);
            } else {
                stack.extend(tree.nodes[i].children.iter().rev());
            }
            if parts.iter().map(|p| p.len()).sum::<usize>() >= MAX_DERIVED {
                break;
            }
        }
        if !parts.is_empty() {
            let text: String = parts.join(" ").chars().take(MAX_DERIVED).collect();
            tree.nodes[index].node.derived_name = Some(text);
        }
    }
    infer_labels(tree);
    focus::one_focus_per_window(tree, focus_named);
}

/// The top-level element holding `index`: the child of the application on the way up, or
/// the tree's root when the tree is one window.
pub(super) fn window_of(tree: &Tree, index: usize) -> usize {
    let mut at = index;
    while let Some(parent) = tree.nodes[at].parent {
        if tree.nodes[parent].node.role == Role::Application {
            return at;
        }
        at = parent;
    }
    at
}
