//! The window system beside the accessibility tree: top-level windows as the display server
//! knows them (X11 today). Backends use it where the tree alone is not enough: GTK 4.8 reports
//! window-relative extents, and only the display server knows where the window is.

use crate::model::Rect;

/// One top-level client window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientWindow {
    /// The window system's id (X11 window id).
    pub xid: u32,
    pub pid: Option<u32>,
    pub title: String,
    /// The client area in screen coordinates.
    pub bounds: Rect,
}

/// A display server's list of top-level windows. Every call is bounded in time.
pub trait WindowSystem: Send + Sync {
    fn client_windows(&self) -> Result<Vec<ClientWindow>, String>;
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
        [] => None,
        many => size.and_then(|(w, h)| {
            many.iter()
                .find(|c| c.bounds.width == w && c.bounds.height == h)
                .copied()
        }),
    }
}
