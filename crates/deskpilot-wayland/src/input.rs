//! `WaylandInput`: the virtual keyboard and pointer and screencopy of one compositor, behind
//! the contract's `InputDevice` and `ScreenCapture`. Every call runs on a blocking thread
//! under a timeout (`deskpilot_platform::blocking`); keys and buttons pressed are released,
//! also on error.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskpilot_platform::blocking::{self, TypeAll};
use deskpilot_platform::model::Rect;
use deskpilot_platform::{
    CaptureError, Chord, Direction, Image, InputDevice, InputError, InputText, MouseButton,
    ScreenCapture,
};
use deskpilot_xkb::{Keysym, char_keysym, key_keysym, modifier_keysym};
use wayland_protocols_misc::zwp_virtual_keyboard_v1::client::zwp_virtual_keyboard_v1::ZwpVirtualKeyboardV1;
use wayland_protocols_wlr::virtual_pointer::v1::client::zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1;

use crate::client::{Client, ClientError, State};
use crate::keyboard::Keyboard;
use crate::outputs::layout;
use crate::pointer::{Pointer, button_code};
use crate::screencopy;

/// Longest any one call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

pub(crate) struct Devices {
    client: Client,
    keyboard: Option<Keyboard>,
    pointer: Option<Pointer>,
}

/// Synthetic input and screenshots on a wlroots compositor.
#[derive(Clone)]
pub struct WaylandInput {
    devices: Arc<Mutex<Devices>>,
}

impl WaylandInput {
    /// Connects to the compositor at `socket` (`$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY`) and
    /// creates a virtual keyboard and pointer on its seat, where it offers them.
    pub fn connect(socket: &Path) -> Result<Self, ClientError> {
        let mut client = Client::connect(socket, CALL_TIMEOUT)?;
        let seat = client
            .globals
            .seat
            .clone()
            .ok_or_else(|| ClientError::Unavailable("the compositor has no seat".into()))?;
        let qh = client.qh.clone();
        let keyboard = client
            .globals
            .keyboards
            .as_ref()
            .map(|m| Keyboard::new(m.create_virtual_keyboard(&seat, &qh, ())));
        let area = layout(&client.state.outputs).unwrap_or(Rect::new(0, 0, 1, 1));
        let pointer = client
            .globals
            .pointers
            .as_ref()
            .map(|m| Pointer::new(m.create_virtual_pointer(Some(&seat), &qh, ()), area));
        client.roundtrip(Instant::now() + CALL_TIMEOUT)?;
        if keyboard.is_none() && pointer.is_none() && client.globals.screencopy.is_none() {
            return Err(ClientError::Unavailable(
                "the compositor offers no virtual keyboard, virtual pointer or screencopy (wlroots protocols)".into(),
            ));
        }
        let devices = Devices {
            client,
            keyboard,
            pointer,
        };
        Ok(WaylandInput {
            devices: Arc::new(Mutex::new(devices)),
        })
    }

    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Devices, Instant) -> Result<T, ClientError> + Send + 'static,
    ) -> Result<T, InputError> {
        let deadline = Instant::now() + CALL_TIMEOUT;
        blocking::call(self.devices.clone(), CALL_TIMEOUT, move |d| {
            f(d, deadline).map_err(input_error)
        })
        .await
    }
}

impl Devices {
    fn pointer(&self) -> Result<&Pointer, ClientError> {
        self.pointer.as_ref().ok_or_else(|| {
            ClientError::Unavailable(
                "the compositor has no virtual pointer (zwlr_virtual_pointer_manager_v1)".into(),
            )
        })
    }

    fn keyboard(&mut self) -> Result<(&mut Keyboard, &mut Client), ClientError> {
        match self.keyboard.as_mut() {
            Some(k) => Ok((k, &mut self.client)),
            None => Err(ClientError::Unavailable(
                "the compositor has no virtual keyboard (zwp_virtual_keyboard_manager_v1)".into(),
            )),
        }
    }

    fn click(
        &mut self,
        at: (i32, i32),
        code: u32,
        times: u32,
        deadline: Instant,
    ) -> Result<(), ClientError> {
        let pointer = self.pointer()?;
        pointer.move_to(at.0, at.1);
        for _ in 0..times {
            pointer.button(code, true);
            pointer.button(code, false);
        }
        self.client.roundtrip(deadline)
    }

