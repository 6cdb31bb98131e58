//! Top-level windows as the system lists them (`EnumWindows`), beside UI Automation's tree:
//! which are shown, which window owns which (a dialog's owner), which has the foreground,
//! and what the window manager is asked to do. `WindowApi` is the seam: user32 on Windows
//! (`com/desktop.rs`), a list in tests.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{
    ClientWindow, WindowAction, WindowError, WindowId, WindowState, WindowSystem,
};

/// A top-level window as `EnumWindows` and its neighbours read it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RawWindow {
    pub hwnd: u64,
    pub pid: u32,
    /// Its title (`InternalGetWindowText`: no message to a frozen app).
    pub title: String,
    pub class: String,
    /// The client area, in screen coordinates (physical pixels).
    pub client: Rect,
    /// The whole window as drawn on screen (DWM's frame, without the invisible borders).
    pub frame: Rect,
    pub visible: bool,
    /// Hidden by the compositor (another virtual desktop, a suspended app).
    pub cloaked: bool,
    /// A tool window (`WS_EX_TOOLWINDOW`): a palette, never on the taskbar.
    pub tool: bool,
    /// `GW_OWNER`: the window that owns it (a dialog's parent window).
    pub owner: Option<u64>,
    pub minimized: bool,
    pub maximized: bool,
}

/// The user32 calls behind the window system; each is quick and never enters another
/// process's message loop, but is still run off the async threads under a deadline.
pub trait WindowApi: Send + Sync + 'static {
    fn windows(&self) -> Result<Vec<RawWindow>, String>;
    fn foreground(&self) -> Option<u64>;
    /// Asks for `action` (`ShowWindowAsync`, `WM_CLOSE`, `SetForegroundWindow`); returns
    /// once asked, not done.
    fn ask(&self, hwnd: u64, action: WindowAction) -> Result<(), String>;
}

/// The windows a person sees: visible, not cloaked, with an area or minimized (an iconic
/// window has no client area), tool windows only when a window owns them.
pub fn client_windows(raw: &[RawWindow]) -> Vec<ClientWindow> {
    raw.iter()
        .filter(|w| {
            let shown = !w.client.is_empty() || w.minimized;
            w.visible && !w.cloaked && shown && (!w.tool || w.owner.is_some())
        })
        .map(|w| ClientWindow {
            id: WindowId(w.hwnd),
            pid: Some(w.pid),
            title: w.title.clone(),
            bounds: w.client,
            process: None,
            transient_for: w.owner.map(WindowId),
        })
        .collect()
}

/// The `WindowSystem` over `W`.
pub struct SystemWindows<W> {
    api: Arc<W>,
    timeout: Duration,
}

impl<W: WindowApi> SystemWindows<W> {
    pub fn new(api: Arc<W>, timeout: Duration) -> Self {
        SystemWindows { api, timeout }
    }

    async fn call<T: Send + 'static>(
        &self,
        call: impl FnOnce(&W) -> T + Send + 'static,
    ) -> Result<T, WindowError> {
        let api = self.api.clone();
        let blocking = tokio::task::spawn_blocking(move || call(&api));
        match tokio::time::timeout(self.timeout, blocking).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(WindowError::Failed(e.to_string())),
            Err(_) => Err(WindowError::Failed(
                "the window list did not answer in time".into(),
            )),
        }
    }

    async fn raw(&self) -> Result<Vec<RawWindow>, WindowError> {
        self.call(|api| api.windows())
            .await?
            .map_err(WindowError::Failed)
    }
}

#[async_trait]
impl<W: WindowApi> WindowSystem for SystemWindows<W> {
    async fn client_windows(&self) -> Result<Vec<ClientWindow>, WindowError> {
        Ok(client_windows(&self.raw().await?))
    }

    async fn active_window(&self) -> Result<Option<WindowId>, WindowError> {
        Ok(self.call(|api| api.foreground()).await?.map(WindowId))
    }

    /// Restores it if minimized, asks for the foreground, and checks it holds: Windows'
    /// foreground lock may refuse a process that did not have the last input.
    async fn activate_window(&self, window: WindowId) -> Result<(), WindowError> {
        let state = self.window_state(window).await?;
        if state.is_some_and(|s| s.minimized) {
            self.window_action(window, WindowAction::Restore).await?;
        }
        let hwnd = window.0;
        self.call(move |api| api.ask(hwnd, WindowAction::Activate))
            .await?
            .map_err(|why| WindowError::NotForeground { window, why })?;
        match self.active_window().await? {
            Some(active) if active == window => Ok(()),
            _ => Err(WindowError::NotForeground {
                window,
                why: "Windows kept another window in the foreground (its foreground lock)".into(),
            }),
        }
    }

