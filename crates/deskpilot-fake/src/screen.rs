//! A fake screen: its virtual bounds (the origin may be negative, as a monitor left of the
//! primary one puts it on Windows) and a record of what was captured.

use std::sync::Mutex;

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{CaptureError, Cover, Image, ScreenCapture, WindowId, WindowImage};

/// A screen of blank pixels.
pub struct FakeScreen {
    bounds: Rect,
    captured: Mutex<Vec<Rect>>,
    /// What every window capture says covered the window.
    cover: Option<Cover>,
}

impl FakeScreen {
    pub fn new(bounds: Rect) -> Self {
        FakeScreen {
            bounds,
            captured: Mutex::new(Vec::new()),
            cover: None,
        }
    }

    /// A screen whose window captures say `cover`, as Windows' z-order tells.
    pub fn with_cover(self, cover: Cover) -> Self {
        FakeScreen {
            cover: Some(cover),
            ..self
        }
    }

    /// The rectangles captured so far, in order.
    pub fn captured(&self) -> Vec<Rect> {
        self.captured.lock().unwrap().clone()
    }
}

#[async_trait]
impl ScreenCapture for FakeScreen {
    async fn capture(&self, rect: Rect) -> Result<Image, CaptureError> {
        self.captured.lock().unwrap().push(rect);
        Ok(Image::new(
            rect.width.max(0) as u32,
            rect.height.max(0) as u32,
        ))
    }

    async fn screen_bounds(&self) -> Result<Rect, CaptureError> {
        Ok(self.bounds)
    }

    async fn capture_window(
        &self,
        _window: WindowId,
        rect: Rect,
    ) -> Result<WindowImage, CaptureError> {
        Ok(WindowImage {
            image: self.capture(rect).await?,
            cover: self.cover,
        })
    }
}
