//! Which elements a snapshot gives a ref. Snapshots are read and paged in
//! `engine/read/snapshot.rs`.

use crate::model::{Node, Role};

/// Refs go to nodes worth acting on or reading. Plain containers and bars that only group
/// their items get none (a selector reaches them for `within`).
pub(crate) fn deserves_ref(node: &Node) -> bool {
    match node.role {
        Role::MenuBar | Role::Toolbar | Role::TabList | Role::Separator => false,
        Role::Generic | Role::Section | Role::ScrollPane | Role::Viewport => {
            !node.display_name().is_empty()
        }
        _ => true,
    }
}
