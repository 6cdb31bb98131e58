//! The AT-SPI calls deskpilot makes, one function each, as raw zbus method calls (no proxy
//! objects on the hot path). Decoding is tolerant: unknown interface names or state bits are
//! ignored rather than failing the node.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use deskpilot_platform::model::ElementId;
use serde::de::DeserializeOwned;
use zbus::zvariant::{DynamicType, OwnedObjectPath, OwnedValue};

mod content;
mod tree;

pub use content::ActionList;

pub const REGISTRY: &str = "org.a11y.atspi.Registry";
pub const ROOT_PATH: &str = "/org/a11y/atspi/accessible/root";
pub const ACCESSIBLE: &str = "org.a11y.atspi.Accessible";
pub(crate) const COMPONENT: &str = "org.a11y.atspi.Component";
pub(crate) const ACTION: &str = "org.a11y.atspi.Action";
pub(crate) const TEXT: &str = "org.a11y.atspi.Text";
pub(crate) const VALUE: &str = "org.a11y.atspi.Value";
const APPLICATION: &str = "org.a11y.atspi.Application";
pub(crate) const PROPERTIES: &str = "org.freedesktop.DBus.Properties";
const PEER: &str = "org.freedesktop.DBus.Peer";
const CACHE: &str = "org.a11y.atspi.Cache";
pub(crate) const TABLE: &str = "org.a11y.atspi.Table";
pub(crate) const TABLE_CELL: &str = "org.a11y.atspi.TableCell";
const NULL_PATH: &str = "/org/a11y/atspi/null";
const CACHE_PATH: &str = "/org/a11y/atspi/cache";

/// AT-SPI coordinate types.
const COORD_TYPE_SCREEN: u32 = 0;
const COORD_TYPE_WINDOW: u32 = 1;

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
    /// What is kept per app (bus name), dropped when it leaves the bus.
    apps: Arc<Mutex<HashMap<String, ProtoApp>>>,
    /// Method calls made so far (the cost unit of everything here).
    calls: Arc<std::sync::atomic::AtomicU64>,
    /// Apps whose calls timed out, and the count of calls that did.
    stalls: crate::stalls::Stalls,
}

/// What the protocol keeps of one app.
#[derive(Debug, Default)]
struct ProtoApp {
    /// Its direct (peer-to-peer) connection, where it offers one.
    peer: Option<zbus::Connection>,
    /// Per method (`Interface.Method`, the interface's last segment): how many calls were
    /// sent, so that tests can check what a toolkit was asked.
    sent: MethodCounts,
    /// Localized action name -> real action name (see `action_names`).
    action_names: HashMap<String, String>,
    /// Calls to it that failed for want of an answer in time (a read answered when sent again
    /// to an app busy, not frozen, is no failure).
    timeouts: u64,
}

impl Proto {
    pub fn new(conn: zbus::Connection, timeout: Duration) -> Self {
        Proto {
            stalls: crate::stalls::Stalls::new(conn.clone(), timeout),
            conn,
            timeout,
            apps: Arc::default(),
            calls: Arc::default(),
        }
    }

    /// Whether `app` (a bus name) is still on the bus, asked of the bus daemon.
    pub async fn on_bus(&self, app: &str) -> Option<bool> {
        crate::bus::on_bus(&self.conn, app, self.timeout).await
    }

    /// After a read to `app` timed out: whether it answers a ping within one more call
    /// timeout. An app slow under load (or busy with one long answer) does, a frozen one
    /// does not; the timeout is counted once either way (`stalls.rs`). Test
    /// `a_frozen_app_costs_one_timeout_per_operation` (crates/deskpilot-cli/tests/frozen.rs).
    async fn busy_not_frozen(&self, app: &str) -> bool {
        self.stalls.timed_out(app);
        let deadline = tokio::time::Instant::now() + self.timeout;
        self.stalls.answered_by(app, deadline).await && self.on_bus(app).await == Some(true)
    }

