//! `ShellWindows`: the contract's `WindowSystem` on gnome-shell, through its `Eval`: the
//! windows mutter manages with their pids, titles and surfaces' places, their open popup
//! menus, focus, activation and the window manager's requests. Scripts only ever carry
//! window ids, never text.

use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{
    ClientWindow, Popup, WindowAction, WindowError, WindowId, WindowState, WindowSystem,
};
use serde::Deserialize;

use crate::bus::GnomeError;
use crate::shell::Shell;

/// How long activation waits for the window to have the focus.
const FOCUS_WAIT: Duration = Duration::from_secs(2);
const FOCUS_POLL: Duration = Duration::from_millis(20);

/// Every managed window: its surface (`get_buffer_rect`) and its frame (`get_frame_rect`),
/// from one of which native Wayland apps' window-relative bounds count. Client type 1 is X11.
const LIST: &str = "(() => { const focus = global.display.focus_window; \
    return global.get_window_actors().map(a => a.meta_window) \
    .filter(w => !w.is_override_redirect()) \
    .map(w => { const b = w.get_buffer_rect(); const f = w.get_frame_rect(); \
    const t = w.get_transient_for(); \
    return { id: w.get_id(), pid: w.get_pid(), title: w.get_title() || '', \
    x: b.x, y: b.y, width: b.width, height: b.height, \
    fx: f.x, fy: f.y, fwidth: f.width, fheight: f.height, wm_class: w.get_wm_class(), \
    transient_for: t ? t.get_id() : null, x11: w.get_client_type() === 1, \
    focused: w === focus, minimized: w.minimized, maximized: w.get_maximized() === 3, \
    kind: w.get_window_type() }; }); })()";

/// Mutter's window types that are popups of another window: menu, drop-down menu, popup
/// menu, combo box list (`MetaWindowType`).
const POPUP_KINDS: [u32; 4] = [6, 9, 10, 13];

/// One window as the script gives it.
#[derive(Debug, Clone, Deserialize)]
struct Shown {
    id: u64,
    pid: i64,
    title: String,
    x: i32,
    y: i32,
    width: i32,
    height: i32,
    fx: i32,
    fy: i32,
    fwidth: i32,
    fheight: i32,
    wm_class: Option<String>,
    transient_for: Option<u64>,
    x11: bool,
    focused: bool,
    minimized: bool,
    maximized: bool,
    kind: u32,
}

impl Shown {
    fn is_popup(&self) -> bool {
        POPUP_KINDS.contains(&self.kind)
    }

    fn window(&self) -> ClientWindow {
        ClientWindow {
            id: WindowId(self.id),
            pid: u32::try_from(self.pid).ok().filter(|p| *p > 0),
            title: self.title.clone(),
            bounds: Rect::new(self.x, self.y, self.width, self.height),
            process: self.wm_class.clone(),
            transient_for: self.transient_for.map(WindowId),
            knows_position: self.x11,
            frame: Some(Rect::new(self.fx, self.fy, self.fwidth, self.fheight)),
        }
    }
}

/// The windows of one gnome-shell.
#[derive(Debug, Clone)]
pub struct ShellWindows {
    shell: Shell,
}

impl ShellWindows {
    pub(crate) fn new(shell: Shell) -> Self {
        ShellWindows { shell }
    }

    async fn shown(&self) -> Result<Vec<Shown>, WindowError> {
        let listed = self.shell.eval(LIST).await.map_err(window_error)?;
        serde_json::from_value(listed)
            .map_err(|e| WindowError::Failed(format!("gnome-shell's window list: {e}")))
    }

    /// Runs `body` with `w` the window `window`; false when there is no such window.
    async fn with_window(&self, window: WindowId, body: &str) -> Result<bool, WindowError> {
        let script = format!(
            "(() => {{ const w = global.get_window_actors().map(a => a.meta_window)\
             .find(w => w.get_id() === {}); if (!w) return false; {body} return true; }})()",
            window.0
        );
        let done = self.shell.eval(&script).await.map_err(window_error)?;
        Ok(done.as_bool() == Some(true))
    }
}

pub(crate) fn window_error(e: GnomeError) -> WindowError {
    match e {
        GnomeError::Denied(why) | GnomeError::Missing(why) => WindowError::Unavailable(why),
        GnomeError::Failed(why) => WindowError::Failed(why),
    }
}

#[async_trait]
impl WindowSystem for ShellWindows {
    async fn client_windows(&self) -> Result<Vec<ClientWindow>, WindowError> {
        Ok(self.windows_and_popups().await?.0)
    }

