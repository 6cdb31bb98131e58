//! The app list as faces show it: every app on the accessibility bus with whether deskpilot
//! can see into it ("blind": a nearly empty tree, or a web runtime that shows its own controls
//! but no page), and the windows on the display whose process is not on the bus at all; each
//! blind one with the platform's hint on how to switch its accessibility on.

use serde::Serialize;

use crate::app::WindowId;
use crate::model::{Rect, Role};

/// One app as listed.
#[derive(Debug, Clone, Serialize)]
pub struct ListedApp {
    pub name: String,
    pub pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toolkit: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toolkit_version: Option<String>,
    pub windows: Vec<ListedWindow>,
    /// False when the app did not answer in time.
    pub responding: bool,
    /// deskpilot cannot see into it (see `hint`).
    pub blind: bool,
    /// How to switch its accessibility on, when it is blind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// One top-level window of a listed app.
#[derive(Debug, Clone, Serialize)]
pub struct ListedWindow {
    pub title: String,
    pub role: Role,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Rect>,
    pub active: bool,
    pub minimized: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_id: Option<WindowId>,
}
