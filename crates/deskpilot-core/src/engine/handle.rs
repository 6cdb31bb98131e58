//! A session, resolved once: what a face reads, acts, waits and captures through. The engine
//! keeps what is desktop-wide (apps, connect, launch, windows, the foreground); a `Session`
//! carries everything addressed to one session (issue 41).

use super::Engine;
use crate::error::Result;
use crate::session::SessionInfo;

/// One open session of an engine.
#[derive(Clone)]
pub struct Session<'e> {
    pub(crate) engine: &'e Engine,
    id: String,
    /// Background mode: no action through this handle raises a window or moves the pointer.
    pub(crate) background: bool,
}

impl std::fmt::Debug for Session<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Session").field(&self.id).finish()
    }
}

impl Engine {
    /// The open session `id`, or `unknown_session`.
    pub fn session(&self, id: &str) -> Result<Session<'_>> {
        self.sessions().info(id)?;
        Ok(self.handle(id))
    }

    /// The session `id` without asking whether it is open: each call on it asks.
    pub(crate) fn handle(&self, id: &str) -> Session<'_> {
        Session {
            engine: self,
            id: id.to_owned(),
            background: false,
        }
    }
}

impl<'e> Session<'e> {
    /// This handle in background mode: its actions take no rung that would raise a window
    /// or move the pointer (keys need the focus, the pointer the screen), and say so in the
    /// rungs they skipped.
    pub fn in_background(mut self) -> Self {
        self.background = true;
        self
    }

    /// The session's id (`s1`, ...).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// What the session is on, or `unknown_session` once it is closed.
    pub fn info(&self) -> Result<SessionInfo> {
        self.engine.sessions().info(&self.id)
    }

    /// The engine the session belongs to.
    pub fn engine(&self) -> &'e Engine {
        self.engine
    }
}
