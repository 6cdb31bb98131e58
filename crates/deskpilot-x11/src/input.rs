//! Synthetic input through XTEST: pointer clicks and wheel, key chords, Unicode text. Its
//! connection also carries the window manager's requests (`window_system.rs`).
//!
//! Every request runs on a blocking thread under a timeout, so a stuck display server fails
//! the call instead of stalling the runtime. Keys pressed are always released, also on error.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use deskpilot_platform::blocking;
use deskpilot_platform::{Chord, Direction, InputDevice, InputError, InputText, MouseButton};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, Window};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::rust_connection::RustConnection;

use crate::keymap::{Keymap, Keysym, SHIFT_L, char_keysym, key_keysym, modifier_keysym};

const KEY_PRESS: u8 = 2;
const KEY_RELEASE: u8 = 3;
const BUTTON_PRESS: u8 = 4;
const BUTTON_RELEASE: u8 = 5;
const MOTION_NOTIFY: u8 = 6;

/// Longest any one input call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

pub(crate) struct State {
    pub(crate) conn: RustConnection,
    pub(crate) root: Window,
    pub(crate) keymap: Keymap,
    pub(crate) net_active_window: u32,
}

/// XTEST input on one X display.
#[derive(Clone)]
pub struct X11Input {
    state: Arc<Mutex<State>>,
    /// Longest any one call may take; typing gets this plus a share per character.
    timeout: Duration,
    /// The whole budget of one text, when set (else `timeout` plus 1/500 of it a character).
    typing_budget: Option<Duration>,
}

pub(crate) fn display_error(e: impl std::fmt::Display) -> InputError {
    InputError::Display(e.to_string())
}

impl X11Input {
    /// Connects to `display` (e.g. `:3`) and checks that it has XTEST.
    pub fn connect(display: &str) -> Result<Self, InputError> {
        let (conn, screen) = x11rb::connect(Some(display))
            .map_err(|e| InputError::Unavailable(format!("X11 display {display}: {e}")))?;
        conn.xtest_get_version(2, 2)
            .map_err(display_error)?
            .reply()
            .map_err(|e| InputError::Unavailable(format!("no XTEST on {display}: {e}")))?;
        let root = conn.setup().roots[screen].root;
        let keymap = read_keymap(&conn)?;
        let net_active_window = conn
            .intern_atom(false, b"_NET_ACTIVE_WINDOW")
            .map_err(display_error)?
            .reply()
            .map_err(display_error)?
            .atom;
        Ok(X11Input {
            state: Arc::new(Mutex::new(State {
                conn,
                root,
                keymap,
                net_active_window,
            })),
            timeout: CALL_TIMEOUT,
            typing_budget: None,
        })
    }

    /// The same device with a fixed time budget for typing one text (tests of typing cut
    /// short).
    pub fn with_typing_budget(mut self, budget: Duration) -> Self {
        self.typing_budget = Some(budget);
        self
    }

    /// Runs `f` with the connection on a blocking thread, bounded by `CALL_TIMEOUT`.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut State) -> Result<T, InputError> + Send + 'static,
    ) -> Result<T, InputError> {
        blocking::call(self.state.clone(), self.timeout, f).await
    }

    /// Types `keysyms` one by one, within the typing budget (`blocking::type_within`).
    async fn type_keysyms(&self, keysyms: Vec<Keysym>) -> Result<(), InputError> {
        let budget = self
            .typing_budget
            .unwrap_or(self.timeout + self.timeout / 500 * keysyms.len() as u32);
        let job: blocking::TypeAll<State, Keysym> =
            Box::new(|state, keysyms, stop, sent| state.type_keysyms(keysyms, stop, sent));
        blocking::type_within(self.state.clone(), keysyms, budget, self.timeout, job).await
    }
}

impl X11Input {
    /// Runs `f` with the connection and the root window, on a blocking thread under the
    /// call timeout.
    pub(crate) async fn with_connection<T: Send + 'static>(
        &self,
        f: impl FnOnce(&RustConnection, Window) -> Result<T, InputError> + Send + 'static,
    ) -> Result<T, InputError> {
        self.run(move |s| f(&s.conn, s.root)).await
    }
}