    async fn window_action(
        &self,
        window: WindowId,
        action: WindowAction,
    ) -> Result<(), WindowError> {
        let hwnd = window.0;
        self.call(move |api| api.ask(hwnd, action))
            .await?
            .map_err(WindowError::Failed)
    }

    async fn window_state(&self, window: WindowId) -> Result<Option<WindowState>, WindowError> {
        let raw = self.raw().await?;
        Ok(raw
            .iter()
            .find(|w| w.hwnd == window.0)
            .map(|w| WindowState {
                minimized: w.minimized,
                maximized: w.maximized,
            }))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A desktop's windows, and what was asked of them.
    #[derive(Default)]
    struct Listed {
        windows: Vec<RawWindow>,
        foreground: Mutex<Option<u64>>,
        asked: Mutex<Vec<(u64, WindowAction)>>,
        /// The foreground lock: activation is asked, never granted.
        locked: bool,
    }

    impl WindowApi for Listed {
        fn windows(&self) -> Result<Vec<RawWindow>, String> {
            Ok(self.windows.clone())
        }

        fn foreground(&self) -> Option<u64> {
            *self.foreground.lock().unwrap()
        }

        fn ask(&self, hwnd: u64, action: WindowAction) -> Result<(), String> {
            self.asked.lock().unwrap().push((hwnd, action));
            if action == WindowAction::Activate && !self.locked {
                *self.foreground.lock().unwrap() = Some(hwnd);
            }
            Ok(())
        }
    }

    fn window(hwnd: u64, title: &str) -> RawWindow {
        RawWindow {
            hwnd,
            pid: 7,
            title: title.into(),
            client: Rect::new(-1900, 0, 400, 300),
            visible: true,
            ..RawWindow::default()
        }
    }

    fn listed() -> Listed {
        let mut dialog = window(2, "Save As");
        dialog.owner = Some(1);
        let mut palette = window(3, "Tools");
        palette.tool = true;
        let mut cloaked = window(4, "Settings");
        cloaked.cloaked = true;
        // An iconic window sits at (-32000, -32000) with no client area (`WM_NCCALCSIZE`
        // gives a minimized window none; "Minimized Windows", Win32 docs).
        let mut minimized = window(5, "Minimized");
        minimized.minimized = true;
        minimized.client = Rect::new(-32000, -32000, 0, 0);
        Listed {
            windows: vec![window(1, "Editor"), dialog, palette, cloaked, minimized],
            ..Listed::default()
        }
    }

    /// Shown windows only: a dialog names its owner; an unowned tool window and a cloaked one
    /// are left out; a window left of the primary monitor keeps its negative origin.
    #[tokio::test]
    async fn windows_a_person_sees_with_their_owners() {
        let system = SystemWindows::new(Arc::new(listed()), Duration::from_secs(1));
        let windows = system.client_windows().await.unwrap();
        let titles: Vec<&str> = windows.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, ["Editor", "Save As", "Minimized"]);
        assert_eq!(windows[1].transient_for, Some(WindowId(1)));
        assert_eq!(windows[0].bounds.x, -1900);
    }

    /// Activating restores a minimized window first, then checks the foreground; a refused
    /// foreground is `NotForeground`, never success.
    #[tokio::test]
    async fn activation_is_checked_and_a_refusal_said() {
        let api = Arc::new(listed());
        let system = SystemWindows::new(api.clone(), Duration::from_secs(1));
        system.activate_window(WindowId(5)).await.unwrap();
        assert_eq!(
            *api.asked.lock().unwrap(),
            [(5, WindowAction::Restore), (5, WindowAction::Activate)]
        );
        assert_eq!(system.active_window().await.unwrap(), Some(WindowId(5)));
        let locked = Arc::new(Listed {
            locked: true,
            ..listed()
        });
        let system = SystemWindows::new(locked, Duration::from_secs(1));
        let error = system.activate_window(WindowId(1)).await.unwrap_err();
        assert!(
            matches!(error, WindowError::NotForeground { .. }),
            "{error:?}"
        );
        assert_eq!(system.window_state(WindowId(9)).await.unwrap(), None);
    }
}
