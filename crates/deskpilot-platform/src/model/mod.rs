//! The platform-neutral model of an accessibility tree.

mod content;
mod geometry;
mod interface;
mod node;
mod role;
mod state;
mod tree;

pub use content::{TableCells, TableSlice, TextSlice};
pub use geometry::Rect;
pub use interface::{Interface, Interfaces};
pub use node::{ElementId, Node, NodeValue, action_list};
pub use role::Role;
pub use state::{State, StateSet};
pub use tree::{CutReason, Pending, Realization, Tree, TreeNode};
