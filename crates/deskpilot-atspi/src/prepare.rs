//! Getting ready to read an app, and what is kept of it while it sends no event: its
//! identities (a `Cache.GetItems` answer), whole trees, and its description (windows, names,
//! states; the windows' bounds are asked again).

use std::sync::Arc;

use deskpilot_platform::BackendError;
use deskpilot_platform::WalkLimits;
use deskpilot_platform::model::{ElementId, Rect, Tree};

use crate::apps::{AppRead, read_app};
use crate::backend::AtspiBackend;
use crate::cache::{CacheIndex, read_cache};
use crate::error::{is_unreachable, to_backend};
use crate::proto::ROOT_PATH;
use crate::read::AppTraits;

/// What a walk starts from.
#[derive(Default)]
pub(crate) struct Prepared {
    /// The app's identities, when it has a cache.
    pub cache: Option<Arc<CacheIndex>>,
    /// The tree asked for is kept, and the app's events said what changed since it was read
    /// (nothing, or few objects: `patch.rs` reads those again).
    pub kept: bool,
    /// The app's events are watched and trusted from now on: a tree read now may be kept.
    pub watched: bool,
}

impl AtspiBackend {
    /// Gets ready to walk an app: a direct connection where its bridge offers one, and its
    /// whole cache in one call where it has one (GTK3-family apps expose the cache only after
    /// `GetApplicationBusAddress` was asked once, which the direct connection does). Fails fast
    /// when the app does not answer, so a frozen app costs one timeout, not several; an app
    /// busy with one slow answer is waited for until `deadline` (`busy.rs`).
    pub(crate) async fn prepare(
        &self,
        root: &ElementId,
        limits: &WalkLimits,
        traits: AppTraits,
    ) -> Result<Prepared, BackendError> {
        let (app, deadline) = (root.app.as_str(), limits.deadline);
        // Qt's bridge has no cache to read (nor `GetAll`), but its trees may be kept.
        if !traits.bulk_properties && !traits.keeps_trees() {
            self.forget_trees(app);
            return Ok(Prepared::default());
        }
        let app_root = ElementId::new(app, ROOT_PATH);
        let unreachable =
            |e: zbus::Error| to_backend(e, &app_root, "prepare", self.proto.timeout());
        let peerless = self.apps.read(app, |state| state.peerless) == Some(true);
        let wants_peer = traits.bulk_properties && (self.use_peers || self.use_cache);
        if wants_peer && !self.proto.has_peer(app) && !peerless {
            let address = self.proto.application_bus_address(&app_root);
            match self.patiently(app, deadline, false, address).await {
                Ok(Some(address)) if address.is_empty() => self.no_peer(app),
                Ok(Some(address)) => self.connect_peer(app, &address).await,
                // Its answer came too late to be read: asked again, it answers at once.
                Ok(None) => {
                    if let Ok(address) = self.proto.application_bus_address(&app_root).await {
                        self.connect_peer(app, &address).await;
                    }
                }
                Err(e) if is_unreachable(&e) => return Err(unreachable(e)),
                Err(e) => {
                    tracing::debug!(app, error = %e, "no application bus address");
                    self.no_peer(app);
                }
            }
        }
        if !self.use_cache {
            self.forget_trees(app);
            return Ok(Prepared::default());
        }
        // The app's events since the last look: none at all (and every window where it
        // was) means everything kept of it holds; a few named objects, that a kept tree holds
        // once they are read again (`patch.rs`). The identities are not re-read one by one:
        // GTK 3 changes states with no event for the element (`showing` as a viewport
        // scrolls or shrinks, the focus leaving a button when a notebook switches pages; both
        // measured).
        let changed = async {
            match (&self.freshness, traits.keeps_trees()) {
                (Some(freshness), true) => freshness.take(app, self.proto.timeout()).await,
                _ => None,
            }
        };
        // Asked at once: whether the windows held matters only when nothing was named.
        let windows = self.apps.read(app, |state| state.trees.windows());
        let windows = windows.unwrap_or_default();
        let (changed, places) =
            tokio::join!(changed, crate::kept::window_places(&self.proto, &windows));
        let windows_held = crate::kept::windows_hold(&places, changed.as_ref());
        let watched = changed.is_some();
        let named = changed.clone().filter(|_| windows_held);
        let quiet = named.as_ref().is_some_and(|named| named.is_empty());
        let tree_kept = self.apps.update(app, |state| {
            state
                .trees
                .note(named.as_ref(), root, limits, self.kept_for)
        });
        let (kept, mut unsettled, slow) = self
            .apps
            .read(app, |state| {
                let unsettled = state.unsettled.clone();
                (state.identities.clone(), unsettled, state.slow_cache)
            })
            .unwrap_or_default();
        let settled = kept.clone().filter(|_| unsettled.is_none());
        if tree_kept || (quiet && (settled.is_some() || slow)) {
            if let Some(named) = named.filter(|named| !named.is_empty()) {
                self.apps.update(app, |state| {
                    state.unsettled.get_or_insert_default().extend(named);
                });
            }
            return Ok(Prepared {
                cache: settled.filter(|_| quiet),
                kept: tree_kept,
                watched,
            });
        }
        if slow || !traits.bulk_properties {
            return Ok(Prepared {
                cache: None,
                kept: false,
                watched,
            });
        }
        self.cache_reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let cache = read_cache(&self.proto, app);
        // A watched app's event check pinged it a moment ago: no second ping.
        let Some(index) = self
            .patiently(app, deadline, watched, cache)
            .await
            .map_err(unreachable)?
        else {
            return Ok(Prepared {
                cache: None,
                kept: false,
                watched,
            });
        };
        match (changed, index) {
            (Some(named), Some(mut index)) => {
                // Action names are kept for what no event named: none announces new ones, and
                // an action is looked up by name again when it is done.
                if let Some(kept) = kept {
                    let named = unsettled.get_or_insert_default().union(&named).cloned();
                    index.keep_actions_from(&kept, &named.collect());
                }
                let index = Arc::new(index);
                self.apps.update(app, |state| {
                    state.identities = Some(index.clone());
                    state.unsettled = None;
                });
                Ok(Prepared {
                    cache: Some(index),
                    kept: false,
                    watched,
                })
            }
            (_, index) => {
                self.apps.update(app, |state| {
                    state.identities = None;
                    state.unsettled = None;
                });
                Ok(Prepared {
                    cache: index.map(Arc::new),
                    kept: false,
                    watched,
                })
            }
        }
    }

