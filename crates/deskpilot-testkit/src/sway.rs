//! sway's own view of its windows (`swaymsg -t get_tree`): an oracle for the Wayland tests
//! that is not deskpilot.

use serde_json::Value;

use crate::VirtualDesktop;

/// A window as sway's tree has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwayWindow {
    pub title: String,
    pub focused: bool,
    /// Its content: the container's rectangle moved by the window's within it (x, y, w, h).
    pub content: (i32, i32, i32, i32),
}

impl VirtualDesktop {
    /// Every window in this desktop's sway tree (none off sway).
    pub fn sway_windows(&self) -> Vec<SwayWindow> {
        let out = self.command("swaymsg").args(["-t", "get_tree"]).output();
        let tree: Value = out
            .ok()
            .and_then(|o| serde_json::from_slice(&o.stdout).ok())
            .unwrap_or_default();
        let mut found = Vec::new();
        walk(&tree, &mut found);
        found
    }

    /// The window titled `title`, as sway has it.
    pub fn sway_window(&self, title: &str) -> Option<SwayWindow> {
        self.sway_windows().into_iter().find(|w| w.title == title)
    }

    /// The title of the window sway has focused.
    pub fn sway_focused(&self) -> Option<String> {
        self.sway_windows()
            .into_iter()
            .find(|w| w.focused)
            .map(|w| w.title)
    }
}

fn walk(node: &Value, found: &mut Vec<SwayWindow>) {
    if node["pid"].is_number() {
        let n = |r: &Value, k: &str| r[k].as_i64().unwrap_or_default() as i32;
        let (outer, inner) = (&node["rect"], &node["window_rect"]);
        found.push(SwayWindow {
            title: node["name"].as_str().unwrap_or_default().to_owned(),
            focused: node["focused"] == true,
            content: (
                n(outer, "x") + n(inner, "x"),
                n(outer, "y") + n(inner, "y"),
                n(inner, "width"),
                n(inner, "height"),
            ),
        });
    }
    for key in ["nodes", "floating_nodes"] {
        for child in node[key].as_array().into_iter().flatten() {
            walk(child, found);
        }
    }
}
