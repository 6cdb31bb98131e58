//! sway's windows through its IPC: the views of `get_tree` with their pid, title and content
//! rectangle in layout coordinates, the focused one, and focus and close by container id.
//! Native Wayland apps cannot know where their windows are (their accessibility trees give
//! bounds relative to the window); XWayland apps can.

use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{
    ClientWindow, WindowAction, WindowError, WindowId, WindowState, WindowSystem,
};
use serde_json::Value;

use crate::sway_ipc::{GET_TREE, SwayIpc};

/// Longest any one call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(3);
/// How often activation looks for the focus to have moved.
const FOCUS_POLL: Duration = Duration::from_millis(10);

/// sway's view of a window, as `get_tree` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct View {
    pub(crate) window: ClientWindow,
    pub(crate) focused: bool,
    pub(crate) fullscreen: bool,
    pub(crate) hidden: bool,
}

/// The windows of one sway instance.
#[derive(Debug, Clone)]
pub struct SwayWindows {
    ipc: SwayIpc,
}

impl SwayWindows {
    pub fn new(socket: impl Into<std::path::PathBuf>) -> Self {
        SwayWindows {
            ipc: SwayIpc::new(socket, CALL_TIMEOUT),
        }
    }

    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&SwayIpc) -> Result<T, String> + Send + 'static,
    ) -> Result<T, WindowError> {
        let ipc = self.ipc.clone();
        let task = tokio::task::spawn_blocking(move || f(&ipc));
        match tokio::time::timeout(CALL_TIMEOUT * 2, task).await {
            Ok(Ok(result)) => result.map_err(WindowError::Failed),
            Ok(Err(e)) => Err(WindowError::Failed(e.to_string())),
            Err(_) => Err(WindowError::Failed("sway did not answer in time".into())),
        }
    }

    async fn views(&self) -> Result<Vec<View>, WindowError> {
        self.blocking(|ipc| ipc.request(GET_TREE, "").map(|tree| views(&tree)))
            .await
    }
}

/// Every view under `tree`; those in the scratchpad are hidden.
pub(crate) fn views(tree: &Value) -> Vec<View> {
    let mut out = Vec::new();
    collect(tree, false, &mut out);
    out
}

fn collect(node: &Value, hidden: bool, out: &mut Vec<View>) {
    let hidden = hidden || node["name"] == "__i3_scratch";
    if let Some(view) = view(node, hidden) {
        out.push(view);
    }
    for key in ["nodes", "floating_nodes"] {
        for child in node[key].as_array().into_iter().flatten() {
            collect(child, hidden, out);
        }
    }
}

fn view(node: &Value, hidden: bool) -> Option<View> {
    let pid = node["pid"].as_u64()?;
    let id = node["id"].as_u64()?;
    let outer = rect(&node["rect"])?;
    let content = rect(&node["window_rect"])?;
    let xwayland = node["shell"] == "xwayland";
    let window = ClientWindow {
        id: WindowId(id),
        pid: u32::try_from(pid).ok(),
        title: node["name"].as_str().unwrap_or_default().to_owned(),
        bounds: content.offset(outer.x, outer.y),
        process: node["app_id"].as_str().map(str::to_owned),
        transient_for: None,
        knows_position: xwayland,
        frame: None,
    };
    Some(View {
        window,
        focused: node["focused"] == true,
        fullscreen: node["fullscreen_mode"].as_u64().is_some_and(|m| m > 0),
        hidden,
    })
}

fn rect(value: &Value) -> Option<Rect> {
    let n = |k: &str| value[k].as_i64().and_then(|v| i32::try_from(v).ok());
    Some(Rect::new(n("x")?, n("y")?, n("width")?, n("height")?))
}

#[async_trait]
impl WindowSystem for SwayWindows {
    async fn client_windows(&self) -> Result<Vec<ClientWindow>, WindowError> {
        let views = self.views().await?;
        Ok(views
            .into_iter()
            .filter(|v| !v.hidden)
            .map(|v| v.window)
            .collect())
    }

