//! `FakeWindows`: the system's window list as a test writes it.

use std::sync::Mutex;

use deskpilot_platform::WindowAction;

use crate::system_windows::{RawWindow, WindowApi};

/// A fixed window list; activation attached to the foreground thread succeeds, a plain
/// request is refused (the foreground lock of a background process).
pub struct FakeWindows {
    windows: Vec<RawWindow>,
    foreground: Mutex<Option<u64>>,
}

impl FakeWindows {
    pub fn new(windows: Vec<RawWindow>) -> Self {
        FakeWindows {
            windows,
            foreground: Mutex::default(),
        }
    }
}

impl WindowApi for FakeWindows {
    fn windows(&self) -> Result<Vec<RawWindow>, String> {
        Ok(self.windows.clone())
    }

    fn foreground(&self) -> Option<u64> {
        *self.foreground.lock().unwrap()
    }

    fn ask(&self, _hwnd: u64, _action: WindowAction) -> Result<(), String> {
        Ok(())
    }

    fn activate(&self, hwnd: u64) -> Result<(), String> {
        *self.foreground.lock().unwrap() = Some(hwnd);
        Ok(())
    }
}
