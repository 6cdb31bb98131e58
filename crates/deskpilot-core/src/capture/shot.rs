//! `Engine::screenshot`: a window, the screen, or one element, bounded in size and labelled
//! with the refs of the session's latest snapshot.

use serde::Serialize;

use super::{Image, Label};
use crate::app::WindowId;
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::model::Rect;
use crate::platform::{Cover, Secrecy};
use crate::read::Target;
use crate::session::format_ref;

/// What to capture.
#[derive(Debug, Clone)]
pub enum Region {
    /// The session's window.
    Window,
    /// The whole screen.
    Screen,
    /// One element's bounds.
    Element(Target),
}

/// A screenshot request.
#[derive(Debug, Clone)]
pub struct ShotRequest {
    pub region: Region,
    /// Draw the refs of the session's latest snapshot.
    pub annotate: bool,
    /// Neither side of the image exceeds this (scaled down when larger).
    pub max_side: u32,
}

/// A screenshot.
#[derive(Debug, Clone, Serialize)]
pub struct Shot {
    #[serde(skip)]
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// The screen rectangle captured.
    pub region: Rect,
    /// Image pixels per screen pixel (below 1 when scaled down).
    pub scale: f64,
    /// How many refs were drawn.
    pub labels: usize,
    /// For a window: whether another window covered it (absent when the platform cannot
    /// tell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cover: Option<Cover>,
}

impl Engine {
    /// The session window's screen bounds, and its window system id when known.
    async fn window_rect(&self, session: &str) -> Result<(Rect, Option<WindowId>)> {
        self.session_window(session)
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
}

impl crate::engine::Session<'_> {
    /// Captures `request.region` of the session's desktop.
    pub async fn screenshot(&self, request: &ShotRequest) -> Result<Shot> {
        let session = self.id();
        let capture = self.engine.wiring().capture_device()?;
        let (rect, window) = match &request.region {
            Region::Screen => (capture.screen_bounds().await.map_err(capture_error)?, None),
            Region::Window => {
                let (rect, id) = self.engine.window_rect(session).await?;
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

fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

fn capture_error(error: crate::platform::CaptureError) -> Error {
    match error {
        crate::platform::CaptureError::Unavailable(why) => Error::input_unavailable(why),
        other => Error::new(
            Code::Backend,
            other.to_string(),
            "the display server failed; retry",
        ),
    }
}