    /// Opens a direct connection to `app` at `address`, where one is wanted and offered.
    async fn connect_peer(&self, app: &str, address: &str) {
        if !self.use_peers || address.is_empty() {
            return;
        }
        if let Err(e) = self.proto.connect_peer(app, address).await {
            tracing::debug!(app, error = %e, "no peer-to-peer connection");
        }
    }

    /// Notes that `app` offers no direct connection (GTK 4: no address), so that it is not
    /// asked again at every read.
    fn no_peer(&self, app: &str) {
        self.apps.update(app, |state| state.peerless = true);
    }

    /// Forgets the trees kept of `app` and where its windows were.
    fn forget_trees(&self, app: &str) {
        self.apps
            .update(app, |state| state.trees = Default::default());
    }

    /// Remembers the action names a walk read, in the kept identities of an app whose events
    /// are watched (none are kept for others): until an event names the element, they are not
    /// asked again (no event announces new action names; an action is looked up by name again
    /// when it is done).
    pub(crate) fn keep_actions(&self, app: &str, tree: &Tree) {
        self.apps.update(app, |state| {
            if let Some(index) = &mut state.identities {
                keep_actions_in(Arc::make_mut(index), tree);
            }
        });
    }

    /// The app at `root` as read, or as kept while it sent no event since (ATK bridges
    /// only), its windows' bounds asked again.
    pub(crate) async fn app_read(&self, root: &ElementId) -> AppRead {
        let app = root.app.as_str();
        let complete = self
            .apps
            .read(app, |state| state.traits)
            .flatten()
            .is_some_and(|t| t.complete_events);
        let Some(freshness) = self.freshness.as_ref().filter(|_| complete) else {
            return read_app(&self.proto, root, self.origin(app)).await;
        };
        let kept = self
            .apps
            .read(app, |state| state.described.clone())
            .flatten();
        // The kept windows that had bounds are asked again while the events are counted.
        let placed: Vec<ElementId> = kept.as_ref().map_or(Vec::new(), |(_, read)| {
            let windows = read.info.windows.iter();
            windows
                .filter(|w| w.bounds.is_some())
                .map(|w| w.id.clone())
                .collect()
        });
        let (count, bounds) = tokio::join!(
            freshness.count(app, self.proto.timeout()),
            futures_util::future::join_all(placed.iter().map(|id| self.proto.extents(id)))
        );
        if let (Some(count), Some((kept_count, mut read))) = (count, kept)
            && count == kept_count
        {
            let mut bounds = bounds.into_iter();
            for window in read.info.windows.iter_mut().filter(|w| w.bounds.is_some()) {
                window.bounds = bounds
                    .next()
                    .and_then(|b| b.ok())
                    .map(|(x, y, w, h)| Rect::new(x, y, w, h));
            }
            return read;
        }
        let read = read_app(&self.proto, root, self.origin(app)).await;
        if let Some(count) = count
            && read.info.responding
        {
            self.apps
                .update(app, |state| state.described = Some((count, read.clone())));
        }
        read
    }
}

/// Keeps the action names `tree` read in `index`, for elements whose names it lacks.
fn keep_actions_in(index: &mut CacheIndex, tree: &Tree) {
    for tn in &tree.nodes {
        if !tn
            .node
            .capabilities
            .contains(deskpilot_platform::model::Capability::Actions)
        {
            continue;
        }
        if let Some(identity) = index.identities.get_mut(&tn.node.id)
            && identity.actions.is_none()
        {
            identity.actions = Some(tn.node.actions.clone());
        }
    }
}
