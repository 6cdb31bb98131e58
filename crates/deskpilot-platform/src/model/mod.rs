//! The platform-neutral model of an accessibility tree.

mod capability;
mod content;
pub mod control;
mod geometry;
mod node;
mod role;
mod state;
mod tree;

pub use capability::{Capabilities, Capability};
pub use content::{TableCells, TableSlice, TextSlice};
pub use geometry::Rect;
pub use node::{ActionName, ElementId, Node, NodeValue, action_list};
pub use role::Role;
pub use state::{State, StateSet};
pub use tree::{CutReason, Pending, Realization, Tree, TreeNode, document_order};
