//! Connecting to the AT-SPI bus of an explicit D-Bus session.

use std::time::Duration;

use deskpilot_platform::BackendError;

/// How long after its read a kept tree may serve, by default: bounds inside a window can move
/// with no event (a layout settling), so a kept tree is read afresh at least this often.
const KEPT_FOR: Duration = Duration::from_secs(5);

/// How the backend connects.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// The D-Bus session bus whose accessibility bus to use (never taken from the environment
    /// by accident: the caller passes it).
    pub session_bus: String,
    /// Every method call gives up after this long; a frozen app costs at most this per call.
    pub call_timeout: Duration,
    /// Read identities from the app's `Cache.GetItems` where it offers one (one call for the
    /// whole app instead of four per node). Off only to compare both paths.
    pub use_cache: bool,
    /// Talk to apps over direct (peer-to-peer) connections where they offer one. Off only to
    /// compare both paths.
    pub use_peers: bool,
    /// Keep what was read of an app (its identities, whole trees, its description) while it
    /// sends no event (apps whose bridge reports every change). Off only for a cold oracle
    /// that tests compare with.
    pub reuse_quiet_cache: bool,
    /// How long after its read a kept tree may be reused or patched (bounds inside a window
    /// can move with no event). Longer only in tests that compare every read with a cold one.
    pub kept_for: Duration,
}

impl ConnectOptions {
    pub fn new(session_bus: impl Into<String>) -> Self {
        ConnectOptions {
            session_bus: session_bus.into(),
            call_timeout: Duration::from_millis(1500),
            use_cache: true,
            use_peers: true,
            reuse_quiet_cache: true,
            kept_for: KEPT_FOR,
        }
    }
}

/// Asks the session bus for the accessibility bus address (`org.a11y.Bus.GetAddress`, which also
/// starts the bus if needed) and connects to it.
pub async fn connect_a11y_bus(
    options: &ConnectOptions,
) -> Result<(zbus::Connection, String), BackendError> {
    let session = connect(&options.session_bus, options.call_timeout).await?;
    let reply = session
        .call_method(
            Some("org.a11y.Bus"),
            "/org/a11y/bus",
            Some("org.a11y.Bus"),
            "GetAddress",
            &(),
        )
        .await
        .map_err(|e| BackendError::System(format!("org.a11y.Bus.GetAddress: {e}")))?;
    let address: String = reply
        .body()
        .deserialize()
        .map_err(|e| BackendError::System(format!("org.a11y.Bus.GetAddress reply: {e}")))?;
    let a11y = connect(&address, options.call_timeout).await?;
    Ok((a11y, address))
}

/// A connection of its own to the bus at `address` (the event watch's: an app that floods
/// events then stalls only that connection's reader, never the replies of calls).
pub async fn connect(address: &str, timeout: Duration) -> Result<zbus::Connection, BackendError> {
    let builder = zbus::connection::Builder::address(address)
        .map_err(|e| BackendError::System(format!("bad bus address {address:?}: {e}")))?
        .method_timeout(timeout);
    tokio::time::timeout(timeout * 2, builder.build())
        .await
        .map_err(|_| BackendError::System(format!("connecting to {address} timed out")))?
        .map_err(|e| BackendError::System(format!("connecting to {address}: {e}")))
}

/// Whether `name` (an app's unique name) is still on the bus, asked of the bus daemon, never
/// of the app: a frozen app cannot answer, a gone one has no owner. `None` when the daemon
/// did not say within `timeout`.
pub async fn on_bus(bus: &zbus::Connection, name: &str, timeout: Duration) -> Option<bool> {
    let ask = async {
        let daemon = zbus::fdo::DBusProxy::new(bus).await.ok()?;
        let name = zbus::names::BusName::try_from(name).ok()?;
        daemon.name_has_owner(name).await.ok()
    };
    tokio::time::timeout(timeout, ask).await.ok().flatten()
}