    /// Method calls made so far on this connection and its peers.
    pub fn calls(&self) -> u64 {
        self.calls.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Calls that timed out so far.
    pub fn timeouts(&self) -> u64 {
        self.stalls.timeouts()
    }

    /// Calls to `app` (a bus name) that timed out so far, each counted.
    pub fn timeouts_of(&self, app: &str) -> u64 {
        let apps = self.apps.lock().expect("proto apps");
        apps.get(app).map_or(0, |state| state.timeouts)
    }

    /// The apps whose calls timed out (shared with the event watch's pings).
    pub fn stalls(&self) -> &crate::stalls::Stalls {
        &self.stalls
    }

    /// How many `method` calls (`Interface.Method`, e.g. `Action.GetActions`) were sent to
    /// `app` (a bus name) so far.
    pub fn sent_to(&self, app: &str, method: &str) -> u64 {
        let (short_iface, name) = method.split_once('.').unwrap_or(("", method));
        self.apps
            .lock()
            .expect("proto apps")
            .get(app)
            .map(|state| {
                state
                    .sent
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
        self.apps
            .lock()
            .expect("proto apps")
            .entry(app.to_owned())
            .or_default()
            .peer = Some(conn);
        Ok(())
    }

    /// True when calls to `app` go over a direct connection.
    pub fn has_peer(&self, app: &str) -> bool {
        let apps = self.apps.lock().expect("proto apps");
        apps.get(app).is_some_and(|state| state.peer.is_some())
    }

    /// Forgets the direct connection to `app` (it went away).
    pub fn drop_peer(&self, app: &str) {
        if let Some(state) = self.apps.lock().expect("proto apps").get_mut(app) {
            state.peer = None;
        }
    }

    /// Keeps what is kept of `registered` apps only (direct connections, call counts,
    /// action names).
    pub fn retain_apps(&self, registered: &std::collections::HashSet<String>) {
        self.apps
            .lock()
            .expect("proto apps")
            .retain(|app, _| registered.contains(app));
    }

    /// The apps something is kept of.
    pub fn apps(&self) -> Vec<String> {
        self.apps
            .lock()
            .expect("proto apps")
            .keys()
            .cloned()
            .collect()
    }

    /// The real name of an action localized as `localized` in `app`, when learnt.
    pub(crate) fn action_name(&self, app: &str, localized: &str) -> Option<String> {
        let apps = self.apps.lock().expect("proto apps");
        apps.get(app)?.action_names.get(localized).cloned()
    }

    /// Learns the real name of an action localized as `localized` in `app`.
    pub(crate) fn learn_action_name(&self, app: &str, localized: &str, name: &str) {
        let mut apps = self.apps.lock().expect("proto apps");
        let state = apps.entry(app.to_owned()).or_default();
        state
            .action_names
            .insert(localized.to_owned(), name.to_owned());
    }

    /// Whether `app` answers a ping now (one that times out marks it stalled, as any read
    /// does). An answer a moment ago proves nothing: the app may have frozen since.
    pub async fn answering(&self, app: &str) -> bool {
        let root = ElementId::new(app, ROOT_PATH);
        self.call::<_, ()>(&root, PEER, "Ping", &()).await.is_ok()
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
        if self.stalls.stalled(&id.app) && !self.stalls.waited_for(&id.app).await {
            // It let a call time out and has not answered since: one timeout is its cost.
            return Err(crate::stalls::stalled_error(&id.app));
        }
        self.calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let connection = {
            // No allocation but an app's first call: this is every D-Bus call's path.
            let mut apps = self.apps.lock().expect("proto apps");
            let state = match apps.get_mut(&id.app) {
                Some(state) => state,
                None => apps.entry(id.app.clone()).or_default(),
            };
            *state.sent.entry((iface, method)).or_default() += 1;
            state.peer.clone()
        };
        let send = |connection: zbus::Connection| async move {
            connection
                .call_method(
                    Some(id.app.as_str()),
                    id.object.as_str(),
                    Some(iface),
                    method,
                    body,
                )
                .await
        };
        let via_peer = connection.is_some();
        let mut reply = send(connection.unwrap_or_else(|| self.conn.clone())).await;
        if via_peer
            && matches!(&reply, Err(e) if crate::error::classify(e) == crate::error::Failure::AppGone)
        {
            // A direct connection can break with the app alive: the bus says whether it is
            // gone. A handler's call is not sent twice: its effect is unknown.
            self.drop_peer(&id.app);
            tracing::debug!(app = %id.app, method, "the direct connection broke: asked through the bus");
            reply = if runs_handler(iface, method) {
                match crate::stalls::ping(&self.conn, &id.app).await {
                    Ok(_) => Err(zbus::Error::Failure(format!(
                        "the direct connection to {} broke during {method}: its effect is unknown",
                        id.app
                    ))),
                    Err(e) => Err(e),
                }
            } else {
                send(self.conn.clone()).await
            };
        }
        if read_again_when_busy(iface, method)
            && matches!(&reply, Err(e) if crate::error::classify(e) == crate::error::Failure::Timeout)
            && self.busy_not_frozen(&id.app).await
        {
            // A read is safe to send again: once, to an app that answered its ping late.
            tracing::debug!(app = %id.app, method, "busy, not frozen: read again");
            reply = send(self.conn.clone()).await;
        }
        match reply {
            Ok(reply) => reply.body().deserialize(),
            Err(e) => {
                let failure = crate::error::classify(&e);
                if failure == crate::error::Failure::Timeout
                    && let Some(state) = self.apps.lock().expect("proto apps").get_mut(&id.app)
                {
                    state.timeouts += 1;
                }
                match failure {
                    // A dead peer connection: later calls go through the bus (and learn there
                    // that the app is gone).
                    crate::error::Failure::AppGone => self.drop_peer(&id.app),
                    // A call that runs the app's own handler may be waiting on a modal loop
                    // the app still answers from: only a read says the app is frozen.
                    crate::error::Failure::Timeout if runs_handler(iface, method) => {
                        self.stalls.count_timeout();
                    }
                    crate::error::Failure::Timeout => {
                        tracing::debug!(%id, iface, method, "timed out");
                        self.stalls.timed_out(&id.app)
                    }
                    _ => {}
                }
                Err(e)
            }
        }
    }
}

/// Reads sent once more to an app that timed out but answers a ping: not a handler's call
/// (its effect is unknown), nor the answers GTK 3 builds for seconds over a whole container,
/// which `busy.rs` and the walk wait for on their own terms.
fn read_again_when_busy(iface: &str, method: &str) -> bool {
    !runs_handler(iface, method)
        && !matches!(
            method,
            "GetItems" | "GetApplicationBusAddress" | "GetChildren"
        )
}

/// Calls that run the app's own code (an action's handler, a value's or text's setter), as
/// opposed to reads.
fn runs_handler(iface: &str, method: &str) -> bool {
    iface == ACTION && method == "DoAction"
        || method.starts_with("Set")
        || matches!(
            method,
            "GrabFocus"
                | "InsertText"
                | "DeleteText"
                | "SelectChild"
                | "DeselectChild"
                | "DeselectSelectedChild"
                | "SelectAll"
                | "ClearSelection"
                | "ScrollTo"
                | "ScrollToPoint"
        )
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
