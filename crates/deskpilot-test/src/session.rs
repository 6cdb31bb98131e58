//! What an app handle and its locators share: the engine and the session on the app.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::{Engine, SessionInfo};

/// The engine's session on one app, with the default timeout of waits on it.
pub(crate) struct Session {
    pub(crate) engine: Arc<Engine>,
    pub(crate) info: SessionInfo,
    pub(crate) timeout: Duration,
}

impl Session {
    pub(crate) fn id(&self) -> &str {
        &self.info.id
    }
}
