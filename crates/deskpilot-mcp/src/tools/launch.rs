//! The launch tool (capability `launch`): start a program and wait until it registers.

use deskpilot_core::{Error, present};

use super::success;
use crate::args::LaunchAppArgs;
use crate::call::Cx;
use crate::outcome::ToolOutcome;
use crate::output::LaunchOut;

pub(crate) async fn launch_app(cx: &Cx<'_>, a: LaunchAppArgs) -> Result<ToolOutcome, Error> {
    let timeout = std::time::Duration::from_millis(a.timeout_ms.unwrap_or(30_000).min(120_000));
    let launched = cx.engine.launch_app(&a.argv, timeout).await?;
    let text = present::launched(&a.argv[0], &launched);
    let app = launched.app;
    let pid = app.pid;
    let out = LaunchOut {
        spawned_pid: launched.spawned_pid,
        pid: app.pid,
        name: app.name,
        windows: app.windows.into_iter().map(|w| w.title).collect(),
    };
    let mut outcome = success(text, out);
    outcome.started = pid;
    Ok(outcome)
}
