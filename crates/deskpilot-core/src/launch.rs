//! What `Engine::launch_app` (`engine/launch.rs`) answers: the program started and the app it
//! registered on the accessibility bus.

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