fn read_keymap(conn: &RustConnection) -> Result<Keymap, InputError> {
    let setup = conn.setup();
    let (min, max) = (setup.min_keycode, setup.max_keycode);
    let reply = conn
        .get_keyboard_mapping(min, max - min + 1)
        .map_err(display_error)?
        .reply()
        .map_err(display_error)?;
    Ok(Keymap::new(min, reply.keysyms_per_keycode, &reply.keysyms))
}

impl State {
    fn fake(&self, kind: u8, detail: u8, x: i16, y: i16) -> Result<(), InputError> {
        self.conn
            .xtest_fake_input(kind, detail, 0, self.root, x, y, 0)
            .map_err(display_error)?;
        Ok(())
    }

    /// Waits until the server has handled everything sent so far.
    pub(crate) fn sync(&self) -> Result<(), InputError> {
        self.conn
            .get_input_focus()
            .map_err(display_error)?
            .reply()
            .map_err(display_error)?;
        Ok(())
    }

    /// The keycode for `keysym` (and whether it needs Shift), remapping a spare keycode when
    /// the layout lacks it.
    fn keycode_for(&mut self, keysym: Keysym) -> Result<(u8, bool), InputError> {
        if let Some(place) = self.keymap.place(keysym) {
            return Ok((place.keycode, place.shift));
        }
        let keycode = self.keymap.assign_spare(keysym).ok_or_else(|| {
            // Never the keysym: it would name a typed character (a password's).
            InputError::Untypable("a key the layout lacks: no spare keycode to map it to".into())
        })?;
        let per = self.keymap.keysyms_per_keycode.max(1);
        let mut syms = vec![0u32; usize::from(per)];
        syms[0] = keysym;
        if per > 1 {
            syms[1] = keysym;
        }
        self.conn
            .change_keyboard_mapping(1, keycode, per, &syms)
            .map_err(display_error)?;
        self.sync()?;
        Ok((keycode, false))
    }

