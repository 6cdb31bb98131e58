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

    /// The whole virtual screen, every monitor, in screen coordinates. Its origin can be
    /// negative: a monitor left of or above the primary one.
    async fn screen_bounds(&self) -> Result<Rect, InputError>;
}
