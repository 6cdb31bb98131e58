//! The display's pixels.

use async_trait::async_trait;

use super::InputError;
use crate::image::Image;
use crate::model::Rect;

/// The display's pixels. Every call is bounded in time by its implementation.
#[async_trait]
pub trait ScreenCapture: Send + Sync {
    /// The pixels of `rect` (screen coordinates), clipped to the screen.
    async fn capture(&self, rect: Rect) -> Result<Image, InputError>;

    /// The whole screen's size.
    async fn screen_size(&self) -> Result<(u32, u32), InputError>;
}
