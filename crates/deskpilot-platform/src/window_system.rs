//! The window system beside the accessibility tree: top-level windows as the display server
//! and its window manager know them, and what they are asked to do with them. The engine
//! raises windows and reads which one is active through it; backends use its list where the
//! tree alone is not enough (GTK 4.8 reports window-relative extents, and only the display
//! server knows where the window is).

use async_trait::async_trait;

use crate::app::{AppInfo, WindowId};
use crate::model::Rect;
use crate::vocabulary::{WindowAction, WindowState};

/// One top-level client window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientWindow {
    /// The window system's id.
    pub id: WindowId,
    pub pid: Option<u32>,
    pub title: String,
    /// The client area in screen coordinates.
    pub bounds: Rect,
    /// The name of the window's process, where the system can tell.
    pub process: Option<String>,
    /// The window this one is transient for (a dialog's owner).
    pub transient_for: Option<WindowId>,
    /// Whether its app knows where the window is: false for a native Wayland window, whose
    /// accessibility tree gives bounds relative to the window.
    pub knows_position: bool,
    /// The window without the shadows its client draws around it (Wayland's window
    /// geometry), where the system tells it apart from `bounds` (the whole surface). Toolkits
    /// count window-relative bounds from one or the other (GTK 3 from the surface, GTK 4
    /// from its geometry): the app's own window size says which.
    pub frame: Option<Rect>,
}

impl ClientWindow {
    /// Where window-relative bounds of a window of `size` (as its app reports it) count from.
    pub fn origin_for(&self, size: Option<(i32, i32)>) -> (i32, i32) {
        match (self.frame, size) {
            (Some(f), Some(size)) if (f.width, f.height) == size => (f.x, f.y),
            _ => (self.bounds.x, self.bounds.y),
        }
    }

    /// Whether the window is `size` big, surface or frame.
    pub fn has_size(&self, (width, height): (i32, i32)) -> bool {
        let sizes = [Some(self.bounds), self.frame];
        sizes
            .iter()
            .flatten()
            .any(|r| r.width == width && r.height == height)
    }
}

/// An open popup surface (a menu) as the window system places it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Popup {
    pub pid: Option<u32>,
    /// The whole surface, in screen coordinates.
    pub bounds: Rect,
}

/// Why the window system could not answer, or do what it was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WindowError {
    /// No window system to ask (no display).
    #[error("no window system: {0}")]
    Unavailable(String),
    /// The window could not be brought to the front.
    #[error("window {window} could not be brought to the front: {why}")]
    NotForeground { window: WindowId, why: String },
    /// The window belongs to an app with more rights than deskpilot.
    #[error("window {window} denies it: {why}")]
    Denied { window: WindowId, why: String },
    /// The window system has no such request or state (a tiling compositor has no
    /// minimized windows).
    #[error("{0}")]
    Unsupported(String),
    /// The window system failed (or did not answer in time).
    #[error("window system: {0}")]
    Failed(String),
}

/// The display's top-level windows and their manager. Every call is bounded in time.
#[async_trait]
pub trait WindowSystem: Send + Sync {
    /// The top-level client windows.
    async fn client_windows(&self) -> Result<Vec<ClientWindow>, WindowError>;

    /// The window that has the keyboard now, if any.
    async fn active_window(&self) -> Result<Option<WindowId>, WindowError>;

    /// Brings a top-level window to the front and waits until it is active.
    async fn activate_window(&self, window: WindowId) -> Result<(), WindowError>;

    /// Asks the window manager to do `action` with a top-level window (does not wait).
    async fn window_action(
        &self,
        window: WindowId,
        action: WindowAction,
    ) -> Result<(), WindowError>;

    /// A top-level window's state; `None` when the window is gone.
    async fn window_state(&self, window: WindowId) -> Result<Option<WindowState>, WindowError>;

    /// The top-level client windows and the open popup surfaces, from one listing, where
    /// the system places popups apart from their windows and tells where (GNOME); elsewhere
    /// the windows and no popup.
    async fn windows_and_popups(&self) -> Result<(Vec<ClientWindow>, Vec<Popup>), WindowError> {
        Ok((self.client_windows().await?, Vec::new()))
    }
}

/// The client window of a process with this title (exact), if exactly one matches; with
/// several, the one whose size matches `size` when given.
pub fn window_for<'a>(
    windows: &'a [ClientWindow],
    pid: Option<u32>,
    title: &str,
    size: Option<(i32, i32)>,
) -> Option<&'a ClientWindow> {
    let candidates: Vec<&ClientWindow> = windows
        .iter()
        .filter(|w| w.title == title && (pid.is_none() || w.pid.is_none() || w.pid == pid))
        .collect();
    match candidates.as_slice() {
        [one] => Some(one),
        // An untitled window (Qt 5's dialogs on Wayland; the compositor shows "KDialog") is
        // the app's one window, when it has one.
        [] if title.is_empty() && pid.is_some() => {
            let mut own = windows.iter().filter(|w| w.pid == pid);
            match (own.next(), own.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        }
        [] => None,
        many => size.and_then(|size| many.iter().find(|c| c.has_size(size)).copied()),
    }
}

