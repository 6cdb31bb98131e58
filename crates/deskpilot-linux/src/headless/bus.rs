//! The desktop's D-Bus side: activating the accessibility bus and asking its registry which
//! applications are registered. Runs on a small private tokio runtime so that the harness can be
//! used from plain `#[test]`s and from async tests alike.

use std::future::Future;
use std::time::Duration;

use zbus::zvariant::OwnedObjectPath;

use super::error::{DesktopError, Result};

/// Every call made by the harness gives up after this long.
const CALL_TIMEOUT: Duration = Duration::from_secs(3);

const REGISTRY: &str = "org.a11y.atspi.Registry";
const ROOT_PATH: &str = "/org/a11y/atspi/accessible/root";
const ACCESSIBLE: &str = "org.a11y.atspi.Accessible";

/// One application registered on the AT-SPI bus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisteredApp {
    /// Its unique name on the accessibility bus (`:1.23`).
    pub bus_name: String,
    /// The process that owns that connection.
    pub pid: u32,
    /// The accessible name of its root (usually the program name).
    pub name: String,
}

impl std::fmt::Display for RegisteredApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} pid {} on {}", self.name, self.pid, self.bus_name)
    }
}

pub struct Bus {
    runtime: Option<tokio::runtime::Runtime>,
    a11y: zbus::Connection,
    a11y_address: String,
}

impl Bus {
    /// Connects to the session bus at `session_address`, activates `org.a11y.Bus` (which starts
    /// at-spi-bus-launcher and the accessibility bus), then wakes the registry on that bus.
    pub fn activate(session_address: &str) -> Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("deskpilot-headless-bus")
            .enable_all()
            .build()
            .map_err(|source| DesktopError::Io {
                path: "tokio runtime".into(),
                source,
            })?;
        let session_address = session_address.to_owned();
        let activated = run_on(&runtime, async move {
            let session = connect(&session_address).await?;
            let reply = session
                .call_method(
                    Some("org.a11y.Bus"),
                    "/org/a11y/bus",
                    Some("org.a11y.Bus"),
                    "GetAddress",
                    &(),
                )
                .await
                .map_err(bus_error("org.a11y.Bus.GetAddress"))?;
            let address: String = reply
                .body()
                .deserialize()
                .map_err(bus_error("org.a11y.Bus.GetAddress reply"))?;
            let a11y = connect(&address).await?;
            // Activates at-spi2-registryd if it is not running yet.
            registry_children(&a11y).await?;
            Ok::<_, DesktopError>((a11y, address))
        });
        let (a11y, a11y_address) = match activated {
            Ok(activated) => activated,
            Err(e) => {
                // Dropped at once, the runtime would wait for its threads: an async caller's
                // thread must not block.
                runtime.shutdown_background();
                return Err(e);
            }
        };
        Ok(Bus {
            runtime: Some(runtime),
            a11y,
            a11y_address,
        })
    }

    pub fn a11y_address(&self) -> &str {
        &self.a11y_address
    }

    /// The applications registered on the accessibility bus right now.
    pub fn registered_apps(&self) -> Result<Vec<RegisteredApp>> {
        let conn = self.a11y.clone();
        self.run(async move {
            let mut apps = Vec::new();
            for (bus_name, _path) in registry_children(&conn).await? {
                // An app may leave between the two calls: skip it rather than fail.
                let Ok(pid) = pid_of(&conn, &bus_name).await else {
                    continue;
                };
                let name = root_name(&conn, &bus_name).await.unwrap_or_default();
                apps.push(RegisteredApp {
                    bus_name,
                    pid,
                    name,
                });
            }
            Ok(apps)
        })
    }

    fn run<F>(&self, fut: F) -> F::Output
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        run_on(
            self.runtime.as_ref().expect("runtime lives as long as Bus"),
            fut,
        )
    }
}

impl Drop for Bus {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Runs `fut` on `runtime` and blocks the calling thread until it is done. Works whether or not
/// the caller is itself inside a tokio runtime.
fn run_on<F>(runtime: &tokio::runtime::Runtime, fut: F) -> F::Output
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    runtime.spawn(async move {
        let _ = tx.send(fut.await);
    });
    rx.recv().expect("the bus runtime dropped a task")
}

async fn connect(address: &str) -> Result<zbus::Connection> {
    zbus::connection::Builder::address(address)
        .map_err(bus_error("parse address"))?
        .method_timeout(CALL_TIMEOUT)
        .build()
        .await
        .map_err(bus_error(&format!("connect to {address}")))
}

async fn registry_children(conn: &zbus::Connection) -> Result<Vec<(String, OwnedObjectPath)>> {
    let reply = conn
        .call_method(
            Some(REGISTRY),
            ROOT_PATH,
            Some(ACCESSIBLE),
            "GetChildren",
            &(),
        )
        .await
        .map_err(bus_error("Registry.GetChildren"))?;
    reply
        .body()
        .deserialize()
        .map_err(bus_error("Registry.GetChildren reply"))
}

async fn pid_of(conn: &zbus::Connection, bus_name: &str) -> Result<u32> {
    let reply = conn
        .call_method(
            Some("org.freedesktop.DBus"),
            "/org/freedesktop/DBus",
            Some("org.freedesktop.DBus"),
            "GetConnectionUnixProcessID",
            &(bus_name,),
        )
        .await
        .map_err(bus_error("GetConnectionUnixProcessID"))?;
    reply
        .body()
        .deserialize()
        .map_err(bus_error("GetConnectionUnixProcessID reply"))
}

async fn root_name(conn: &zbus::Connection, bus_name: &str) -> Result<String> {
    let reply = conn
        .call_method(
            Some(bus_name),
            ROOT_PATH,
            Some("org.freedesktop.DBus.Properties"),
            "Get",
            &(ACCESSIBLE, "Name"),
        )
        .await
        .map_err(bus_error("Accessible.Name"))?;
    let value: zbus::zvariant::OwnedValue = reply
        .body()
        .deserialize()
        .map_err(bus_error("Accessible.Name reply"))?;
    String::try_from(value).map_err(|e| bus_error("Accessible.Name value")(e.into()))
}

fn bus_error(call: &str) -> impl FnOnce(zbus::Error) -> DesktopError + '_ {
    move |source| DesktopError::Bus {
        call: call.to_owned(),
        source: Box::new(source),
    }
}