    /// One `Eval` for both: placing an element needs the two, and each costs a call.
    async fn windows_and_popups(&self) -> Result<(Vec<ClientWindow>, Vec<Popup>), WindowError> {
        let shown = self.shown().await?;
        let (popups, windows): (Vec<&Shown>, Vec<&Shown>) =
            shown.iter().partition(|w| w.is_popup());
        let popups = popups.into_iter().filter(|w| !w.minimized);
        let popups = popups.map(|w| Popup {
            pid: w.window().pid,
            bounds: Rect::new(w.x, w.y, w.width, w.height),
        });
        let windows = windows.into_iter().map(Shown::window).collect();
        Ok((windows, popups.collect()))
    }

    async fn active_window(&self) -> Result<Option<WindowId>, WindowError> {
        let shown = self.shown().await?;
        Ok(shown.iter().find(|w| w.focused).map(|w| WindowId(w.id)))
    }

    /// `Main.activateWindow`, as the shell's own window switcher does (it leaves the
    /// overview too), then waits for the focus.
    async fn activate_window(&self, window: WindowId) -> Result<(), WindowError> {
        if !self.with_window(window, "Main.activateWindow(w);").await? {
            return Err(gone(window));
        }
        let deadline = Instant::now() + FOCUS_WAIT;
        loop {
            let shown = self.shown().await?;
            let focused = shown.iter().find(|w| w.focused);
            if focused.is_some_and(|w| w.id == window.0) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(WindowError::NotForeground {
                    window,
                    why: not_focused_why(focused, window),
                });
            }
            tokio::time::sleep(FOCUS_POLL).await;
        }
    }

    async fn window_action(
        &self,
        window: WindowId,
        action: WindowAction,
    ) -> Result<(), WindowError> {
        let body = match action {
            WindowAction::Activate => return self.activate_window(window).await,
            WindowAction::Minimize => "w.minimize();",
            WindowAction::Maximize => "w.maximize(3);",
            WindowAction::Restore => {
                "if (w.minimized) w.unminimize(); if (w.get_maximized()) w.unmaximize(3);"
            }
            WindowAction::Close => "w.delete(global.get_current_time());",
        };
        match self.with_window(window, body).await? {
            true => Ok(()),
            false => Err(gone(window)),
        }
    }

    async fn window_state(&self, window: WindowId) -> Result<Option<WindowState>, WindowError> {
        let shown = self.shown().await?;
        Ok(shown
            .iter()
            .find(|w| w.id == window.0)
            .map(|w| WindowState {
                minimized: w.minimized,
                maximized: w.maximized,
            }))
    }
}

/// Why the window did not get the focus: mutter focuses a window's modal dialog instead.
fn not_focused_why(focused: Option<&Shown>, window: WindowId) -> String {
    match focused {
        Some(dialog) if dialog.transient_for == Some(window.0) => format!(
            "GNOME gave the focus to its dialog {:?} instead (answer or close the dialog first)",
            dialog.title
        ),
        _ => format!("gnome-shell did not give it the focus within {FOCUS_WAIT:?}"),
    }
}

fn gone(window: WindowId) -> WindowError {
    WindowError::Failed(format!("window {window} is gone"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(id: u64, title: &str, transient_for: Option<u64>) -> Shown {
        Shown {
            id,
            pid: 7,
            title: title.into(),
            x: 0,
            y: 0,
            width: 10,
            height: 10,
            fx: 0,
            fy: 0,
            fwidth: 10,
            fheight: 10,
            wm_class: None,
            transient_for,
            x11: false,
            focused: true,
            minimized: false,
            maximized: false,
            kind: 3,
        }
    }

    /// Mutter focuses a window's modal dialog instead of the window: the refusal names it.
    #[test]
    fn a_modal_dialog_taking_the_focus_is_named() {
        let dialog = shown(2, "Confirm", Some(1));
        let why = not_focused_why(Some(&dialog), WindowId(1));
        assert!(
            why.contains("\"Confirm\"") && why.contains("dialog"),
            "{why}"
        );
        let other = shown(3, "Other", None);
        let why = not_focused_why(Some(&other), WindowId(1));
        assert!(why.contains("did not give it the focus"), "{why}");
    }

    /// Menus, drop-downs, popup menus and combo lists are popups, not client windows.
    #[test]
    fn popups_are_told_from_windows_by_their_type() {
        let kinds: Vec<bool> = [0, 3, 4, 6, 9, 10, 13]
            .iter()
            .map(|&kind| {
                Shown {
                    kind,
                    ..shown(1, "", None)
                }
                .is_popup()
            })
            .collect();
        assert_eq!(kinds, [false, false, false, true, true, true, true]);
    }
}
