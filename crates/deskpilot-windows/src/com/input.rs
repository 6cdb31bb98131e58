//! `SendInput`: the planned records copied into `INPUT`s unchanged, the virtual screen from
//! the system's metrics, keys and scan codes from the layout of the window they go to
//! (`VkKeyScanExW`, `MapVirtualKeyExW`). The integrity level of the
//! window input lands on is checked before anything is sent: the foreground's for keys, the
//! one under the pointer for the pointer.

use std::ffi::c_void;

use deskpilot_platform::model::Rect;
use windows::Win32::Foundation::POINT;
use windows::Win32::UI::Input::KeyboardAndMouse::{
    GetKeyboardLayout, HKL, INPUT, INPUT_0, INPUT_TYPE, KEYBD_EVENT_FLAGS, KEYBDINPUT,
    MAPVK_VK_TO_VSC_EX, MOUSE_EVENT_FLAGS, MOUSEINPUT, MapVirtualKeyExW, SendInput, VIRTUAL_KEY,
    VkKeyScanExW,
};
use windows::Win32::UI::WindowsAndMessaging::{
    GA_ROOT, GetAncestor, GetCursorPos, GetForegroundWindow, GetSystemMetrics,
    GetWindowThreadProcessId, SM_CXVIRTUALSCREEN, SM_CYVIRTUALSCREEN, SM_XVIRTUALSCREEN,
    SM_YVIRTUALSCREEN, WindowFromPoint,
};

use crate::input_plan::Record;
use crate::send_input::{Aim, InputSink, Layout};

/// The system's input queue.
pub struct Win32Input;

/// A planned record as an `INPUT`, field for field.
fn input(record: &Record) -> INPUT {
    match *record {
        Record::Key { vk, scan, flags } => INPUT {
            r#type: INPUT_TYPE(record.kind()),
            Anonymous: INPUT_0 {
                ki: KEYBDINPUT {
                    wVk: VIRTUAL_KEY(vk),
                    wScan: scan,
                    dwFlags: KEYBD_EVENT_FLAGS(flags),
                    time: 0,
                    dwExtraInfo: 0,
                },
            },
        },
        Record::Mouse {
            dx,
            dy,
            data,
            flags,
        } => INPUT {
            r#type: INPUT_TYPE(record.kind()),
            Anonymous: INPUT_0 {
                mi: MOUSEINPUT {
                    dx,
                    dy,
                    mouseData: data as u32,
                    dwFlags: MOUSE_EVENT_FLAGS(flags),
                    time: 0,
                    dwExtraInfo: 0,
                },
            },
        },
    }
}

impl InputSink for Win32Input {
    fn screen(&self) -> Rect {
        // SAFETY: metric queries.
        unsafe {
            Rect::new(
                GetSystemMetrics(SM_XVIRTUALSCREEN),
                GetSystemMetrics(SM_YVIRTUALSCREEN),
                GetSystemMetrics(SM_CXVIRTUALSCREEN),
                GetSystemMetrics(SM_CYVIRTUALSCREEN),
            )
        }
    }

    fn cursor(&self) -> Option<(i32, i32)> {
        let mut at = windows::Win32::Foundation::POINT::default();
        // SAFETY: a query into a POINT.
        unsafe { GetCursorPos(&mut at) }.ok()?;
        Some((at.x, at.y))
    }

    fn send(&self, records: &[Record]) -> usize {
        let inputs: Vec<INPUT> = records.iter().map(input).collect();
        // SAFETY: a slice of initialized INPUTs and their size.
        unsafe { SendInput(&inputs, std::mem::size_of::<INPUT>() as i32) as usize }
    }

    fn target_layout(&self) -> Layout {
        // SAFETY: queries on the foreground window and its thread.
        let hkl = unsafe {
            let thread = GetWindowThreadProcessId(GetForegroundWindow(), None);
            GetKeyboardLayout(thread)
        };
        Layout(hkl.0 as u64)
    }

    fn scan_of(&self, vk: u16, layout: Layout) -> Option<u16> {
        let hkl = HKL(layout.0 as *mut c_void);
        // SAFETY: a layout query.
        let code = unsafe { MapVirtualKeyExW(u32::from(vk), MAPVK_VK_TO_VSC_EX, Some(hkl)) };
        (code != 0).then_some(code as u16)
    }

    fn denied(&self, aim: Aim) -> Option<(u64, String)> {
        // SAFETY: queries on window handles.
        let window = unsafe {
            match aim {
                Aim::Foreground => GetForegroundWindow(),
                // The top-level window under the point: where a click lands.
                Aim::Point(x, y) => GetAncestor(WindowFromPoint(POINT { x, y }), GA_ROOT),
                Aim::Nowhere => return None,
            }
        };
        let mut pid = 0u32;
        // SAFETY: a query on a window handle (a null one answers 0).
        unsafe { GetWindowThreadProcessId(window, Some(&mut pid)) };
        if window.0.is_null() || pid == 0 {
            return None;
        }
        let process = super::process::process(pid).ok()?;
        process.rights.refusal().map(|why| {
            (
                window.0 as usize as u64,
                format!(
                    "{} {why}: Windows would drop input sent to it (UIPI)",
                    process.exe
                ),
            )
        })
    }

    fn vk_for(&self, c: char, layout: Layout) -> Option<(u16, bool)> {
        let mut units = [0u16; 2];
        let [unit] = c.encode_utf16(&mut units) else {
            return None;
        };
        // SAFETY: a layout query, on the layout of the window the keys go to.
        let scan = unsafe { VkKeyScanExW(*unit, HKL(layout.0 as *mut c_void)) };
        if scan == -1 {
            return None;
        }
        let (vk, shift_state) = ((scan & 0xFF) as u16, (scan >> 8) & 0xFF);
        // Only Shift is added to a chord; a key behind Ctrl or Alt is not typed this way.
        (shift_state & !1 == 0).then_some((vk, shift_state & 1 == 1))
    }
}
