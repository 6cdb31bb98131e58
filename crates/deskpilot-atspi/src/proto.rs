//! The AT-SPI calls deskpilot makes, one function each, as raw zbus method calls (no proxy
//! objects on the hot path). Decoding is tolerant: unknown interface names or state bits are
//! ignored rather than failing the node.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deskpilot_core::model::ElementId;
use serde::de::DeserializeOwned;
use zbus::zvariant::{DynamicType, OwnedObjectPath, OwnedValue};

pub const REGISTRY: &str = "org.a11y.atspi.Registry";
pub const ROOT_PATH: &str = "/org/a11y/atspi/accessible/root";
pub const ACCESSIBLE: &str = "org.a11y.atspi.Accessible";
pub(crate) const COMPONENT: &str = "org.a11y.atspi.Component";
pub(crate) const ACTION: &str = "org.a11y.atspi.Action";
pub(crate) const TEXT: &str = "org.a11y.atspi.Text";
pub(crate) const VALUE: &str = "org.a11y.atspi.Value";
const APPLICATION: &str = "org.a11y.atspi.Application";
pub(crate) const PROPERTIES: &str = "org.freedesktop.DBus.Properties";
const CACHE: &str = "org.a11y.atspi.Cache";
pub(crate) const TABLE: &str = "org.a11y.atspi.Table";
const NULL_PATH: &str = "/org/a11y/atspi/null";
const CACHE_PATH: &str = "/org/a11y/atspi/cache";

/// AT-SPI coordinate types.
const COORD_TYPE_SCREEN: u32 = 0;

pub type Props = HashMap<String, OwnedValue>;

/// Calls sent to one app, by (interface, method).
type MethodCounts = HashMap<(&'static str, &'static str), u64>;

/// A connection to the accessibility bus with the calls deskpilot makes on it, plus direct
/// (peer-to-peer) connections to the apps that offer one: half the latency of a round trip
/// through the bus daemon, and no daemon in the way of many calls in flight.
#[derive(Clone, Debug)]
pub struct Proto {
    conn: zbus::Connection,
    timeout: Duration,
    peers: Arc<Mutex<HashMap<String, zbus::Connection>>>,
    /// Method calls made so far (the cost unit of everything here).
    calls: Arc<std::sync::atomic::AtomicU64>,
    /// Calls that timed out (each cost a whole call timeout).
    timeouts: Arc<std::sync::atomic::AtomicU64>,
    /// Per app (bus name) and method (`Interface.Method`, the interface's last segment): how
    /// many calls were sent, so that tests can check what a toolkit was asked.
    sent: Arc<Mutex<HashMap<String, MethodCounts>>>,
    /// Per app: localized action name -> real action name (see `action_names`).
    action_memo: Arc<Mutex<HashMap<(String, String), String>>>,
}

impl Proto {
    pub fn new(conn: zbus::Connection, timeout: Duration) -> Self {
        Proto {
            conn,
            timeout,
            peers: Arc::default(),
            calls: Arc::default(),
            sent: Arc::default(),
            timeouts: Arc::default(),
            action_memo: Arc::default(),
        }
    }

