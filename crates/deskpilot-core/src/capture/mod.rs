//! Screenshots: the display's pixels (through a `ScreenCapture`, implemented by deskpilot-x11),
//! scaled to a bounded size, annotated with the refs of the session's latest snapshot, PNG
//! encoded.

mod font;
mod image;
mod shot;

use async_trait::async_trait;

pub use image::{Image, Label};
pub use shot::{Region, Shot, ShotRequest};

use crate::act::InputError;
use crate::model::Rect;

/// The display's pixels. Every call is bounded in time by its implementation.
#[async_trait]
pub trait ScreenCapture: Send + Sync {
    /// The pixels of `rect` (screen coordinates), clipped to the screen.
    async fn capture(&self, rect: Rect) -> Result<Image, InputError>;

    /// The whole screen's size.
    async fn screen_size(&self) -> Result<(u32, u32), InputError>;
}
