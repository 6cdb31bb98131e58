//! `Engine::launch_app`: start a program (an argv, no shell) on the desktop and wait until it,
//! or a process it started, registers on the accessibility bus.

use serde::Serialize;

use crate::app::AppInfo;

/// A launched app.
#[derive(Debug, Clone, Serialize)]
pub struct Launched {
    /// The process started.
    pub spawned_pid: u32,
    /// The app as registered (its pid may be a child's).
    pub app: AppInfo,
}
