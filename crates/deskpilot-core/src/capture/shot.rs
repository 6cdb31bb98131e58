//! `Engine::screenshot`: a window, the screen, or one element, bounded in size and labelled
//! with the refs of the session's latest snapshot.

use serde::Serialize;

use super::{Image, Label};
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::model::Rect;
use crate::platform::Secrecy;
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
}

impl Engine {
    /// Captures `request.region` of the session's desktop.
    pub async fn screenshot(&self, session: &str, request: &ShotRequest) -> Result<Shot> {
        let capture = self.capture_device()?;
        let rect = match &request.region {
            Region::Screen => capture.screen_bounds().await.map_err(capture_error)?,
            Region::Window => self.window_rect(session).await?,
            Region::Element(target) => {
                let resolved = self.resolve(session, target).await?;
                let live = self
                    .backend()
                    .node(&resolved.node.id, Secrecy::of(resolved.secret))
                    .await?;
                live.bounds.filter(|b| !b.is_empty()).ok_or_else(|| {
                    Error::new(
                        Code::Offscreen,
                        format!("{} has no bounds on screen", resolved.reference),
                        "scroll it into view, or capture the window",
                    )
                })?
            }
        };
        let mut image: Image = capture.capture(rect).await.map_err(capture_error)?;
        let scale = image.fit(request.max_side);
        let labels: Vec<Label> = if request.annotate {
            self.sessions()
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
        })
    }

    /// The session window's screen bounds.
    async fn window_rect(&self, session: &str) -> Result<Rect> {
        self.session_window(session)
            .await?
            .and_then(|w| w.bounds)
            .filter(|b| !b.is_empty())
            .ok_or_else(|| {
                Error::new(
                    Code::Offscreen,
                    "the session's window has no bounds on screen (minimized or closed?)",
                    "restore the window (`window_action` restore), or capture the screen",
                )
            })
    }
}

fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

fn capture_error(error: crate::act::InputError) -> Error {
    match error {
        crate::act::InputError::Unavailable(why) => Error::input_unavailable(why),
        other => Error::new(
            Code::Backend,
            other.to_string(),
            "the display server failed; retry",
        ),
    }
}
