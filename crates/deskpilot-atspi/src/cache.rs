//! `org.a11y.atspi.Cache.GetItems`: role, name, states, child count and interfaces of every
//! node an app has cached, in one call. GTK3-family apps answer it only after someone asked
//! `Application.GetApplicationBusAddress` once; it omits the transient children of
//! MANAGES_DESCENDANTS containers (read those with calls).

use std::collections::{HashMap, HashSet};

use deskpilot_core::model::ElementId;
use zbus::zvariant::OwnedObjectPath;

use crate::proto::Proto;
use crate::read::{AppTraits, Identity, read_identity};

type Ref = (String, OwnedObjectPath);

/// One app's cache: identities by element. (Children are not taken from it: its
/// `index_in_parent` can be stale.)
#[derive(Debug, Default, Clone)]
pub struct CacheIndex {
    pub identities: HashMap<ElementId, Identity>,
}

impl CacheIndex {
    /// This index with the identities of `changed` objects (paths in `app`) read again;
    /// `Err` only when the app does not answer.
    pub async fn refreshed(
        &self,
        proto: &Proto,
        app: &str,
        changed: &HashSet<String>,
        traits: AppTraits,
    ) -> zbus::Result<CacheIndex> {
        let mut index = self.clone();
        let ids: Vec<ElementId> = changed
            .iter()
            .map(|path| ElementId::new(app, path.as_str()))
            .collect();
        let reads =
            futures_util::future::join_all(ids.iter().map(|id| read_identity(proto, id, traits)))
                .await;
        for (id, read) in ids.into_iter().zip(reads) {
            match read {
                Ok(identity) => {
                    index.identities.insert(id, identity);
                }
                Err(e) if crate::error::is_unreachable(&e) => return Err(e),
                // Gone, or unreadable: read by calls if the walk meets it.
                Err(_) => {
                    index.identities.remove(&id);
                }
            }
        }
        Ok(index)
    }
}

/// Reads an app's whole cache. `Ok(None)` when the app has no cache or answers in a shape this
/// does not know (then the walk falls back to calls); `Err` when the app does not answer.
pub async fn read_cache(proto: &Proto, app: &str) -> zbus::Result<Option<CacheIndex>> {
    type Item = (
        Ref,
        Ref,
        Ref,
        i32,
        i32,
        Vec<String>,
        String,
        u32,
        String,
        Vec<u32>,
    );
    let items: Vec<Item> = match proto.cache_items(app).await {
        Ok(items) => items,
        Err(e) if crate::error::is_unreachable(&e) => return Err(e),
        Err(e) => {
            tracing::debug!(app, error = %e, "no usable Cache.GetItems");
            return Ok(None);
        }
    };
    let mut index = CacheIndex::default();
    for (object, _app, _parent, _index, child_count, interfaces, name, role, description, states) in
        items
    {
        let states = states
            .iter()
            .take(2)
            .enumerate()
            .fold(0u64, |bits, (i, w)| bits | (u64::from(*w) << (32 * i)));
        index.identities.insert(
            ElementId::new(object.0, object.1.as_str()),
            Identity {
                role,
                states,
                interfaces,
                name,
                description,
                accessible_id: None,
                child_count,
                actions: None,
            },
        );
    }
    Ok(Some(index))
}
