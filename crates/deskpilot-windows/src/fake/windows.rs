//! `FakeWindows`: the system's window list as a test writes it.

use std::sync::Mutex;

use deskpilot_platform::WindowAction;

use crate::system_windows::{RawWindow, WindowApi};

/// A fixed window list; activation always succeeds.
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

    fn ask(&self, hwnd: u64, action: WindowAction) -> Result<(), String> {
        if action == WindowAction::Activate {
            *self.foreground.lock().unwrap() = Some(hwnd);
        }
        Ok(())
    }
}
