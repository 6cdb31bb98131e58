//! Parents as the last walks of each app found them: a look at a few elements follows them up
//! to the session's root the way a full look reaches them (LibreOffice answers a `Parent`
//! chain from a Writer paragraph that ends in an object no walk reaches, whose parent is
//! none).

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use deskpilot_platform::model::{ElementId, Tree};

/// Parents kept per app before the older ones are dropped.
const MAX_KEPT: usize = 50_000;

/// Per app: each element a walk read, with the parent it was read under.
#[derive(Default)]
pub struct WalkedParents {
    apps: Mutex<HashMap<String, HashMap<ElementId, ElementId>>>,
}

impl WalkedParents {
    /// Notes the parents in `tree` (a walk of one app), over what earlier walks found.
    pub fn note(&self, app: &str, tree: &Tree) {
        let mut apps = self.apps.lock().expect("walked parents");
        let parents = apps.entry(app.to_owned()).or_default();
        // Elements come and go: what earlier walks found is dropped once it grows large.
        if parents.len() > MAX_KEPT {
            parents.clear();
        }
        for tn in &tree.nodes {
            if let Some(parent) = tn.parent {
                parents.insert(tn.node.id.clone(), tree.nodes[parent].node.id.clone());
            }
        }
    }

    /// The parent a walk found `id` under.
    pub fn of(&self, id: &ElementId) -> Option<ElementId> {
        self.apps
            .lock()
            .expect("walked parents")
            .get(&id.app)?
            .get(id)
            .cloned()
    }

    pub fn retain(&self, registered: &HashSet<String>) {
        self.apps
            .lock()
            .expect("walked parents")
            .retain(|app, _| registered.contains(app));
    }
}
