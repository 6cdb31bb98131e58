//! Parents as the last walks of each app found them: a look at a few elements follows them up
//! to the session's root the way a full look reaches them (LibreOffice answers a `Parent`
//! chain from a Writer paragraph that ends in an object no walk reaches, whose parent is
//! none).

use std::collections::HashMap;

use deskpilot_platform::model::{ElementId, Tree};

/// Parents kept per app before the older ones are dropped.
const MAX_KEPT: usize = 50_000;

/// Of one app: each element a walk read, with the parent it was read under.
#[derive(Default)]
pub struct WalkedParents {
    parents: HashMap<ElementId, ElementId>,
}

impl WalkedParents {
    /// Notes the parents in `tree` (a walk of the app), over what earlier walks found.
    pub fn note(&mut self, tree: &Tree) {
        // Elements come and go: what earlier walks found is dropped once it grows large.
        if self.parents.len() > MAX_KEPT {
            self.parents.clear();
        }
        for tn in &tree.nodes {
            if let Some(parent) = tn.parent {
                let parent = tree.nodes[parent].node.id.clone();
                self.parents.insert(tn.node.id.clone(), parent);
            }
        }
    }

    /// The parent a walk found `id` under.
    pub fn of(&self, id: &ElementId) -> Option<ElementId> {
        self.parents.get(id).cloned()
    }
}
