//! The shell every front end shares, the one place that talks to the platform: the engine
//! over one backend and its devices (`wiring.rs`), the sessions it keeps (a `Session` handle
//! addresses one, `handle.rs`), the updates of a session's tree (`updates.rs`), and the round
//! trips that read, act, wait, capture and launch, under folders of those names.

pub(crate) mod act;
pub(crate) mod capture;
mod handle;
mod launch;
pub(crate) mod read;
pub(crate) mod scope;
mod updates;
pub(crate) mod wait;
mod wiring;

use crate::engine::scope::scope;
use std::sync::Arc;

pub use handle::Session;
pub use updates::{FLUSH, LIVENESS, TRAILING, TreeUpdated, TreeUpdates};
pub use wiring::{DevicesMissing, Wiring};

use crate::app::{AppInfo, WindowInfo};
use crate::error::Result;
use crate::model::ElementId;
use crate::platform::Backend;
use crate::platform::window_system::ClientWindow;
use crate::session::{ConnectTarget, SessionInfo, SessionStore, choose};

/// The engine over one backend.
pub struct Engine {
    backend: Arc<dyn Backend>,
    sessions: SessionStore,
    /// The devices and words of its desktop.
    wiring: Wiring,
    /// One keyboard and one pointer: input from all sessions goes through here in turn.
    input_lock: tokio::sync::Mutex<()>,
    /// The last tree a backend shared, and it as a reader sees it (`read/find.rs` here).
    pub(crate) derived: std::sync::Mutex<Option<crate::derive::DerivedTree>>,
}

impl Engine {
    /// The engine over `backend` alone: no input, windows, screenshots or launcher.
    pub fn new(backend: Arc<dyn Backend>) -> Self {
        Engine::wired(backend, Wiring::default())
    }

    /// The engine over `backend` and the devices `wiring` found.
    pub fn wired(backend: Arc<dyn Backend>, wiring: Wiring) -> Self {
        Engine {
            backend,
            sessions: SessionStore::default(),
            wiring,
            input_lock: tokio::sync::Mutex::new(()),
            derived: std::sync::Mutex::new(None),
        }
    }

    /// The devices and words of this engine's desktop.
    pub fn wiring(&self) -> &Wiring {
        &self.wiring
    }

    pub fn backend(&self) -> &Arc<dyn Backend> {
        &self.backend
    }

    /// The sessions, their refs and cursors.
    pub(crate) fn sessions(&self) -> &SessionStore {
        &self.sessions
    }

    /// Held while synthetic input is sent.
    pub(crate) async fn input_lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.input_lock.lock().await
    }

    pub async fn apps(&self) -> Result<Vec<AppInfo>> {
        Ok(self.backend.apps().await?)
    }

    /// Windows on the display whose process is not among `apps` (not on the accessibility
    /// bus: deskpilot cannot read them, only say that they are there).
    pub async fn windows_off_the_bus(&self, apps: &[AppInfo]) -> Vec<ClientWindow> {
        let windows = match &self.wiring.windows {
            Some(system) => system.client_windows().await.unwrap_or_default(),
            None => Vec::new(),
        };
        crate::platform::window_system::off_the_bus(apps, &windows)
    }

    /// Opens a session on the app or window `target` names.
    pub async fn connect(&self, target: &ConnectTarget) -> Result<SessionInfo> {
        let apps = self.apps().await?;
        let (app, window) = choose(&apps, target)?;
        Ok(self.sessions.open(app, window))
    }

    /// Every open session.
    pub fn sessions_open(&self) -> Vec<SessionInfo> {
        self.sessions.all()
    }

    pub(crate) fn session_info(&self, session: &str) -> Result<SessionInfo> {
        self.sessions.info(session)
    }

    /// An app's windows, read for that app alone.
    pub(crate) async fn windows_of(&self, app: &ElementId) -> Result<Vec<WindowInfo>> {
        Ok(self.backend.app(app).await?.windows)
    }
}

/// The session's own window now: for an app-wide session, its active window (else the
/// one last seen active, else the first not minimized).
pub(crate) async fn session_window(engine: &Engine, session: &str) -> Result<Option<WindowInfo>> {
    let scope = scope(engine, session).await?;
    if scope.app_wide {
        let last = engine.sessions.last_active(session);
        Ok(scope.main_window(last.as_ref()).cloned())
    } else {
        Ok(scope.windows.first().cloned())
    }
}

impl crate::engine::Session<'_> {
    pub fn disconnect(&self) -> Result<()> {
        let session = self.id();
        self.engine.sessions.close(session)
    }

    /// Whether the session's action results read its tree again and say what changed since
    /// its last snapshot (on by default).
    pub fn follow_tree(&self, follow: bool) -> Result<()> {
        let session = self.id();
        self.engine.sessions.follow_tree(session, follow)
    }
}
