//! The display's pixels.

use async_trait::async_trait;
use serde::Serialize;

use crate::app::WindowId;
use crate::image::Image;
use crate::model::Rect;

/// Why the display's pixels could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaptureError {
    /// No display to read pixels from.
    #[error("no screen to capture: {0}")]
    Unavailable(String),
    /// The display server failed, or did not answer in time.
    #[error("display server: {0}")]
    Display(String),
}

/// Whether another window covered the window captured, and so what its image shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// Nothing covered it: the screen's pixels are the window's own.
    Clear,
    /// Another window covered part of it, and the image shows that window there.
    Shown,
    /// Another window covered part of it; the window drew its own content instead.
    Redrawn,
}

impl Cover {
    /// Its name in reports, as serialized.
    pub fn name(self) -> &'static str {
        match self {
            Cover::Clear => "clear",
            Cover::Shown => "shown",
            Cover::Redrawn => "redrawn",
        }
    }
}

/// A window's pixels, and what was known of what covered it.
#[derive(Debug, Clone)]
pub struct WindowImage {
    pub image: Image,
    /// `None`: the platform cannot tell whether another window covered it.
    pub cover: Option<Cover>,
}

/// The display's pixels. Every call is bounded in time by its implementation.
#[async_trait]
pub trait ScreenCapture: Send + Sync {
    /// The pixels of `rect` (screen coordinates), clipped to the screen.
    async fn capture(&self, rect: Rect) -> Result<Image, CaptureError>;

    /// The whole virtual screen, every monitor, in screen coordinates. Its origin can be
    /// negative: a monitor left of or above the primary one.
    async fn screen_bounds(&self) -> Result<Rect, CaptureError>;

    /// The pixels of `window`, whose bounds are `rect`. By default what the screen shows
    /// there, with no word on what covered it.
    async fn capture_window(
        &self,
        window: WindowId,
        rect: Rect,
    ) -> Result<WindowImage, CaptureError> {
        let _ = window;
        Ok(WindowImage {
            image: self.capture(rect).await?,
            cover: None,
        })
    }
}
