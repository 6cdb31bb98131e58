//! The `screenshot` tool: always listed; writing to a path needs `--allow-input`.

use base64::Engine as _;
use deskpilot_core::Error;
use deskpilot_core::capture::{Region, ShotRequest};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use rmcp::{tool, tool_router};

use crate::args::{self, ScreenshotArgs};
use crate::outcome::{input_schema, output_schema, success};
use crate::output::{Bounds, ScreenshotOut};
use crate::server::{DeskpilotServer, ToolResult, respond};

#[tool_router(router = shot_router, vis = "pub(crate)")]
impl DeskpilotServer {
    #[tool(
        description = "PNG of the session's window (or `target`, or the screen), the latest snapshot's refs boxed and labelled unless plain. For what the tree cannot show.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ScreenshotArgs>(),
        output_schema = output_schema::<ScreenshotOut>()
    )]
    async fn screenshot(&self, Parameters(raw): Parameters<JsonObject>) -> ToolResult {
        respond(self.screenshot_impl(raw).await)
    }
}

impl DeskpilotServer {
    async fn screenshot_impl(&self, raw: JsonObject) -> Result<CallToolResult, Error> {
        let a: ScreenshotArgs = args::parse(Some(raw))?;
        if a.path.is_some() && !self.allows_input() {
            return Err(crate::act_tools::input_not_allowed(
                "screenshot with a path (it writes a file)",
            ));
        }
        let region = match (&a.target, a.screen.unwrap_or(false)) {
            (Some(_), true) => {
                return Err(crate::outcome::invalid_arguments(
                    "give target or screen, not both",
                ));
            }
            (Some(target), false) => Region::Element(args::target(target)?),
            (None, true) => Region::Screen,
            (None, false) => Region::Window,
        };
        let request = ShotRequest {
            region,
            annotate: !a.plain.unwrap_or(false),
            max_side: a.max_size.unwrap_or(1280).clamp(16, 4096),
        };
        let shot = self.engine().screenshot(&a.session, &request).await?;
        let text = format!(
            "{}x{} PNG of ({}, {}) {}x{}{}, {} refs labelled",
            shot.width,
            shot.height,
            shot.region.x,
            shot.region.y,
            shot.region.width,
            shot.region.height,
            if shot.scale < 1.0 {
                format!(" scaled by {:.2}", shot.scale)
            } else {
                String::new()
            },
            shot.labels
        );
        let out = ScreenshotOut {
            width: shot.width,
            height: shot.height,
            region: Bounds::from(shot.region),
            scale: shot.scale,
            labels: shot.labels,
            path: a.path.clone(),
        };
        match &a.path {
            Some(path) => {
                std::fs::write(path, &shot.png).map_err(|e| {
                    Error::new(
                        deskpilot_core::Code::InvalidArguments,
                        format!("cannot write {path}: {e}"),
                        "give a writable path, or no path to get the image inline",
                    )
                })?;
                Ok(success(format!("{text}; written to {path}"), out))
            }
            None => {
                let mut result = success(text, out);
                let data = base64::engine::general_purpose::STANDARD.encode(&shot.png);
                result.content.push(ContentBlock::image(data, "image/png"));
                Ok(result)
            }
        }
    }
}
