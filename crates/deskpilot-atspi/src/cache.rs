//! `org.a11y.atspi.Cache.GetItems`: role, name, states, child count and interfaces of every
//! node an app has cached, in one call. GTK3-family apps answer it only after someone asked
//! `Application.GetApplicationBusAddress` once; it omits the transient children of
//! MANAGES_DESCENDANTS containers (read those with calls).

use std::collections::{HashMap, HashSet};

use deskpilot_platform::model::ElementId;
use zbus::zvariant::OwnedObjectPath;

use crate::proto::Proto;
use crate::read::Identity;

type Ref = (String, OwnedObjectPath);

/// One app's cache: identities by element. (Children are not taken from it: its
/// `index_in_parent` can be stale.)
#[derive(Debug, Default, Clone)]
pub struct CacheIndex {
    pub identities: HashMap<ElementId, Identity>,
}

impl CacheIndex {
    /// Takes the action names `old` knew for the elements not in `named` (object paths).
    pub fn keep_actions_from(&mut self, old: &CacheIndex, named: &HashSet<String>) {
        for (id, identity) in &mut self.identities {
            if named.contains(&id.object) {
                continue;
            }
            if let Some(known) = old.identities.get(id).and_then(|o| o.actions.clone()) {
                identity.actions = Some(known);
            }
        }
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
