//! What the backend keeps per app, dropped in one place when the app leaves the bus.

use std::collections::{BTreeSet, HashSet};

use super::AtspiBackend;

impl AtspiBackend {
    /// Forgets everything kept of apps no longer registered: each one's state
    /// (`app_state.rs`), its event watch and its direct connection.
    pub(super) fn forget_gone(&self, registered: &HashSet<String>) {
        self.apps.retain(registered);
        if let Some(freshness) = &self.freshness {
            freshness.retain(registered);
        }
        self.proto.retain_apps(registered);
    }

    /// The apps the backend keeps something of (a state, an event watch, a connection or
    /// call counts): for tests that check a gone app leaves nothing behind.
    pub fn remembered_apps(&self) -> BTreeSet<String> {
        let mut apps: BTreeSet<String> = self.apps.apps().into_iter().collect();
        if let Some(freshness) = &self.freshness {
            apps.extend(freshness.watched());
        }
        apps.extend(self.proto.apps());
        apps
    }
}