    async fn active_window(&self) -> Result<Option<WindowId>, WindowError> {
        let views = self.views().await?;
        Ok(views.into_iter().find(|v| v.focused).map(|v| v.window.id))
    }

    /// Focuses the container, then reads the tree until sway reports it focused.
    async fn activate_window(&self, window: WindowId) -> Result<(), WindowError> {
        let command = format!("[con_id={}] focus", window.0);
        self.blocking(move |ipc| ipc.command(&command))
            .await
            .map_err(|e| not_foreground(window, e.to_string()))?;
        let deadline = Instant::now() + CALL_TIMEOUT;
        loop {
            if self.active_window().await? == Some(window) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(not_foreground(window, "sway did not focus it".into()));
            }
            tokio::time::sleep(FOCUS_POLL).await;
        }
    }

    /// sway tiles: it has no minimized or maximized state, so those are refused, never
    /// approximated (a fullscreen window is not a maximized one).
    async fn window_action(
        &self,
        window: WindowId,
        action: WindowAction,
    ) -> Result<(), WindowError> {
        let command = match action {
            WindowAction::Activate => format!("[con_id={}] focus", window.0),
            WindowAction::Close => format!("[con_id={}] kill", window.0),
            WindowAction::Minimize | WindowAction::Maximize | WindowAction::Restore => {
                return Err(WindowError::Unsupported(format!(
                    "sway has no {action:?}: it tiles windows, with no minimized or maximized state"
                )));
            }
        };
        self.blocking(move |ipc| ipc.command(&command)).await
    }

    async fn window_state(&self, window: WindowId) -> Result<Option<WindowState>, WindowError> {
        let views = self.views().await?;
        Ok(views
            .into_iter()
            .find(|v| v.window.id == window)
            .map(|v| WindowState {
                minimized: v.hidden,
                maximized: v.fullscreen,
            }))
    }
}

fn not_foreground(window: WindowId, why: String) -> WindowError {
    WindowError::NotForeground { window, why }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree as sway 1.7 printed it here for the GTK 3 fixture, native on Wayland.
    const TREE: &str = r#"{"id":1,"name":"root","rect":{"x":0,"y":0,"width":1280,"height":800},
      "nodes":[{"id":2147483647,"name":"__i3","nodes":[{"id":2147483646,"name":"__i3_scratch",
        "nodes":[],"floating_nodes":[{"id":9,"name":"hidden","pid":7,"shell":"xdg_shell",
        "rect":{"x":0,"y":0,"width":10,"height":10},"window_rect":{"x":0,"y":0,"width":10,"height":10}}]}]},
      {"id":3,"name":"HEADLESS-1","nodes":[{"id":4,"name":"1","nodes":[{"id":5,
        "name":"deskpilot GTK3 fixture","pid":3318,"app_id":"deskpilot-gtk3-fixture",
        "shell":"xdg_shell","focused":true,"fullscreen_mode":0,
        "rect":{"x":0,"y":25,"width":1280,"height":775},
        "window_rect":{"x":2,"y":0,"width":1276,"height":773},"nodes":[],"floating_nodes":[]}],
        "floating_nodes":[]}]}]}"#;

    #[test]
    fn a_view_is_placed_at_its_content_and_knows_no_position_of_its_own() {
        let tree: Value = serde_json::from_str(TREE).unwrap();
        let views = views(&tree);
        assert_eq!(views.len(), 2);
        let fixture = views.iter().find(|v| v.window.id == WindowId(5)).unwrap();
        assert_eq!(fixture.window.bounds, Rect::new(2, 25, 1276, 773));
        assert_eq!(fixture.window.pid, Some(3318));
        assert!(fixture.focused && !fixture.hidden && !fixture.window.knows_position);
        assert!(views.iter().any(|v| v.window.id == WindowId(9) && v.hidden));
    }
}
