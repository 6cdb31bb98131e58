//! Synthetic input, as the action ladder needs it. Implemented by deskpilot-x11 (XTEST);
//! every call is bounded in time by its implementation. The windows it goes to are the
//! window system's (`window_system.rs`).

use async_trait::async_trait;

use crate::app::WindowId;
use crate::keys::Chord;
use crate::text::InputText;
use crate::vocabulary::{Direction, MouseButton};

/// Why synthetic input could not be sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// No display to send input to (a Wayland session, or no DISPLAY).
    #[error("no input device: {0}")]
    Unavailable(String),
    /// The character or key cannot be typed on this keyboard.
    #[error("cannot type {0}")]
    Untypable(String),
    #[error("display server: {0}")]
    Display(String),
    /// The system would drop input sent to this window (it belongs to an app with more
    /// rights than deskpilot): nothing was sent.
    #[error("input to window {window} would be dropped: {why}")]
    Denied { window: WindowId, why: String },
    /// Typing stopped part way: `sent` of `total` characters were delivered (never which).
    #[error("typing stopped after {sent} of {total} characters: {why}")]
    Incomplete {
        sent: usize,
        total: usize,
        why: String,
    },
}

/// One keyboard and one pointer (the engine serializes their use across sessions).
#[async_trait]
pub trait InputDevice: Send + Sync {
    /// Moves the pointer to (x, y) in screen coordinates and clicks (twice when `double`).
    async fn click(
        &self,
        x: i32,
        y: i32,
        button: MouseButton,
        double: bool,
    ) -> Result<(), InputError>;

    /// Turns the wheel at (x, y).
    async fn scroll(
        &self,
        x: i32,
        y: i32,
        direction: Direction,
        clicks: u32,
    ) -> Result<(), InputError>;

    /// Presses a chord: modifiers down in order, the key, then everything released (also on
    /// error).
    async fn press(&self, chord: &Chord) -> Result<(), InputError>;

    /// Types text, any Unicode: characters the keyboard lacks are typed through a spare key.
    async fn type_text(&self, text: &InputText) -> Result<(), InputError>;

    /// Forgets what typing secret text left behind in the input system (a keyboard map
    /// changed to type characters the layout lacks), so that the text does not stay readable
    /// there. Called once the typed text was read back (or the wait for it ended): earlier,
    /// the app could still be translating those keys.
    async fn after_secret_text(&self) -> Result<(), InputError> {
        Ok(())
    }

    /// Presses at `from`, moves to `to` in steps, releases (also on error).
    async fn drag(&self, from: (i32, i32), to: (i32, i32)) -> Result<(), InputError>;

    /// Where the pointer is, in screen coordinates; `None` when the platform cannot tell.
    async fn pointer(&self) -> Result<Option<(i32, i32)>, InputError> {
        Ok(None)
    }

    /// Moves the pointer to (x, y) without a click (to put it back where it was).
    async fn move_pointer(&self, x: i32, y: i32) -> Result<(), InputError> {
        let _ = (x, y);
        Err(InputError::Unavailable(
            "this platform cannot move the pointer back".into(),
        ))
    }
}
