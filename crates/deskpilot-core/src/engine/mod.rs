//! The engine every front end shares: the platform it reads and drives, the sessions it keeps
//! (a `Session` handle addresses one, `handle.rs`), and the updates of a session's tree for
//! subscribers (`updates.rs`). What it does lives beside it: reading in `read/`, acting in
//! `act/`, screenshots in `capture/`, launching in `launch.rs`.

mod handle;
mod updates;

use std::sync::Arc;

pub use handle::Session;
pub use updates::{FLUSH, LIVENESS, TRAILING, TreeUpdated, TreeUpdates};

use crate::app::{AppInfo, WindowInfo};
use crate::error::{Code, Error, Result};
use crate::model::ElementId;
use crate::platform::window_system::ClientWindow;
use crate::platform::{Backend, InputDevice, Launcher, ScreenCapture, WindowSystem};
use crate::session::{ConnectTarget, SessionInfo, SessionStore, choose};

/// Why a device (synthetic input, screenshots) is missing, as the wiring knows it.
#[derive(Debug, Clone)]
pub struct DevicesMissing {
    pub why: String,
    pub hint: String,
}

impl Default for DevicesMissing {
    fn default() -> Self {
        DevicesMissing {
            why: "deskpilot has no display to send input to or read pixels from".into(),
            hint: "semantic actions still work; input and screenshots need a display".into(),
        }
    }
}

/// The engine over one backend.
pub struct Engine {
    backend: Arc<dyn Backend>,
    sessions: SessionStore,
    /// Synthetic input, when the display offers it.
    input: Option<Arc<dyn InputDevice>>,
    /// The display's windows and their manager, when there is one.
    windows: Option<Arc<dyn WindowSystem>>,
    /// The display's pixels, when it offers them.
    capture: Option<Arc<dyn ScreenCapture>>,
    /// Starts programs on the desktop.
    launcher: Option<Arc<dyn Launcher>>,
    /// What to say when input or capture is asked for and missing.
    missing: DevicesMissing,
    /// How the desktop was found, when it was not given (listed with the apps).
    desktop_note: Option<String>,
    /// Which desktop this is, in a few words (an HTTP server's `/healthz` says it).
    desktop_name: Option<String>,
    /// One keyboard and one pointer: input from all sessions goes through here in turn.
    input_lock: tokio::sync::Mutex<()>,
    /// The last tree a backend shared, and it as a reader sees it (`read/find.rs`).
    pub(crate) derived: std::sync::Mutex<Option<crate::derive::DerivedTree>>,
}

impl Engine {
    pub fn new(backend: Arc<dyn Backend>) -> Self {
        Engine {
            backend,
            sessions: SessionStore::default(),
            input: None,
            windows: None,
            capture: None,
            launcher: None,
            missing: DevicesMissing::default(),
            desktop_note: None,
            desktop_name: None,
            input_lock: tokio::sync::Mutex::new(()),
            derived: std::sync::Mutex::new(None),
        }
    }

    /// Sends synthetic input through `input`.
    pub fn with_input(mut self, input: Arc<dyn InputDevice>) -> Self {
        self.input = Some(input);
        self
    }

    /// Reads and raises windows through `windows`.
    pub fn with_windows(mut self, windows: Arc<dyn WindowSystem>) -> Self {
        self.windows = Some(windows);
        self
    }

    /// Starts programs through `launcher`.
    pub fn with_launcher(mut self, launcher: Arc<dyn Launcher>) -> Self {
        self.launcher = Some(launcher);
        self
    }

    /// Takes screenshots through `capture`.
    pub fn with_capture(mut self, capture: Arc<dyn ScreenCapture>) -> Self {
        self.capture = Some(capture);
        self
    }

    /// What `input_unavailable` says when input or capture is missing.
    pub fn with_devices_missing(mut self, missing: DevicesMissing) -> Self {
        self.missing = missing;
        self
    }

    /// Says how the desktop was found (the session bus, the display) where it was not given.
    pub fn with_desktop_note(mut self, note: String) -> Self {
        self.desktop_note = Some(note);
        self
    }

    /// How the desktop was found, when it was not given.
    pub fn desktop_note(&self) -> Option<&str> {
        self.desktop_note.as_deref()
    }

    /// Names the desktop this engine serves, in a few words.
    pub fn with_desktop_name(mut self, name: String) -> Self {
        self.desktop_name = Some(name);
        self
    }

    /// Which desktop this engine serves, when the wiring said.
    pub fn desktop_name(&self) -> Option<&str> {
        self.desktop_name.as_deref()
    }

    /// The launcher, or `unsupported` when there is none.
    pub fn launcher(&self) -> Result<&Arc<dyn Launcher>> {
        self.launcher.as_ref().ok_or_else(|| {
            Error::new(
                Code::Unsupported,
                "this deskpilot cannot start programs",
                "start the app yourself, then `list_apps` and `connect`",
            )
        })
    }

    /// The screen capture, or `input_unavailable` when there is none.
    pub fn capture_device(&self) -> Result<&Arc<dyn ScreenCapture>> {
        self.capture
            .as_ref()
            .ok_or_else(|| self.unavailable("no screenshots here"))
    }

    /// The input device, or `input_unavailable` when there is none.
    pub fn input_device(&self) -> Result<&Arc<dyn InputDevice>> {
        self.input
            .as_ref()
            .ok_or_else(|| self.unavailable("no synthetic input here"))
    }

    /// The window system, or `input_unavailable` when there is none.
    pub fn window_system(&self) -> Result<&Arc<dyn WindowSystem>> {
        self.windows
            .as_ref()
            .ok_or_else(|| self.unavailable("no window system here"))
    }

    /// `input_unavailable`, with what the wiring knows of why.
    pub(crate) fn unavailable(&self, what: &str) -> Error {
        Error::new(
            Code::InputUnavailable,
            format!("{what}: {}", self.missing.why),
            self.missing.hint.clone(),
        )
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
        let windows = match &self.windows {
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

    /// The session's own window now: for an app-wide session, its active window (else the
    /// one last seen active, else the first not minimized).
    pub(crate) async fn session_window(&self, session: &str) -> Result<Option<WindowInfo>> {
        let scope = self.scope(session).await?;
        if scope.app_wide {
            let last = self.sessions.last_active(session);
            Ok(scope.main_window(last.as_ref()).cloned())
        } else {
            Ok(scope.windows.first().cloned())
        }
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
