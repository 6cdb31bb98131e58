//! The Windows rig's desktop below UI Automation: `SendInput`'s records land in a log and
//! the fake UIA app does not react to them (it has no hit-testing of input); the window list
//! is the rewritten app's windows as `EnumWindows` would list them, and what the window
//! manager is asked goes to the same log.

use std::sync::Mutex;

use deskpilot_core::act::WindowAction;
use deskpilot_core::model::Rect;
use deskpilot_windows::FakeKeyboards;
use deskpilot_windows::input_plan::{self as plan, Record};
use deskpilot_windows::send_input::{Aim, InputSink, Layout};
use deskpilot_windows::system_windows::{RawWindow, WindowApi};

/// A screen, a window list, and a log of what was sent and asked, one line per call.
pub struct Desk {
    log: Mutex<Vec<String>>,
    windows: Mutex<Vec<RawWindow>>,
    foreground: Mutex<Option<u64>>,
    /// The foreground lock: activation is asked, never granted.
    locked: bool,
}

impl Desk {
    pub fn new(windows: Vec<RawWindow>, locked: bool) -> Self {
        Desk {
            log: Mutex::default(),
            windows: Mutex::new(windows),
            foreground: Mutex::default(),
            locked,
        }
    }

    pub fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl WindowApi for Desk {
    fn windows(&self) -> Result<Vec<RawWindow>, String> {
        Ok(self.windows.lock().unwrap().clone())
    }

    fn foreground(&self) -> Option<u64> {
        *self.foreground.lock().unwrap()
    }

    fn ask(&self, hwnd: u64, action: WindowAction) -> Result<(), String> {
        self.log
            .lock()
            .unwrap()
            .push(format!("ask {action:?} 0x{hwnd:x}"));
        let mut windows = self.windows.lock().unwrap();
        let Some(window) = windows.iter_mut().find(|w| w.hwnd == hwnd) else {
            return Err("no such window".into());
        };
        match action {
            // A plain request from a background process: the foreground lock refuses it.
            WindowAction::Activate => {}
            WindowAction::Minimize => window.minimized = true,
            WindowAction::Maximize => window.maximized = true,
            WindowAction::Restore => (window.minimized, window.maximized) = (false, false),
            WindowAction::Close => windows.retain(|w| w.hwnd != hwnd),
        }
        Ok(())
    }

    fn activate(&self, hwnd: u64) -> Result<(), String> {
        self.log
            .lock()
            .unwrap()
            .push(format!("activate 0x{hwnd:x}"));
        if !self.locked && self.windows.lock().unwrap().iter().any(|w| w.hwnd == hwnd) {
            *self.foreground.lock().unwrap() = Some(hwnd);
        }
        Ok(())
    }
}

impl InputSink for Desk {
    fn screen(&self) -> Rect {
        Rect::new(0, 0, 1920, 1080)
    }

    fn send(&self, records: &[Record]) -> usize {
        let line: Vec<String> = records.iter().map(describe).collect();
        self.log
            .lock()
            .unwrap()
            .push(format!("send {}", line.join(", ")));
        records.len()
    }

    fn denied(&self, _aim: Aim) -> Option<(u64, String)> {
        None
    }

    fn target_layout(&self) -> Layout {
        Layout(FakeKeyboards::US)
    }

    fn vk_for(&self, c: char, layout: Layout) -> Option<(u16, bool)> {
        FakeKeyboards::vk_for(c, layout.0)
    }

    fn scan_of(&self, vk: u16, layout: Layout) -> Option<u16> {
        FakeKeyboards::scan_of(vk, layout.0)
    }

    fn cursor(&self) -> Option<(i32, i32)> {
        Some((0, 0))
    }
}

/// A record in a few words: `move`, `left down`, `key 0x41 up`, `char 'a' down`.
fn describe(record: &Record) -> String {
    match *record {
        Record::Key { vk, scan, flags } => {
            let up = if flags & plan::KEYEVENTF_KEYUP != 0 {
                "up"
            } else {
                "down"
            };
            match flags & plan::KEYEVENTF_UNICODE != 0 {
                true => format!("char {:?} {up}", char::from_u32(scan.into()).unwrap_or('?')),
                false => format!("key 0x{vk:x} {up}"),
            }
        }
        Record::Mouse { flags, data, .. } => {
            let names = [
                (plan::MOUSEEVENTF_MOVE, "move"),
                (plan::MOUSEEVENTF_LEFTDOWN, "left down"),
                (plan::MOUSEEVENTF_LEFTUP, "left up"),
                (plan::MOUSEEVENTF_RIGHTDOWN, "right down"),
                (plan::MOUSEEVENTF_RIGHTUP, "right up"),
                (plan::MOUSEEVENTF_WHEEL, "wheel"),
            ];
            let mut words: Vec<String> = names
                .into_iter()
                .filter(|(bit, _)| flags & bit != 0)
                .map(|(_, name)| name.to_owned())
                .collect();
            if flags & plan::MOUSEEVENTF_WHEEL != 0 {
                words.push(data.to_string());
            }
            words.join(" ")
        }
    }
}

/// The app's windows as the system lists them: shown, in front of nothing.
pub fn windows(pid: u32, windows: &[(u64, String, Rect)]) -> Vec<RawWindow> {
    windows
        .iter()
        .map(|(hwnd, title, bounds)| RawWindow {
            hwnd: *hwnd,
            pid,
            title: title.clone(),
            client: *bounds,
            frame: *bounds,
            visible: true,
            ..RawWindow::default()
        })
        .collect()
}
