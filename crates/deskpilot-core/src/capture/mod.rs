//! Screenshots: the display's pixels (through the platform's `ScreenCapture`),
//! scaled to a bounded size, annotated with the refs of the session's latest snapshot, PNG
//! encoded.

pub(crate) mod shot;

pub use deskpilot_platform::image::{Image, Label};
pub use shot::{Region, Shot, ShotRequest};
