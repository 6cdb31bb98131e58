//! `GnomeInput`: the contract's `InputDevice` on mutter's remote desktop session. Keys go as
//! keysyms; mutter types only those its keymap has and drops the others while saying it
//! sent them, so a text with other characters is refused whole before any key is sent
//! (the engine's next rung types it through the app's own text interface).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskpilot_platform::{Chord, Direction, InputDevice, InputError, InputText, MouseButton};
use deskpilot_xkb::{Keysym, char_keysym, key_keysym, modifier_keysym};
use futures_util::future::BoxFuture;
use tokio::sync::Mutex;

use crate::bus::{Bus, GnomeError};
use crate::remote::Remote;

/// evdev's button codes (linux/input-event-codes.h).
const BTN_LEFT: i32 = 0x110;
const BTN_RIGHT: i32 = 0x111;
const BTN_MIDDLE: i32 = 0x112;
/// How long a drag's pointer rests before the press and after it.
const AT_REST: Duration = Duration::from_millis(50);

/// Synthetic input through mutter. One session, started by the first call, serves every
/// call in turn.
#[derive(Clone)]
pub struct GnomeInput {
    bus: Bus,
    remote: Arc<Mutex<Option<Remote>>>,
    /// Why the pointer may not be used here (no window positions to aim with).
    pointer_refused: Option<String>,
}

impl GnomeInput {
    pub(crate) fn new(bus: Bus, pointer_refused: Option<String>) -> Self {
        GnomeInput {
            bus,
            remote: Arc::new(Mutex::new(None)),
            pointer_refused,
        }
    }

    /// Runs `job` on the session to its end, in turn with other calls. It runs on a task of
    /// its own: a caller that stops waiting leaves no key or button down.
    async fn run<T: Send + 'static>(
        &self,
        job: impl for<'a> FnOnce(&'a Remote) -> BoxFuture<'a, Result<T, GnomeError>> + Send + 'static,
    ) -> Result<T, InputError> {
        let (remote, bus) = (self.remote.clone(), self.bus.clone());
        let task = tokio::spawn(async move {
            let mut remote = remote.lock().await;
            if remote.is_none() {
                *remote = Some(Remote::start(bus).await?);
            }
            match remote.as_ref() {
                Some(started) => job(started).await,
                None => Err(GnomeError::Failed("no remote desktop session".into())),
            }
        });
        match task.await {
            Ok(done) => done.map_err(input_error),
            Err(e) => Err(InputError::Display(format!("the input task failed: {e}"))),
        }
    }

    /// `run`, where the pointer may be used.
    async fn point<T: Send + 'static>(
        &self,
        job: impl for<'a> FnOnce(&'a Remote) -> BoxFuture<'a, Result<T, GnomeError>> + Send + 'static,
    ) -> Result<T, InputError> {
        match &self.pointer_refused {
            Some(why) => Err(InputError::Unavailable(why.clone())),
            None => self.run(job).await,
        }
    }
}

fn input_error(e: GnomeError) -> InputError {
    match e {
        GnomeError::Missing(why) | GnomeError::Denied(why) => InputError::Unavailable(why),
        GnomeError::Failed(why) => InputError::Display(why),
    }
}

fn button_code(button: MouseButton) -> i32 {
    match button {
        MouseButton::Left => BTN_LEFT,
        MouseButton::Middle => BTN_MIDDLE,
        MouseButton::Right => BTN_RIGHT,
    }
}

/// Whether mutter's keymap has the character: a US keymap's, the layout mutter starts with
/// (printable ASCII, newline and tab). Other layouts have more; deskpilot does not read them.
fn in_keymap(c: char) -> bool {
    matches!(c, ' '..='~' | '\n' | '\r' | '\t')
}

/// Presses `keysyms` in order and releases them in reverse, also when a press failed.
async fn chord(remote: &Remote, keysyms: &[Keysym]) -> Result<(), GnomeError> {
    let mut down = 0;
    let mut result = Ok(());
    for keysym in keysyms {
        result = remote.keysym(*keysym, true).await;
        if result.is_err() {
            break;
        }
        down += 1;
    }
    for keysym in keysyms[..down].iter().rev() {
        let released = remote.keysym(*keysym, false).await;
        result = result.and(released);
    }
    result
}

