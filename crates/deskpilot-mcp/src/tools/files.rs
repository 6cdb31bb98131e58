//! The screenshot tool: always listed (an image inline is reading); writing it to a path
//! needs the capability `files`, and then only under the server's files directory.

use deskpilot_core::capture::{Region, ShotRequest};
use deskpilot_core::{Code, Error, present};

use super::success;
use crate::args::{self, ScreenshotArgs};
use crate::call::Cx;
use crate::outcome::{ToolOutcome, invalid_arguments};
use crate::output::{Bounds, ScreenshotOut};

pub(crate) async fn screenshot(cx: &Cx<'_>, a: ScreenshotArgs) -> Result<ToolOutcome, Error> {
    // Where to write is settled before anything is captured.
    let file = a
        .path
        .as_deref()
        .map(|p| cx.grants.file_path(p))
        .transpose()?;
    if a.screen == Some(true) {
        cx.grants
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
    let shot = cx.session(&a.session)?.screenshot(&request).await?;
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
            cx.grants.write_file(&file, &shot.png).map_err(|e| {
                Error::new(
                    Code::InvalidArguments,
                    format!("cannot write {path}: {e}"),
                    "give a writable path, or no path to get the image inline",
                )
            })?;
            Ok(success(format!("{text}; written to {path}"), out))
        }
        _ => {
            let mut outcome = success(text, out);
            outcome.image = Some(shot.png);
            Ok(outcome)
        }
    }
}
