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
    /// Asks for `action` (`ShowWindowAsync`, `WM_CLOSE`, a plain `SetForegroundWindow`);
    /// returns once asked, not done.
    fn ask(&self, hwnd: u64, action: WindowAction) -> Result<(), String>;
    /// Asks for the foreground as Windows lets a background process have it: this thread's
    /// input attached to the foreground window's thread (`AttachThreadInput`) while it calls
    /// `SetForegroundWindow`, then detached. Only the foreground process, or one that had
    /// the last input, may take the foreground plainly (`SetForegroundWindow`'s remarks),
    /// and an MCP host's terminal or editor is neither (review B1).
    fn activate(&self, hwnd: u64) -> Result<(), String>;
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
            knows_position: true,
            frame: None,
        })
        .collect()
}

/// How long an activation waits for a minimized window's restore.
const RESTORE_WAIT: Duration = Duration::from_secs(1);

/// How often an activation looks at the window again.
const POLL: Duration = Duration::from_millis(20);

/// How many times an activation checks that the foreground moved, `POLL` apart.
const FOREGROUND_CHECKS: usize = 10;

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

    /// Waits, a bounded time, until `window` is no longer minimized; a window still
    /// minimized then is activated as it is (the foreground check says whether it took).
    async fn until_restored(&self, window: WindowId) -> Result<(), WindowError> {
        let until = tokio::time::Instant::now() + RESTORE_WAIT;
        while tokio::time::Instant::now() < until {
            let state = self.window_state(window).await?;
            if !state.is_some_and(|s| s.minimized) {
                return Ok(());
            }
            tokio::time::sleep(POLL).await;
        }
        Ok(())
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

    /// Restores it if minimized and waits until it is (the restore is asynchronous), takes
    /// the foreground attached to the foreground thread (`WindowApi::activate`), and checks
    /// a few times that it holds: the window's thread may take a moment.
    async fn activate_window(&self, window: WindowId) -> Result<(), WindowError> {
        let state = self.window_state(window).await?;
        if state.is_some_and(|s| s.minimized) {
            self.window_action(window, WindowAction::Restore).await?;
            self.until_restored(window).await?;
        }
        let hwnd = window.0;
        self.call(move |api| api.activate(hwnd))
            .await?
            .map_err(|why| WindowError::NotForeground { window, why })?;
        for _ in 0..FOREGROUND_CHECKS {
            if self.active_window().await? == Some(window) {
                return Ok(());
            }
            tokio::time::sleep(POLL).await;
        }
        Err(WindowError::NotForeground {
            window,
            why: "Windows kept another window in the foreground (its foreground lock)".into(),
        })
    }

    async fn window_action(
        &self,
        window: WindowId,
        action: WindowAction,
    ) -> Result<(), WindowError> {
        if action == WindowAction::Activate {
            return self.activate_window(window).await;
        }
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
        windows: Mutex<Vec<RawWindow>>,
        foreground: Mutex<Option<u64>>,
        asked: Mutex<Vec<(u64, WindowAction)>>,
        /// Nothing grants the foreground (a secure desktop, another app holding it).
        locked: bool,
        /// A minimized window asked to restore is restored this long after
        /// (`ShowWindowAsync` returns at once); `None`: at once.
        restore_after: Option<Duration>,
        restoring: Mutex<Vec<(u64, tokio::time::Instant)>>,
        /// Whether each activation found its window minimized.
        activated_minimized: Mutex<Vec<bool>>,
    }

    impl Listed {
        /// Restores whose time has come.
        fn settle(&self) {
            let now = tokio::time::Instant::now();
            let mut windows = self.windows.lock().unwrap();
            self.restoring.lock().unwrap().retain(|(hwnd, at)| {
                let due = *at <= now;
                if let Some(w) = windows.iter_mut().filter(|_| due).find(|w| w.hwnd == *hwnd) {
                    w.minimized = false;
                }
                !due
            });
        }
    }

    impl WindowApi for Listed {
        fn windows(&self) -> Result<Vec<RawWindow>, String> {
            self.settle();
            Ok(self.windows.lock().unwrap().clone())
        }

        fn foreground(&self) -> Option<u64> {
            *self.foreground.lock().unwrap()
        }

        /// A plain `SetForegroundWindow` from deskpilot, a background process: refused by
        /// the foreground lock. A restore completes later.
        fn ask(&self, hwnd: u64, action: WindowAction) -> Result<(), String> {
            self.asked.lock().unwrap().push((hwnd, action));
            if action == WindowAction::Restore {
                let at = tokio::time::Instant::now() + self.restore_after.unwrap_or_default();
                self.restoring.lock().unwrap().push((hwnd, at));
            }
            Ok(())
        }

        /// Attached to the foreground thread, the foreground is granted (unless nothing
        /// grants it); a minimized window gets it without being restored.
        fn activate(&self, hwnd: u64) -> Result<(), String> {
            self.settle();
            let minimized = self
                .windows
                .lock()
                .unwrap()
                .iter()
                .any(|w| w.hwnd == hwnd && w.minimized);
            self.activated_minimized.lock().unwrap().push(minimized);
            if !self.locked {
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
            windows: Mutex::new(vec![
                window(1, "Editor"),
                dialog,
                palette,
                cloaked,
                minimized,
            ]),
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

    /// Activating restores a minimized window and waits until it is restored, then takes
    /// the foreground attached to the foreground thread (a plain request is refused by the
    /// foreground lock) and checks it; a refused foreground is `NotForeground`.
    #[tokio::test(start_paused = true)]
    async fn activation_waits_for_the_restore_and_is_checked() {
        let api = Arc::new(Listed {
            restore_after: Some(Duration::from_millis(120)),
            ..listed()
        });
        let system = SystemWindows::new(api.clone(), Duration::from_secs(1));
        system.activate_window(WindowId(5)).await.unwrap();
        assert_eq!(*api.asked.lock().unwrap(), [(5, WindowAction::Restore)]);
        assert_eq!(
            *api.activated_minimized.lock().unwrap(),
            [false],
            "restored first"
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
