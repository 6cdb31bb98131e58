//! Calls to mutter and gnome-shell on the session bus, each bounded in time, and their
//! failures in deskpilot's words.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use zbus::zvariant::{DynamicType, OwnedValue, Type};

/// Longest any one call may take.
pub(crate) const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// Why GNOME did not do what it was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GnomeError {
    /// gnome-shell keeps this to its own programs (outside its unsafe mode).
    #[error("{0}")]
    Denied(String),
    /// Nobody on the bus offers it: not GNOME, or not this version.
    #[error("{0}")]
    Missing(String),
    /// The call failed, or was not answered in time.
    #[error("{0}")]
    Failed(String),
}

/// An object's interface on the bus.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) service: &'static str,
    pub(crate) path: &'a str,
    pub(crate) interface: &'static str,
}

/// One connection to the session bus. Mutter ends a remote desktop session when the
/// connection that made it closes: the session lives exactly as long as this connection.
#[derive(Debug, Clone)]
pub(crate) struct Bus {
    connection: zbus::Connection,
}

impl Bus {
    pub(crate) async fn connect(address: &str) -> Result<Bus, GnomeError> {
        let build = async { zbus::connection::Builder::address(address)?.build().await };
        let connection = tokio::time::timeout(CALL_TIMEOUT, build)
            .await
            .map_err(|_| GnomeError::Failed("the session bus did not answer in time".into()))?
            .map_err(|e| GnomeError::Failed(format!("the session bus at {address}: {e}")))?;
        Ok(Bus { connection })
    }

    pub(crate) fn connection(&self) -> &zbus::Connection {
        &self.connection
    }

    /// Calls `method` with `body`; its answer.
    pub(crate) async fn call<B, R>(
        &self,
        to: Target<'_>,
        method: &str,
        body: &B,
    ) -> Result<R, GnomeError>
    where
        B: Serialize + DynamicType,
        R: DeserializeOwned + Type,
    {
        let what = || format!("{}.{method}", to.interface);
        let sent = self.connection.call_method(
            Some(to.service),
            to.path,
            Some(to.interface),
            method,
            body,
        );
        let reply = tokio::time::timeout(CALL_TIMEOUT, sent)
            .await
            .map_err(|_| GnomeError::Failed(format!("{} was not answered in time", what())))?
            .map_err(|e| failure(&what(), e))?;
        reply
            .body()
            .deserialize()
            .map_err(|e| GnomeError::Failed(format!("{} answered oddly: {e}", what())))
    }

    /// A property of `to`'s interface.
    pub(crate) async fn property(
        &self,
        to: Target<'_>,
        name: &str,
    ) -> Result<OwnedValue, GnomeError> {
        let properties = Target {
            interface: "org.freedesktop.DBus.Properties",
            ..to
        };
        let (value,): (OwnedValue,) = self.call(properties, "Get", &(to.interface, name)).await?;
        Ok(value)
    }
}

/// A failed call as GNOME's refusal, its absence, or a failure.
fn failure(what: &str, e: zbus::Error) -> GnomeError {
    let said = format!("{what}: {e}");
    match &e {
        zbus::Error::MethodError(name, _, _) => match name.as_str() {
            "org.freedesktop.DBus.Error.AccessDenied" => GnomeError::Denied(said),
            "org.freedesktop.DBus.Error.ServiceUnknown"
            | "org.freedesktop.DBus.Error.UnknownMethod"
            | "org.freedesktop.DBus.Error.UnknownObject"
            | "org.freedesktop.DBus.Error.UnknownInterface" => GnomeError::Missing(said),
            _ => GnomeError::Failed(said),
        },
        _ => GnomeError::Failed(said),
    }
}
