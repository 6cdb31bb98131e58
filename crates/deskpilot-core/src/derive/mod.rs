//! What a reader sees that the tree does not say outright: a list row named by the label
//! inside it ("name from content", as ARIA computes it), a field named by the label beside it
//! (`labels.rs`).

mod labels;

pub use labels::infer_labels;

use crate::model::{Role, Tree};

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
/// `label` of unnamed fields from the labels beside them (`labels.rs`).
pub fn derive_what_readers_see(tree: &mut Tree) {
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
}
