//! `Engine::screenshot`: a window, the screen, or one element, bounded in size and labelled
//! with the refs of the session's latest snapshot.

use crate::app::WindowId;
use crate::capture::shot::*;
use crate::capture::{Image, Label};
use crate::engine::Engine;
use crate::engine::session_window;
use crate::error::{Code, Error, Result};
use crate::model::Rect;
use crate::platform::Secrecy;
use crate::session::format_ref;

/// The session window's screen bounds, and its window system id when known.
async fn window_rect(engine: &Engine, session: &str) -> Result<(Rect, Option<WindowId>)> {
    session_window(engine, session)
        .await?
        .and_then(|w| Some((w.bounds?, w.system_id)))
        .filter(|(b, _)| !b.is_empty())
        .ok_or_else(|| {
            Error::new(
                Code::Offscreen,
                "the session's window has no bounds on screen (minimized or closed?)",
                "restore the window (`window_action` restore), or capture the screen",
            )
        })
}

impl crate::engine::Session<'_> {
    /// Captures `request.region` of the session's desktop.
    pub async fn screenshot(&self, request: &ShotRequest) -> Result<Shot> {
        let session = self.id();
        let capture = self.engine.wiring().capture_device()?;
        let (rect, window) = match &request.region {
            Region::Screen => (capture.screen_bounds().await.map_err(capture_error)?, None),
            Region::Window => {
                let (rect, id) = window_rect(self.engine, session).await?;
                (rect, id)
            }
            Region::Element(target) => {
                let resolved = self.resolve(target).await?;
                let live = self
                    .engine
                    .backend()
                    .node(&resolved.node.id, Secrecy::of(resolved.secret))
                    .await?;
                let rect = live.bounds.filter(|b| !b.is_empty()).ok_or_else(|| {
                    Error::new(
                        Code::Offscreen,
                        format!("{} has no bounds on screen", resolved.reference),
                        "scroll it into view, or capture the window",
                    )
                })?;
                (rect, None)
            }
        };
        // What is off the screen is not captured: the region says what the image shows.
        let screen = capture.screen_bounds().await.map_err(capture_error)?;
        let rect = rect.intersection(&screen).ok_or_else(|| {
            Error::new(
                Code::Offscreen,
                format!("{rect:?} is off the screen {screen:?}"),
                "move the window onto the screen, or capture the screen",
            )
        })?;
        let (mut image, cover): (Image, _) = match window {
            Some(id) => {
                let shot = capture
                    .capture_window(id, rect)
                    .await
                    .map_err(capture_error)?;
                (shot.image, shot.cover)
            }
            None => (capture.capture(rect).await.map_err(capture_error)?, None),
        };
        let scale = image.fit(request.max_side);
        let labels: Vec<Label> = if request.annotate {
            self.engine
                .sessions()
                .placed_refs(session)?
                .into_iter()
                .filter(|(_, b)| overlaps(b, &rect))
                .map(|(r, b)| Label {
                    rect: Rect::new(
                        ((b.x - rect.x) as f64 * scale).round() as i32,
                        ((b.y - rect.y) as f64 * scale).round() as i32,
                        ((b.width as f64) * scale).round().max(1.0) as i32,
                        ((b.height as f64) * scale).round().max(1.0) as i32,
                    ),
                    text: format_ref(r),
                })
                .collect()
        } else {
            Vec::new()
        };
        let drawn = image.annotate(&labels);
        Ok(Shot {
            png: image.to_png(),
            width: image.width,
            height: image.height,
            region: rect,
            scale,
            labels: drawn,
            cover,
        })
    }
}
