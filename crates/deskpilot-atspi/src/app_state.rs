//! What the backend keeps of each app (bus name): one state per app, dropped whole when the
//! app leaves the bus (`backend_gone.rs`).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use crate::apps::{AppOrigin, AppRead};
use crate::cache::CacheIndex;
use crate::kept::KeptTrees;
use crate::parents::WalkedParents;
use crate::read::AppTraits;

/// Everything the backend learnt of one app.
#[derive(Default)]
pub(crate) struct AppState {
    /// How it reports states, learnt once.
    pub traits: Option<AppTraits>,
    /// Its process and toolkit, learnt once.
    pub origin: Option<AppOrigin>,
    /// Its identities as last known: a `Cache.GetItems` answer, kept up to date by re-reading
    /// what its events named.
    pub identities: Option<Arc<CacheIndex>>,
    /// What the app's events named since `identities` were read, once a kept tree was patched
    /// instead. Their states may be out of date (GTK 3 changes some with no event): they give
    /// only action names until read again.
    pub unsettled: Option<HashSet<String>>,
    /// Building its cache, or a `Cache.GetItems` answer, outlasted a call timeout right after
    /// it answered a ping: it is busy for seconds each time (GTK 3 with thousands of children
    /// in one container, `busy.rs`), so its cache is never asked for again.
    pub slow_cache: bool,
    /// It offers no direct connection: its bus address is not asked again.
    pub peerless: bool,
    /// Whole trees kept while it sends no event (`kept.rs`).
    pub trees: KeptTrees,
    /// Its description while it sends no event, with the count of events it had sent then.
    pub described: Option<(u64, AppRead)>,
    /// The parents its last walks found (`parents.rs`).
    pub parents: WalkedParents,
}

/// The state of every app the backend met.
#[derive(Default)]
pub(crate) struct AppStates {
    apps: Mutex<HashMap<String, AppState>>,
}

impl AppStates {
    /// What `f` reads of `app`'s state, when there is one.
    pub fn read<R>(&self, app: &str, f: impl FnOnce(&AppState) -> R) -> Option<R> {
        self.apps.lock().expect("app states").get(app).map(f)
    }

    /// Changes `app`'s state (a new one when it had none).
    pub fn update<R>(&self, app: &str, f: impl FnOnce(&mut AppState) -> R) -> R {
        let mut apps = self.apps.lock().expect("app states");
        match apps.get_mut(app) {
            Some(state) => f(state),
            None => f(apps.entry(app.to_owned()).or_default()),
        }
    }

    /// Drops the state of every app not `registered`.
    pub fn retain(&self, registered: &HashSet<String>) {
        self.apps
            .lock()
            .expect("app states")
            .retain(|app, _| registered.contains(app));
    }

    /// The apps with a state.
    pub fn apps(&self) -> Vec<String> {
        self.apps
            .lock()
            .expect("app states")
            .keys()
            .cloned()
            .collect()
    }

    /// Each app's origin, where it was learnt.
    pub fn origins(&self) -> HashMap<String, AppOrigin> {
        let apps = self.apps.lock().expect("app states");
        apps.iter()
            .filter_map(|(app, state)| Some((app.clone(), state.origin.clone()?)))
            .collect()
    }
}
