//! zbus errors -> `BackendError`, keeping the distinctions that matter to a caller: frozen app,
//! app gone, element gone, interface missing.

use std::time::Duration;

use deskpilot_platform::BackendError;
use deskpilot_platform::model::ElementId;

/// What a failed call says about its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// No reply within the method timeout (frozen, or stuck in a modal loop).
    Timeout,
    /// The app's connection is gone.
    AppGone,
    /// The object is gone (or never existed).
    ObjectGone,
    /// The object lacks the interface or method.
    Unsupported,
    /// Anything else.
    Other,
}

pub fn classify(error: &zbus::Error) -> Failure {
    match error {
        zbus::Error::InputOutput(io) => match io.kind() {
            std::io::ErrorKind::TimedOut => Failure::Timeout,
            // A direct (peer-to-peer) connection whose other end is gone.
            std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::NotConnected
            | std::io::ErrorKind::UnexpectedEof => Failure::AppGone,
            _ => Failure::Other,
        },
        zbus::Error::MethodError(_, Some(text), _) if no_such_object(text) => Failure::ObjectGone,
        zbus::Error::MethodError(name, _, _) => classify_name(name.as_str()),
        zbus::Error::FDO(fdo) if no_such_object(&fdo.to_string()) => Failure::ObjectGone,
        zbus::Error::FDO(fdo) => classify_name(&fdo_name(fdo)),
        zbus::Error::InterfaceNotFound => Failure::Unsupported,
        _ => Failure::Other,
    }
}

/// GDBus (GTK 4's bridge) answers a call on an object it no longer exports with
/// `UnknownMethod` and this text, where others say `UnknownObject`.
fn no_such_object(text: &str) -> bool {
    text.contains("Object does not exist at path")
}

fn fdo_name(error: &zbus::fdo::Error) -> String {
    use zbus::DBusError;
    error.name().to_string()
}

fn classify_name(name: &str) -> Failure {
    match name.rsplit('.').next().unwrap_or(name) {
        "NoReply" | "TimedOut" | "Timeout" => Failure::Timeout,
        "ServiceUnknown" | "NameHasNoOwner" | "Disconnected" => Failure::AppGone,
        "UnknownObject" => Failure::ObjectGone,
        "UnknownMethod" | "UnknownInterface" | "UnknownProperty" | "NotSupported" => {
            Failure::Unsupported
        }
        _ => Failure::Other,
    }
}

/// Converts a failed call on `id` into the engine's error.
pub fn to_backend(
    error: zbus::Error,
    id: &ElementId,
    what: &str,
    timeout: Duration,
) -> BackendError {
    match classify(&error) {
        Failure::Timeout => BackendError::AppNotResponding {
            app: id.app.clone(),
            timeout,
        },
        Failure::AppGone => BackendError::AppGone {
            app: id.app.clone(),
        },
        Failure::ObjectGone => BackendError::Defunct { id: id.clone() },
        Failure::Unsupported => BackendError::Unsupported {
            id: id.clone(),
            what: what.to_owned(),
        },
        // The error's text is the app's: escaped like any text it gives.
        Failure::Other => {
            let error = deskpilot_platform::escape::escape(&error.to_string(), 300);
            BackendError::System(format!("{what} on {id}: {error}"))
        }
    }
}

/// True for failures that say the app does not answer or is gone.
pub fn is_unreachable(error: &zbus::Error) -> bool {
    matches!(classify(error), Failure::Timeout | Failure::AppGone)
}

#[cfg(test)]
mod tests {
    use super::{Failure, classify};

    #[test]
    fn gdbus_saying_an_object_does_not_exist_means_it_is_gone() {
        let gone = zbus::fdo::Error::UnknownMethod(
            "Object does not exist at path \u{201c}/org/gtk/application/x/a11y/1\u{201d}".into(),
        );
        assert_eq!(
            classify(&zbus::Error::FDO(Box::new(gone))),
            Failure::ObjectGone
        );
        let unsupported =
            zbus::fdo::Error::UnknownMethod("No such method \u{201c}Foo\u{201d}".into());
        assert_eq!(
            classify(&zbus::Error::FDO(Box::new(unsupported))),
            Failure::Unsupported
        );
    }
}