    /// Method calls made so far on this connection and its peers.
    pub fn calls(&self) -> u64 {
        self.calls.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Calls that timed out so far.
    pub fn timeouts(&self) -> u64 {
        self.timeouts.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many `method` calls (`Interface.Method`, e.g. `Action.GetActions`) were sent to
    /// `app` (a bus name) so far.
    pub fn sent_to(&self, app: &str, method: &str) -> u64 {
        let (short_iface, name) = method.split_once('.').unwrap_or(("", method));
        self.sent
            .lock()
            .expect("sent map")
            .get(app)
            .map(|calls| {
                calls
                    .iter()
                    .filter(|((iface, m), _)| {
                        *m == name && iface.rsplit('.').next() == Some(short_iface)
                    })
                    .map(|(_, n)| n)
                    .sum()
            })
            .unwrap_or(0)
    }

    /// Opens a direct connection to `app` at `address` (from `GetApplicationBusAddress`); calls
    /// to that app use it from then on. On failure the bus stays in use.
    pub async fn connect_peer(&self, app: &str, address: &str) -> zbus::Result<()> {
        let builder = zbus::connection::Builder::address(address)?
            .p2p()
            .method_timeout(self.timeout);
        let conn = tokio::time::timeout(self.timeout, builder.build())
            .await
            .map_err(|_| zbus::Error::Failure(format!("peer connection to {app} timed out")))??;
        self.peers
            .lock()
            .expect("peer map")
            .insert(app.to_owned(), conn);
        Ok(())
    }

    /// True when calls to `app` go over a direct connection.
    pub fn has_peer(&self, app: &str) -> bool {
        self.peers.lock().expect("peer map").contains_key(app)
    }

    /// Forgets the direct connection to `app` (it went away).
    pub fn drop_peer(&self, app: &str) {
        self.peers.lock().expect("peer map").remove(app);
    }

    fn connection_for(&self, app: &str) -> zbus::Connection {
        self.peers
            .lock()
            .expect("peer map")
            .get(app)
            .cloned()
            .unwrap_or_else(|| self.conn.clone())
    }

    /// The per-call timeout the connection was built with.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    pub(crate) async fn call<B, R>(
        &self,
        id: &ElementId,
        iface: &'static str,
        method: &'static str,
        body: &B,
    ) -> zbus::Result<R>
    where
        B: serde::Serialize + DynamicType,
        R: DeserializeOwned + zbus::zvariant::Type,
    {
        self.calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        {
            // No allocation but an app's first call: this is every D-Bus call's path.
            let mut sent = self.sent.lock().expect("sent map");
            let calls = match sent.get_mut(&id.app) {
                Some(calls) => calls,
                None => sent.entry(id.app.clone()).or_default(),
            };
            *calls.entry((iface, method)).or_default() += 1;
        }
        let reply = self
            .connection_for(&id.app)
            .call_method(
                Some(id.app.as_str()),
                id.object.as_str(),
                Some(iface),
                method,
                body,
            )
            .await;
        match reply {
            Ok(reply) => reply.body().deserialize(),
            Err(e) => {
                match crate::error::classify(&e) {
                    // A dead peer connection: later calls go through the bus (and learn there
                    // that the app is gone).
                    crate::error::Failure::AppGone => self.drop_peer(&id.app),
                    crate::error::Failure::Timeout => {
                        self.timeouts
                            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                    _ => {}
                }
                Err(e)
            }
        }
    }

    pub async fn role(&self, id: &ElementId) -> zbus::Result<u32> {
        self.call(id, ACCESSIBLE, "GetRole", &()).await
    }

    /// The raw state bits (two u32 words, low word first).
    pub async fn state(&self, id: &ElementId) -> zbus::Result<u64> {
        let words: Vec<u32> = self.call(id, ACCESSIBLE, "GetState", &()).await?;
        Ok(words
            .iter()
            .take(2)
            .enumerate()
            .fold(0, |bits, (i, w)| bits | (u64::from(*w) << (32 * i))))
    }

    pub async fn interfaces(&self, id: &ElementId) -> zbus::Result<Vec<String>> {
        self.call(id, ACCESSIBLE, "GetInterfaces", &()).await
    }

    /// Name, Description, ChildCount, AccessibleId and Parent: in one `GetAll` where the
    /// app's bridge supports it (`bulk`), else one `Get` each, all in flight at once. Qt 5.15's
    /// bridge crashes the app on `GetAll` for any object but the root, so only bridges known to
    /// handle it get it.
    pub async fn accessible_props(&self, id: &ElementId, bulk: bool) -> zbus::Result<Props> {
        if bulk {
            return self.call(id, PROPERTIES, "GetAll", &(ACCESSIBLE,)).await;
        }
        let get = |name: &'static str| async move {
            let value: zbus::Result<OwnedValue> =
                self.call(id, PROPERTIES, "Get", &(ACCESSIBLE, name)).await;
            (name, value)
        };
        let (name, description, child_count, accessible_id, parent) = tokio::join!(
            get("Name"),
            get("Description"),
            get("ChildCount"),
            get("AccessibleId"),
            get("Parent"),
        );
        let mut props = Props::new();
        // Name and ChildCount are required; the rest may be missing on older bridges.
        for (key, value) in [name, child_count] {
            props.insert(key.to_owned(), value?);
        }
        for (key, value) in [description, accessible_id, parent] {
            if let Ok(value) = value {
                props.insert(key.to_owned(), value);
            }
        }
        Ok(props)
    }

    pub async fn children(&self, id: &ElementId) -> zbus::Result<Vec<ElementId>> {
        let refs: Vec<(String, OwnedObjectPath)> =
            self.call(id, ACCESSIBLE, "GetChildren", &()).await?;
        Ok(refs.into_iter().map(to_id).collect())
    }

    /// The elements that label this one (LABELLED_BY relation targets).
    pub async fn labelled_by(&self, id: &ElementId) -> zbus::Result<Vec<ElementId>> {
        let relations: Vec<(u32, Vec<(String, OwnedObjectPath)>)> =
            self.call(id, ACCESSIBLE, "GetRelationSet", &()).await?;
        Ok(relations
            .into_iter()
            .filter(|(kind, _)| *kind == atspi::RelationType::LabelledBy as u32)
            .flat_map(|(_, targets)| targets.into_iter().map(to_id))
            .collect())
    }

    /// The element's parent (`None` at the top).
    pub async fn parent(&self, id: &ElementId) -> zbus::Result<Option<ElementId>> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACCESSIBLE, "Parent"))
            .await?;
        let (app, path) = <(String, OwnedObjectPath)>::try_from(value)?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The element's attributes (toolkit-specific key/value pairs).
    pub async fn attributes(&self, id: &ElementId) -> zbus::Result<HashMap<String, String>> {
        self.call(id, ACCESSIBLE, "GetAttributes", &()).await
    }

    /// The child of `id` at screen point (x, y), if any (AT-SPI answers a null ref for none).
    pub async fn accessible_at_point(
        &self,
        id: &ElementId,
        x: i32,
        y: i32,
        window_relative: bool,
    ) -> zbus::Result<Option<ElementId>> {
        // GTK 4.8 takes and gives window-relative coordinates whatever is asked.
        let coord_type: u32 = if window_relative {
            1
        } else {
            COORD_TYPE_SCREEN
        };
        let (app, path): (String, OwnedObjectPath) = self
            .call(id, COMPONENT, "GetAccessibleAtPoint", &(x, y, coord_type))
            .await?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The number of rows and columns a table reports.
    pub async fn table_size(&self, id: &ElementId) -> zbus::Result<(i32, i32)> {
        let get = |name: &'static str| async move {
            let v: OwnedValue = self.call(id, PROPERTIES, "Get", &(TABLE, name)).await?;
            i32::try_from(v).map_err(zbus::Error::from)
        };
        let (rows, columns) = tokio::join!(get("NRows"), get("NColumns"));
        Ok((rows?, columns?))
    }

    /// The header object of a column, if the table has one.
    pub async fn column_header(
        &self,
        id: &ElementId,
        column: i32,
    ) -> zbus::Result<Option<ElementId>> {
        let (app, path): (String, OwnedObjectPath) =
            self.call(id, TABLE, "GetColumnHeader", &(column,)).await?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The text description of a column (tables without header objects).
    pub async fn column_description(&self, id: &ElementId, column: i32) -> zbus::Result<String> {
        self.call(id, TABLE, "GetColumnDescription", &(column,))
            .await
    }

    /// The cell at (row, column).
    pub async fn cell_at(
        &self,
        id: &ElementId,
        row: i32,
        column: i32,
    ) -> zbus::Result<Option<ElementId>> {
        let (app, path): (String, OwnedObjectPath) = self
            .call(id, TABLE, "GetAccessibleAt", &(row, column))
            .await?;
        Ok((!app.is_empty() && path.as_str() != NULL_PATH)
            .then(|| ElementId::new(app, path.as_str())))
    }

    /// The toolkit's id for the element ("" when unset).
    pub async fn accessible_id(&self, id: &ElementId) -> zbus::Result<String> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACCESSIBLE, "AccessibleId"))
            .await?;
        String::try_from(value).map_err(zbus::Error::from)
    }

    /// The number of children the element reports.
    pub async fn child_count(&self, id: &ElementId) -> zbus::Result<i32> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACCESSIBLE, "ChildCount"))
            .await?;
        i32::try_from(value).map_err(zbus::Error::from)
    }

    /// The accessible name alone.
    pub async fn name(&self, id: &ElementId) -> zbus::Result<String> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACCESSIBLE, "Name"))
            .await?;
        String::try_from(value).map_err(zbus::Error::from)
    }

    /// (x, y, width, height) in screen coordinates (GTK 4.8: window-relative).
    pub async fn extents(&self, id: &ElementId) -> zbus::Result<(i32, i32, i32, i32)> {
        self.call(id, COMPONENT, "GetExtents", &(COORD_TYPE_SCREEN,))
            .await
    }

    /// Action names, as the toolkit names them (`click`, `press`), never localized.
    /// `GetActions` gives localized names (GTK3: "Click"); the real name comes from `GetName`.
    /// Within one app a localized name always stands for the same real name, so each distinct
    /// localized name is asked once per app and remembered: Writer's 1400 actionable nodes
    /// then cost 1400 calls instead of 2800. Where `GetActions` may not be asked
    /// (`ActionList::ByIndex`: Gecko), `NActions` and one `GetName` per index. An index whose
    /// name cannot be read (GTK 4.8 labels claim 8 actions and have none) is left out.
    pub async fn action_names(
        &self,
        id: &ElementId,
        listing: crate::read::ActionList,
    ) -> zbus::Result<Vec<String>> {
        let localized: Vec<String> = match listing {
            crate::read::ActionList::Bulk => {
                let actions: Vec<(String, String, String)> =
                    self.call(id, ACTION, "GetActions", &()).await?;
                actions.into_iter().map(|(name, _, _)| name).collect()
            }
            crate::read::ActionList::ByIndex => {
                let count = self.action_count(id).await?;
                vec![String::new(); count.clamp(0, 64) as usize]
            }
        };
        let names = futures_util::future::join_all(localized.iter().take(64).enumerate().map(
            |(i, localized)| async move {
                let key = (id.app.clone(), localized.clone());
                let memo = !localized.is_empty() && !localized.contains(';');
                if memo && let Some(name) = self.action_memo.lock().expect("action memo").get(&key)
                {
                    return Ok(name.clone());
                }
                let name: String = self.call(id, ACTION, "GetName", &(i as i32,)).await?;
                if memo && !name.is_empty() {
                    self.action_memo
                        .lock()
                        .expect("action memo")
                        .insert(key, name.clone());
                }
                Ok::<_, zbus::Error>(name)
            },
        ))
        .await;
        let mut out = Vec::with_capacity(names.len());
        for name in names {
            match name {
                Ok(name) if !name.is_empty() => out.push(name),
                Ok(_) => {}
                Err(e) => match crate::error::classify(&e) {
                    crate::error::Failure::Timeout | crate::error::Failure::AppGone => {
                        return Err(e);
                    }
                    _ => {}
                },
            }
        }
        Ok(out)
    }

    /// The number of actions the element offers (`Action.NActions`).
    pub async fn action_count(&self, id: &ElementId) -> zbus::Result<i32> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(ACTION, "NActions"))
            .await?;
        i32::try_from(value).map_err(zbus::Error::from)
    }

    /// CurrentValue, and MinimumValue, MaximumValue and MinimumIncrement where the app can
    /// say: one `Get` each, all in flight at once. Never `GetAll`: ATK's bridge leaves a half
    /// written reply when one getter fails, and libdbus then aborts the app (Chromium 156's
    /// sliders fail MinimumValue: a `GetAll` on one killed the browser).
    pub async fn value_props(&self, id: &ElementId) -> zbus::Result<Props> {
        let get = |name: &'static str| async move {
            let value: zbus::Result<OwnedValue> =
                self.call(id, PROPERTIES, "Get", &(VALUE, name)).await;
            (name.to_owned(), value)
        };
        let (current, min, max, step) = tokio::join!(
            get("CurrentValue"),
            get("MinimumValue"),
            get("MaximumValue"),
            get("MinimumIncrement"),
        );
        let mut props = Props::new();
        props.insert(current.0, current.1?);
        for (name, value) in [min, max, step] {
            match value {
                Ok(value) => {
                    props.insert(name, value);
                }
                Err(e) if crate::cache::is_unreachable(&e) => return Err(e),
                Err(_) => {}
            }
        }
        Ok(props)
    }

    pub async fn character_count(&self, id: &ElementId) -> zbus::Result<i32> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(TEXT, "CharacterCount"))
            .await?;
        i32::try_from(value).map_err(zbus::Error::from)
    }

    /// The caret's character offset.
    pub async fn caret_offset(&self, id: &ElementId) -> zbus::Result<i32> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(TEXT, "CaretOffset"))
            .await?;
        i32::try_from(value).map_err(zbus::Error::from)
    }

    /// The first selection (start, end), when there is one.
    pub async fn selection(&self, id: &ElementId) -> zbus::Result<Option<(i32, i32)>> {
        let count: i32 = self.call(id, TEXT, "GetNSelections", &()).await?;
        if count < 1 {
            return Ok(None);
        }
        let (start, end): (i32, i32) = self.call(id, TEXT, "GetSelection", &(0i32,)).await?;
        Ok((end > start).then_some((start, end)))
    }

    /// Text between two character offsets (explicit end: GTK4 answers `GetText(0, -1)` with "").
    pub async fn text(&self, id: &ElementId, start: i32, end: i32) -> zbus::Result<String> {
        self.call(id, TEXT, "GetText", &(start, end)).await
    }

    /// One property of the Application interface (atk-bridge answers `Get` but not `GetAll`).
    pub async fn application_prop(&self, id: &ElementId, name: &str) -> zbus::Result<String> {
        let value: OwnedValue = self
            .call(id, PROPERTIES, "Get", &(APPLICATION, name))
            .await?;
        String::try_from(value).map_err(zbus::Error::from)
    }

    /// Every cached item of an app (`Cache.GetItems`, at-spi2 2.46 shape).
    pub async fn cache_items<T>(&self, app: &str) -> zbus::Result<T>
    where
        T: DeserializeOwned + zbus::zvariant::Type,
    {
        self.call(&ElementId::new(app, CACHE_PATH), CACHE, "GetItems", &())
            .await
    }

    /// The app's peer-to-peer address (`Application.GetApplicationBusAddress`); asking also
    /// makes GTK3-family apps expose their cache.
    pub async fn application_bus_address(&self, id: &ElementId) -> zbus::Result<String> {
        self.call(id, APPLICATION, "GetApplicationBusAddress", &())
            .await
    }

    /// The applications registered with the registry (bus name + root path).
    pub async fn registry_children(&self) -> zbus::Result<Vec<ElementId>> {
        self.children(&ElementId::new(REGISTRY, ROOT_PATH)).await
    }

    /// The pid behind a bus name (`Application.Id` is not the pid).
    pub async fn pid(&self, bus_name: &str) -> zbus::Result<u32> {
        let reply = self
            .conn
            .call_method(
                Some("org.freedesktop.DBus"),
                "/org/freedesktop/DBus",
                Some("org.freedesktop.DBus"),
                "GetConnectionUnixProcessID",
                &(bus_name,),
            )
            .await?;
        reply.body().deserialize()
    }
}

fn to_id((app, path): (String, OwnedObjectPath)) -> ElementId {
    ElementId::new(app, path.as_str())
}

/// A string property out of a `GetAll` answer ("" when missing or of another type).
pub fn prop_string(props: &Props, key: &str) -> String {
    props
        .get(key)
        .and_then(|v| v.try_clone().ok())
        .and_then(|v| String::try_from(v).ok())
        .unwrap_or_default()
}

/// An i32 property out of a `GetAll` answer.
pub fn prop_i32(props: &Props, key: &str) -> Option<i32> {
    props.get(key).and_then(|v| i32::try_from(v).ok())
}

/// An f64 property out of a `GetAll` answer.
pub fn prop_f64(props: &Props, key: &str) -> Option<f64> {
    props.get(key).and_then(|v| f64::try_from(v).ok())
}
