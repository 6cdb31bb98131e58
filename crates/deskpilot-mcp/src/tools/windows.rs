//! The window tool (capability `input`): requests to the window manager.

use rmcp::handler::server::common::Extension;
use rmcp::{tool, tool_router};

use crate::call::Call;

use super::{ToolResult, reported, respond};
use crate::DeskpilotServer;
use crate::args::{Args, WindowActionArgs};
use crate::output::ActionOut;
use crate::schema::{input_schema, output_schema};

#[tool_router(router = windows_router, vis = "pub(crate)")]
impl DeskpilotServer {
    #[tool(
        description = "Activate, minimize, maximize, restore or close the session's window; confirmed by its state.",
        annotations(read_only_hint = false, destructive_hint = true, open_world_hint = true),
        input_schema = input_schema::<WindowActionArgs>(),
        output_schema = output_schema::<ActionOut>()
    )]
    async fn window_action(
        &self,
        Args(a): Args<WindowActionArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            let report = call
                .session(self.engine(), &a.session)?
                .window_action(a.action.0)
                .await?;
            Ok(reported(report))
        })
        .await
    }
}
