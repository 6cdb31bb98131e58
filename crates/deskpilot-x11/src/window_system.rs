//! `WindowSystem` on X11: the client list (`windows.rs`) and the window manager's requests
//! (`window_manager.rs`, EWMH), each call on a blocking thread under a timeout.

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskpilot_platform::{
    ClientWindow, InputError, WindowAction, WindowError, WindowId, WindowState, WindowSystem,
};

use crate::input::X11Input;
use crate::windows::X11Windows;

/// Longest the client list may take.
const LIST_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the window manager gets to activate a window.
const ACTIVATE_WAIT: Duration = Duration::from_millis(1500);

/// One X display's windows and their manager.
pub struct X11WindowSystem {
    windows: Arc<X11Windows>,
    /// The connection the window manager's requests go over: the input device's, so that
    /// raising a window and typing into it are serialized on one connection.
    manager: X11Input,
}

impl X11WindowSystem {
    /// Connects to `display` (e.g. `:3`) for the client list; `input`'s connection carries
    /// the window manager's requests.
    pub fn with_input(display: &str, input: X11Input) -> Result<Self, WindowError> {
        let windows = X11Windows::connect(display).map_err(WindowError::Unavailable)?;
        Ok(X11WindowSystem {
            windows: Arc::new(windows),
            manager: input,
        })
    }

    /// Connects to `display` for the list and, on a connection of its own, for requests
    /// (where no input device is wanted).
    pub fn connect(display: &str) -> Result<Self, WindowError> {
        let input = X11Input::connect(display).map_err(window_error)?;
        Self::with_input(display, input)
    }
}

/// A failure of the connection, as the window system reports it.
fn window_error(e: InputError) -> WindowError {
    match e {
        InputError::Unavailable(why) => WindowError::Unavailable(why),
        other => WindowError::Failed(other.to_string()),
    }
}

/// The X11 window behind a window id (ids this crate issued are X11 window ids).
fn xid(window: WindowId) -> Result<u32, WindowError> {
    u32::try_from(window.0)
        .map_err(|_| WindowError::Failed(format!("{window} is not an X11 window id")))
}

#[async_trait]
impl WindowSystem for X11WindowSystem {
    async fn client_windows(&self) -> Result<Vec<ClientWindow>, WindowError> {
        let windows = self.windows.clone();
        let list = tokio::task::spawn_blocking(move || windows.client_windows());
        match tokio::time::timeout(LIST_TIMEOUT, list).await {
            Ok(Ok(result)) => result.map_err(WindowError::Failed),
            Ok(Err(e)) => Err(WindowError::Failed(e.to_string())),
            Err(_) => Err(WindowError::Failed(format!(
                "the display server did not list its windows within {LIST_TIMEOUT:?}"
            ))),
        }
    }

    async fn active_window(&self) -> Result<Option<WindowId>, WindowError> {
        let active = self
            .manager
            .run(|s| s.active_window())
            .await
            .map_err(window_error)?;
        Ok(active.map(|xid| WindowId(u64::from(xid))))
    }

    async fn window_action(
        &self,
        window: WindowId,
        action: WindowAction,
    ) -> Result<(), WindowError> {
        let xid = xid(window)?;
        self.manager
            .run(move |s| s.window_action(xid, action))
            .await
            .map_err(window_error)
    }

    async fn window_state(&self, window: WindowId) -> Result<Option<WindowState>, WindowError> {
        let xid = xid(window)?;
        self.manager
            .run(move |s| s.window_state(xid))
            .await
            .map_err(window_error)
    }

    async fn activate_window(&self, window: WindowId) -> Result<(), WindowError> {
        let xid = xid(window)?;
        let refused = self
            .manager
            .run(move |s| {
                if s.active_window()? == Some(xid) {
                    return Ok(None);
                }
                s.request_activation(xid)?;
                let deadline = Instant::now() + ACTIVATE_WAIT;
                loop {
                    if s.active_window()? == Some(xid) {
                        return Ok(None);
                    }
                    if Instant::now() >= deadline {
                        // No window manager answered: focus it ourselves, once.
                        s.focus_directly(xid)?;
                        if s.active_window()? == Some(xid) {
                            return Ok(None);
                        }
                        return Ok(Some(format!(
                            "still not active after {ACTIVATE_WAIT:?} (now {:?})",
                            s.active_window()?
                        )));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
            .await
            .map_err(window_error)?;
        match refused {
            None => Ok(()),
            Some(why) => Err(WindowError::NotForeground { window, why }),
        }
    }
}