#[async_trait]
impl InputDevice for GnomeInput {
    async fn click(
        &self,
        x: i32,
        y: i32,
        button: MouseButton,
        double: bool,
    ) -> Result<(), InputError> {
        let code = button_code(button);
        self.point(move |remote| {
            Box::pin(async move {
                remote.move_to(x, y).await?;
                for _ in 0..if double { 2 } else { 1 } {
                    remote.button(code, true).await?;
                    remote.button(code, false).await?;
                }
                Ok(())
            })
        })
        .await
    }

    async fn scroll(
        &self,
        x: i32,
        y: i32,
        direction: Direction,
        clicks: u32,
    ) -> Result<(), InputError> {
        let steps = i32::try_from(clicks).unwrap_or(i32::MAX);
        let (axis, steps) = match direction {
            Direction::Up => (0, -steps),
            Direction::Down => (0, steps),
            Direction::Left => (1, -steps),
            Direction::Right => (1, steps),
        };
        self.point(move |remote| {
            Box::pin(async move {
                remote.move_to(x, y).await?;
                remote.wheel(axis, steps).await
            })
        })
        .await
    }

    async fn press(&self, keys: &Chord) -> Result<(), InputError> {
        let mut keysyms: Vec<Keysym> = keys.modifiers.iter().map(|m| modifier_keysym(*m)).collect();
        keysyms.push(key_keysym(keys.key));
        self.run(move |remote| Box::pin(async move { chord(remote, &keysyms).await }))
            .await
    }

    async fn type_text(&self, text: &InputText) -> Result<(), InputError> {
        let chars: Vec<char> = text.expose().chars().collect();
        if chars.iter().any(|c| !in_keymap(*c)) {
            return Err(InputError::Untypable(
                "characters mutter's keymap lacks (mutter drops such keysyms while saying it typed them)".into(),
            ));
        }
        let total = chars.len();
        let sent = self
            .run(move |remote| Box::pin(async move { Ok(type_chars(remote, &chars).await) }))
            .await?;
        match sent {
            (_, None) => Ok(()),
            (0, Some(e)) => Err(input_error(e)),
            (sent, Some(e)) => Err(InputError::Incomplete {
                sent,
                total,
                why: e.to_string(),
            }),
        }
    }

    async fn drag(&self, from: (i32, i32), to: (i32, i32)) -> Result<(), InputError> {
        self.point(move |remote| Box::pin(drag(remote, from, to)))
            .await
    }

    async fn move_pointer(&self, x: i32, y: i32) -> Result<(), InputError> {
        self.point(move |remote| Box::pin(remote.move_to(x, y)))
            .await
    }
}

/// Types `chars` one key each; how many were sent, and why it stopped short.
async fn type_chars(remote: &Remote, chars: &[char]) -> (usize, Option<GnomeError>) {
    for (sent, c) in chars.iter().enumerate() {
        if let Err(e) = chord(remote, &[char_keysym(*c)]).await {
            return (sent, Some(e));
        }
    }
    (chars.len(), None)
}

/// A person's drag: a settled hover and press, paced motions, a release whatever happened.
async fn drag(remote: &Remote, from: (i32, i32), to: (i32, i32)) -> Result<(), GnomeError> {
    remote.move_to(from.0, from.1).await?;
    tokio::time::sleep(AT_REST).await;
    remote.button(BTN_LEFT, true).await?;
    tokio::time::sleep(AT_REST).await;
    let mut result = Ok(());
    for step in deskpilot_platform::drag_path::drag_path(from, to) {
        result = remote.move_to(step.x, step.y).await;
        if result.is_err() {
            break;
        }
        tokio::time::sleep(step.pause).await;
    }
    let released = remote.button(BTN_LEFT, false).await;
    result.and(released)
}
