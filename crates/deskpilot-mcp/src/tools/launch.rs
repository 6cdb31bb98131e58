//! The launch tool (capability `launch`): start a program and wait until it registers.

use deskpilot_core::present;
use rmcp::{tool, tool_router};

use super::{ToolResult, respond};
use crate::DeskpilotServer;
use crate::args::{Args, LaunchAppArgs};
use crate::outcome::success;
use crate::output::LaunchOut;
use crate::schema::{input_schema, output_schema};

#[tool_router(router = launch_router, vis = "pub(crate)")]
impl DeskpilotServer {
    #[tool(
        description = "Start a program and wait until it (or a child) registers with a window; returns its pid and windows for connect.",
        annotations(read_only_hint = false, destructive_hint = false, open_world_hint = true),
        input_schema = input_schema::<LaunchAppArgs>(),
        output_schema = output_schema::<LaunchOut>()
    )]
    async fn launch_app(&self, Args(a): Args<LaunchAppArgs>) -> ToolResult {
        respond(async {
            let a = a?;
            let timeout =
                std::time::Duration::from_millis(a.timeout_ms.unwrap_or(30_000).min(120_000));
            let launched = self.engine().launch_app(&a.argv, timeout).await?;
            let text = present::launched(&a.argv[0], &launched);
            let app = launched.app;
            let out = LaunchOut {
                spawned_pid: launched.spawned_pid,
                pid: app.pid,
                name: app.name,
                windows: app.windows.into_iter().map(|w| w.title).collect(),
            };
            Ok(success(text, out))
        })
        .await
    }
}
