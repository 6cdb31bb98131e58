//! The screenshot tool: always listed (an image inline is reading); writing it to a path
//! needs the capability `files`, and then only under the server's files directory.

use base64::Engine as _;
use deskpilot_core::capture::{Region, ShotRequest};
use deskpilot_core::{Code, Error, present};
use rmcp::handler::server::common::Extension;
use rmcp::model::ContentBlock;
use rmcp::{tool, tool_router};

use crate::call::Call;

use super::{ToolResult, respond};
use crate::DeskpilotServer;
use crate::args::{self, Args, ScreenshotArgs};
use crate::outcome::{invalid_arguments, success};
use crate::output::{Bounds, ScreenshotOut};
use crate::schema::{input_schema, output_schema};

#[tool_router(router = files_router, vis = "pub(crate)")]
impl DeskpilotServer {
    #[tool(
        description = "A PNG of the session's window with the latest snapshot's refs labelled, for what the tree cannot show.",
        annotations(read_only_hint = true, open_world_hint = true),
        input_schema = input_schema::<ScreenshotArgs>(),
        output_schema = output_schema::<ScreenshotOut>()
    )]
    async fn screenshot(
        &self,
        Args(a): Args<ScreenshotArgs>,
        Extension(call): Extension<Call>,
    ) -> ToolResult {
        respond(async {
            let a = a?;
            // Where to write is settled before anything is captured.
            let file = a
                .path
                .as_deref()
                .map(|p| self.grants().file_path(p))
                .transpose()?;
            if a.screen == Some(true) {
                self.grants()
                    .require_any_app("a screenshot of the whole screen")?;
            }
            let region = match (&a.target, a.screen.unwrap_or(false)) {
                (Some(_), true) => {
                    return Err(invalid_arguments("give target or screen, not both"));
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
            let shot = call
                .session(self.engine(), &a.session)?
                .screenshot(&request)
                .await?;
            let text = present::shot(&shot);
            let out = ScreenshotOut {
                width: shot.width,
                height: shot.height,
                region: Bounds::from(shot.region),
                scale: shot.scale,
                labels: shot.labels,
                cover: shot.cover.map(|c| c.name().to_owned()),
                path: a.path.clone(),
            };
            match (file, &a.path) {
                (Some(file), Some(path)) => {
                    self.grants().write_file(&file, &shot.png).map_err(|e| {
                        Error::new(
                            Code::InvalidArguments,
                            format!("cannot write {path}: {e}"),
                            "give a writable path, or no path to get the image inline",
                        )
                    })?;
                    Ok(success(format!("{text}; written to {path}"), out))
                }
                _ => {
                    let mut result = success(text, out);
                    let data = base64::engine::general_purpose::STANDARD.encode(&shot.png);
                    result.content.push(ContentBlock::image(data, "image/png"));
                    Ok(result)
                }
            }
        })
        .await
    }
}
