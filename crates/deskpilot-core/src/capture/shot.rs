//! `Engine::screenshot`: a window, the screen, or one element, bounded in size and labelled
//! with the refs of the session's latest snapshot.

use serde::Serialize;

use crate::error::{Code, Error};
use crate::model::Rect;
use crate::platform::Cover;
use crate::read::Target;

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

pub(crate) fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

pub(crate) fn capture_error(error: crate::platform::CaptureError) -> Error {
    match error {
        crate::platform::CaptureError::Unavailable(why) => Error::input_unavailable(why),
        other => Error::new(
            Code::Backend,
            other.to_string(),
            "the display server failed; retry",
        ),
    }
}