/// The one client window of process `pid` that lies within `frame` (a window's bounds with
/// its decorations, as toolkits report them), for windows named otherwise on the display
/// than on the accessibility bus (GTK 3's message dialogs: "Question" there, "Save Changes"
/// in the title bar).
pub fn window_within(windows: &[ClientWindow], pid: u32, frame: Rect) -> Option<&ClientWindow> {
    let inside: Vec<&ClientWindow> = windows
        .iter()
        .filter(|w| {
            let b = w.bounds;
            w.pid == Some(pid)
                && !b.is_empty()
                && b.x >= frame.x
                && b.y >= frame.y
                && b.x + b.width <= frame.x + frame.width
                && b.y + b.height <= frame.y + frame.height
        })
        .collect();
    match inside.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// Windows on the display whose process has no app on the accessibility bus: deskpilot sees
/// them only from outside (an app started without its accessibility switched on). A window
/// without a pid is left out: whose it is cannot be told.
pub fn off_the_bus(apps: &[AppInfo], windows: &[ClientWindow]) -> Vec<ClientWindow> {
    let pids: std::collections::HashSet<u32> = apps.iter().filter_map(|a| a.pid).collect();
    let known: std::collections::HashSet<WindowId> = apps
        .iter()
        .flat_map(|a| a.windows.iter().filter_map(|w| w.system_id))
        .collect();
    windows
        .iter()
        .filter(|w| w.pid.is_some_and(|p| !pids.contains(&p)) && !known.contains(&w.id))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ElementId;

    fn window(id: u64, pid: Option<u32>, title: &str) -> ClientWindow {
        ClientWindow {
            id: WindowId(id),
            pid,
            title: title.into(),
            bounds: Rect::new(0, 0, 100, 100),
            process: None,
            transient_for: None,
            knows_position: true,
            frame: None,
        }
    }

    /// GTK 3 counts from the surface, GTK 4 from the frame inside its shadows: the app's own
    /// window size picks the origin, and finds the window among namesakes.
    #[test]
    fn window_relative_bounds_count_from_the_surface_or_the_frame_the_size_names() {
        let mut shadowed = window(1, Some(7), "Fixture");
        shadowed.bounds = Rect::new(25, 22, 1172, 753);
        shadowed.frame = Some(Rect::new(39, 33, 1144, 724));
        assert_eq!(shadowed.origin_for(Some((1144, 724))), (39, 33));
        assert_eq!(shadowed.origin_for(Some((1172, 753))), (25, 22));
        assert_eq!(shadowed.origin_for(None), (25, 22));
        let other = window(2, Some(7), "Fixture");
        let windows = vec![other, shadowed];
        let found = window_for(&windows, Some(7), "Fixture", Some((1144, 724)));
        assert_eq!(found.map(|w| w.id), Some(WindowId(1)));
    }

    #[test]
    fn a_window_titled_otherwise_is_found_by_its_process_and_frame() {
        let mut editor = window(1, Some(7), "Editor");
        editor.bounds = Rect::new(0, 295, 642, 505);
        let mut dialog = window(2, Some(7), "Save Changes");
        dialog.bounds = Rect::new(65, 519, 514, 112);
        let windows = vec![editor, dialog];
        let frame = Rect::new(64, 499, 516, 133);
        assert_eq!(
            window_for(&windows, Some(7), "Question", Some((516, 133))),
            None
        );
        assert_eq!(
            window_within(&windows, 7, frame).map(|w| w.id),
            Some(WindowId(2))
        );
        assert_eq!(window_within(&windows, 8, frame), None);
    }

    #[test]
    fn an_untitled_window_is_its_apps_one_window_and_no_guess_among_several() {
        let windows = vec![
            window(1, Some(7), "KDialog"),
            window(2, Some(8), "A"),
            window(3, Some(8), "B"),
        ];
        assert_eq!(
            window_for(&windows, Some(7), "", None).map(|w| w.id),
            Some(WindowId(1))
        );
        assert_eq!(
            window_for(&windows, Some(8), "", None),
            None,
            "two windows: no guess"
        );
        assert_eq!(
            window_for(&windows, Some(7), "Other", None),
            None,
            "titled: no guess"
        );
        assert_eq!(window_for(&windows, None, "", None), None);
    }

    #[test]
    fn windows_of_processes_without_an_app_are_off_the_bus() {
        let app = AppInfo {
            id: ElementId::new(":1.5", "/root"),
            name: "Editor".into(),
            pid: Some(10),
            toolkit: None,
            toolkit_version: None,
            windows: Vec::new(),
            responding: true,
        };
        let windows = [
            window(1, Some(10), "Editor"),
            window(2, Some(20), "Browser"),
            window(3, None, "Unknown owner"),
        ];
        let off: Vec<WindowId> = off_the_bus(&[app], &windows).iter().map(|w| w.id).collect();
        assert_eq!(off, vec![WindowId(2)]);
    }
}