    /// Types each keysym as a key press and release, counting in `sent` the characters
    /// delivered; stops before the next one once `stop` is set.
    fn type_keysyms(
        &mut self,
        keysyms: &[Keysym],
        stop: &AtomicBool,
        sent: &AtomicUsize,
    ) -> Result<(), InputError> {
        let spare = self.keymap.spare_count().max(1);
        let mut remapped = 0usize;
        for &sym in keysyms {
            if stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            if self.keymap.place(sym).is_none() {
                remapped += 1;
                if remapped > spare && remapped % spare == 1 {
                    // The pool wraps: give the app time to translate the keys typed
                    // through the keycodes about to be remapped.
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
            self.chord(&[sym])?;
            sent.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }

    /// Maps the spare keycodes used since the last call back to nothing.
    fn restore_spares(&mut self) -> Result<(), InputError> {
        let per = self.keymap.keysyms_per_keycode.max(1);
        let nothing = vec![0u32; usize::from(per)];
        let keycodes = self.keymap.take_assigned();
        for &keycode in &keycodes {
            self.conn
                .change_keyboard_mapping(1, keycode, per, &nothing)
                .map_err(display_error)?;
        }
        if keycodes.is_empty() {
            Ok(())
        } else {
            self.sync()
        }
    }

    /// Presses `keys` in order and releases them in reverse, releasing also when a press
    /// fails midway.
    fn chord(&mut self, keysyms: &[Keysym]) -> Result<(), InputError> {
        let mut codes = Vec::with_capacity(keysyms.len() + 1);
        for &sym in keysyms {
            let (code, shift) = self.keycode_for(sym)?;
            if shift && !keysyms.contains(&SHIFT_L) {
                codes.push(self.keycode_for(SHIFT_L)?.0);
            }
            codes.push(code);
        }
        let mut pressed = Vec::with_capacity(codes.len());
        let mut result = Ok(());
        for &code in &codes {
            if let Err(e) = self.fake(KEY_PRESS, code, 0, 0) {
                result = Err(e);
                break;
            }
            pressed.push(code);
        }
        for &code in pressed.iter().rev() {
            let released = self.fake(KEY_RELEASE, code, 0, 0);
            if result.is_ok() {
                result = released;
            }
        }
        result.and_then(|_| self.sync())
    }
}

fn button_number(button: MouseButton) -> u8 {
    match button {
        MouseButton::Left => 1,
        MouseButton::Middle => 2,
        MouseButton::Right => 3,
    }
}

fn clamp16(v: i32) -> i16 {
    v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
}

#[async_trait]
impl InputDevice for X11Input {
    async fn click(
        &self,
        x: i32,
        y: i32,
        button: MouseButton,
        double: bool,
    ) -> Result<(), InputError> {
        self.run(move |s| {
            let (x, y) = (clamp16(x), clamp16(y));
            s.fake(MOTION_NOTIFY, 0, x, y)?;
            let detail = button_number(button);
            for _ in 0..if double { 2 } else { 1 } {
                s.fake(BUTTON_PRESS, detail, x, y)?;
                s.fake(BUTTON_RELEASE, detail, x, y)?;
            }
            s.sync()
        })
        .await
    }

    async fn pointer(&self) -> Result<Option<(i32, i32)>, InputError> {
        self.run(|s| {
            let at = s
                .conn
                .query_pointer(s.root)
                .map_err(display_error)?
                .reply()
                .map_err(display_error)?;
            Ok(Some((i32::from(at.root_x), i32::from(at.root_y))))
        })
        .await
    }

    async fn move_pointer(&self, x: i32, y: i32) -> Result<(), InputError> {
        self.run(move |s| {
            s.fake(MOTION_NOTIFY, 0, clamp16(x), clamp16(y))?;
            s.sync()
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
        self.run(move |s| {
            let (x, y) = (clamp16(x), clamp16(y));
            s.fake(MOTION_NOTIFY, 0, x, y)?;
            let detail = match direction {
                Direction::Up => 4,
                Direction::Down => 5,
                Direction::Left => 6,
                Direction::Right => 7,
            };
            for _ in 0..clicks.min(100) {
                s.fake(BUTTON_PRESS, detail, x, y)?;
                s.fake(BUTTON_RELEASE, detail, x, y)?;
            }
            s.sync()
        })
        .await
    }

    async fn press(&self, chord: &Chord) -> Result<(), InputError> {
        let mut keysyms: Vec<Keysym> = chord
            .modifiers
            .iter()
            .map(|m| modifier_keysym(*m))
            .collect();
        keysyms.push(key_keysym(chord.key));
        self.run(move |s| s.chord(&keysyms)).await
    }

    async fn type_text(&self, text: &InputText) -> Result<(), InputError> {
        self.type_keysyms(text.expose().chars().map(char_keysym).collect())
            .await
    }

    /// Maps the spare keycodes remapped for typing back to nothing.
    async fn after_secret_text(&self) -> Result<(), InputError> {
        self.run(|s| s.restore_spares()).await
    }

    async fn drag(&self, from: (i32, i32), to: (i32, i32)) -> Result<(), InputError> {
        self.run(move |s| {
            // A settled hover and press before moving: toolkits start a drag from a press
            // they saw at rest.
            const AT_REST: Duration = Duration::from_millis(50);
            s.fake(MOTION_NOTIFY, 0, clamp16(from.0), clamp16(from.1))?;
            s.sync()?;
            std::thread::sleep(AT_REST);
            s.fake(BUTTON_PRESS, 1, clamp16(from.0), clamp16(from.1))?;
            s.sync()?;
            std::thread::sleep(AT_REST);
            let mut result = Ok(());
            for step in deskpilot_platform::drag_path::drag_path(from, to) {
                result = s
                    .fake(MOTION_NOTIFY, 0, clamp16(step.x), clamp16(step.y))
                    .and_then(|_| s.sync());
                if result.is_err() {
                    break;
                }
                std::thread::sleep(step.pause);
            }
            // Released whatever happened on the way.
            let released = s.fake(BUTTON_RELEASE, 1, clamp16(to.0), clamp16(to.1));
            result.and(released).and_then(|_| s.sync())
        })
        .await
    }
}
