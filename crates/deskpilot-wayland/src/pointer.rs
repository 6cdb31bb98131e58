//! The virtual pointer (`zwlr_virtual_pointer_v1`): absolute motion over the layout, buttons
//! and the wheel, each followed by a frame.

use std::time::Instant;

use deskpilot_platform::model::Rect;
use deskpilot_platform::{Direction, MouseButton};
use wayland_client::protocol::wl_pointer::{Axis, AxisSource, ButtonState};
use wayland_protocols_wlr::virtual_pointer::v1::client::zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1;

/// Linux's evdev button codes (`linux/input-event-codes.h`).
const BTN_LEFT: u32 = 0x110;
const BTN_RIGHT: u32 = 0x111;
const BTN_MIDDLE: u32 = 0x112;
/// What one wheel click scrolls, as libinput reports a mouse's.
const WHEEL_STEP: f64 = 15.0;

pub(crate) struct Pointer {
    device: ZwlrVirtualPointerV1,
    /// The layout the absolute motion spans.
    layout: Rect,
    start: Instant,
}

pub(crate) fn button_code(button: MouseButton) -> u32 {
    match button {
        MouseButton::Left => BTN_LEFT,
        MouseButton::Middle => BTN_MIDDLE,
        MouseButton::Right => BTN_RIGHT,
    }
}

impl Pointer {
    pub(crate) fn new(device: ZwlrVirtualPointerV1, layout: Rect) -> Self {
        Pointer {
            device,
            layout,
            start: Instant::now(),
        }
    }

    fn time(&self) -> u32 {
        self.start.elapsed().as_millis() as u32
    }

    /// Moves to (x, y) in layout coordinates, clamped to the layout.
    pub(crate) fn move_to(&self, x: i32, y: i32) {
        let l = self.layout;
        let dx = (x - l.x).clamp(0, (l.width - 1).max(0)) as u32;
        let dy = (y - l.y).clamp(0, (l.height - 1).max(0)) as u32;
        self.device.motion_absolute(
            self.time(),
            dx,
            dy,
            l.width.max(1) as u32,
            l.height.max(1) as u32,
        );
        self.device.frame();
    }

    pub(crate) fn button(&self, code: u32, down: bool) {
        let state = if down {
            ButtonState::Pressed
        } else {
            ButtonState::Released
        };
        self.device.button(self.time(), code, state);
        self.device.frame();
    }

    /// Turns the wheel `clicks` notches.
    pub(crate) fn wheel(&self, direction: Direction, clicks: u32) {
        let clicks = clicks.min(100) as i32;
        let (axis, sign) = match direction {
            Direction::Up => (Axis::VerticalScroll, -1),
            Direction::Down => (Axis::VerticalScroll, 1),
            Direction::Left => (Axis::HorizontalScroll, -1),
            Direction::Right => (Axis::HorizontalScroll, 1),
        };
        let steps = sign * clicks;
        self.device.axis_source(AxisSource::Wheel);
        self.device
            .axis_discrete(self.time(), axis, WHEEL_STEP * f64::from(steps), steps);
        self.device.frame();
    }
}