    /// A person's drag: a settled hover and press, paced motions, a release whatever happened.
    fn drag(
        &mut self,
        from: (i32, i32),
        to: (i32, i32),
        deadline: Instant,
    ) -> Result<(), ClientError> {
        const AT_REST: Duration = Duration::from_millis(50);
        let code = button_code(MouseButton::Left);
        self.pointer()?.move_to(from.0, from.1);
        self.client.roundtrip(deadline)?;
        std::thread::sleep(AT_REST);
        self.pointer()?.button(code, true);
        let mut result = self.client.roundtrip(deadline);
        std::thread::sleep(AT_REST);
        for step in deskpilot_platform::drag_path::drag_path(from, to) {
            if result.is_err() {
                break;
            }
            self.pointer()?.move_to(step.x, step.y);
            result = self.client.roundtrip(deadline);
            std::thread::sleep(step.pause);
        }
        self.pointer()?.button(code, false);
        result.and(self.client.roundtrip(deadline))
    }
}

fn input_error(e: ClientError) -> InputError {
    match e {
        ClientError::Unavailable(why) => InputError::Unavailable(why),
        ClientError::Failed(why) => InputError::Display(why),
    }
}

fn capture_error(e: InputError) -> CaptureError {
    match e {
        InputError::Unavailable(why) => CaptureError::Unavailable(why),
        other => CaptureError::Display(other.to_string()),
    }
}

#[async_trait]
impl InputDevice for WaylandInput {
    async fn click(
        &self,
        x: i32,
        y: i32,
        button: MouseButton,
        double: bool,
    ) -> Result<(), InputError> {
        let times = if double { 2 } else { 1 };
        self.run(move |d, deadline| d.click((x, y), button_code(button), times, deadline))
            .await
    }

    async fn scroll(
        &self,
        x: i32,
        y: i32,
        direction: Direction,
        clicks: u32,
    ) -> Result<(), InputError> {
        self.run(move |d, deadline| {
            let pointer = d.pointer()?;
            pointer.move_to(x, y);
            pointer.wheel(direction, clicks);
            d.client.roundtrip(deadline)
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
        self.run(move |d, deadline| {
            let (keyboard, client) = d.keyboard()?;
            keyboard.chord(&keysyms)?;
            client.roundtrip(deadline)
        })
        .await
    }

    async fn type_text(&self, text: &InputText) -> Result<(), InputError> {
        let keysyms: Vec<Keysym> = text.expose().chars().map(char_keysym).collect();
        let budget = CALL_TIMEOUT + CALL_TIMEOUT / 500 * keysyms.len() as u32;
        let job: TypeAll<Devices, Keysym> = Box::new(|d, keysyms, stop, sent| {
            let (keyboard, client) = d.keyboard().map_err(input_error)?;
            keyboard
                .type_keysyms(client, keysyms, stop, sent)
                .map_err(input_error)?;
            client
                .roundtrip(Instant::now() + CALL_TIMEOUT)
                .map_err(input_error)
        });
        blocking::type_within(self.devices.clone(), keysyms, budget, CALL_TIMEOUT, job).await
    }

    /// Gives the compositor the base map again: the characters typed leave it.
    async fn after_secret_text(&self) -> Result<(), InputError> {
        self.run(|d, deadline| {
            let (keyboard, client) = d.keyboard()?;
            keyboard.reset(client, deadline)
        })
        .await
    }

    async fn drag(&self, from: (i32, i32), to: (i32, i32)) -> Result<(), InputError> {
        self.run(move |d, _| d.drag(from, to, Instant::now() + CALL_TIMEOUT))
            .await
    }

    async fn move_pointer(&self, x: i32, y: i32) -> Result<(), InputError> {
        self.run(move |d, deadline| {
            d.pointer()?.move_to(x, y);
            d.client.roundtrip(deadline)
        })
        .await
    }
}

#[async_trait]
impl ScreenCapture for WaylandInput {
    async fn capture(&self, rect: Rect) -> Result<Image, CaptureError> {
        self.run(move |d, deadline| screencopy::capture(&mut d.client, rect, deadline))
            .await
            .map_err(capture_error)
    }

    async fn screen_bounds(&self) -> Result<Rect, CaptureError> {
        self.run(|d, _| {
            layout(&d.client.state.outputs)
                .ok_or_else(|| ClientError::Failed("the compositor has no output".into()))
        })
        .await
        .map_err(capture_error)
    }
}

wayland_client::delegate_noop!(State: ZwpVirtualKeyboardV1);
wayland_client::delegate_noop!(State: ZwlrVirtualPointerV1);
