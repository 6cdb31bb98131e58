//! What the backend keeps per app, dropped in one place when the app leaves the bus.

use std::collections::{BTreeSet, HashSet};

use super::AtspiBackend;

impl AtspiBackend {
    /// Forgets everything kept of apps no longer registered: how each reports, its origin,
    /// its kept identities, trees and description, its walked parents, its event watch and
    /// its direct connection.
    pub(super) fn forget_gone(&self, registered: &HashSet<String>) {
        let keep = |app: &String| registered.contains(app);
        self.traits
            .lock()
            .expect("traits lock")
            .retain(|app, _| keep(app));
        self.origins
            .lock()
            .expect("origins")
            .retain(|app, _| keep(app));
        self.kept.lock().expect("kept").retain(|app, _| keep(app));
        self.kept_trees.retain(registered);
        self.kept_apps.retain(registered);
        self.walked_parents.retain(registered);
        if let Some(freshness) = &self.freshness {
            freshness.retain(registered);
        }
        self.proto.retain_peers(registered);
    }

    /// The apps the backend keeps something of (how they report, their origin, identities
    /// or a direct connection): for tests that check a gone app leaves nothing behind.
    pub fn remembered_apps(&self) -> BTreeSet<String> {
        let mut apps: BTreeSet<String> = BTreeSet::new();
        apps.extend(self.traits.lock().expect("traits lock").keys().cloned());
        apps.extend(self.origins.lock().expect("origins").keys().cloned());
        apps.extend(self.kept.lock().expect("kept").keys().cloned());
        apps.extend(self.proto.peer_apps());
        apps
    }
}
