//! What the engine drives beside its backend, as the wiring found it: synthetic input, the
//! window system, screenshots, a launcher, and what to say of the desktop. Every part is
//! optional; a missing one refuses with what the wiring knows of why.

use std::sync::Arc;

use crate::error::{Code, Error, Result};
use crate::platform::{InputDevice, Launcher, ScreenCapture, WindowSystem};

/// Why a device (synthetic input, screenshots) is missing, as the wiring knows it.
#[derive(Debug, Clone)]
pub struct DevicesMissing {
    pub why: String,
    pub hint: String,
}

impl Default for DevicesMissing {
    fn default() -> Self {
        DevicesMissing {
            why: "deskpilot has no display to send input to or read pixels from".into(),
            hint: "semantic actions still work; input and screenshots need a display".into(),
        }
    }
}

/// The devices and words of one desktop, built as a struct literal over `Default`.
#[derive(Default)]
pub struct Wiring {
    /// Synthetic input, when the display offers it.
    pub input: Option<Arc<dyn InputDevice>>,
    /// The display's windows and their manager, when there is one.
    pub windows: Option<Arc<dyn WindowSystem>>,
    /// The display's pixels, when it offers them.
    pub capture: Option<Arc<dyn ScreenCapture>>,
    /// Starts programs on the desktop.
    pub launcher: Option<Arc<dyn Launcher>>,
    /// What to say when input or capture is asked for and missing.
    pub missing: DevicesMissing,
    /// How the desktop was found, when it was not given (listed with the apps).
    pub note: Option<String>,
    /// Which desktop this is, in a few words (an HTTP server's `/healthz` says it).
    pub name: Option<String>,
}

impl Wiring {
    /// The launcher, or `unsupported` when there is none.
    pub fn launcher(&self) -> Result<&Arc<dyn Launcher>> {
        self.launcher.as_ref().ok_or_else(|| {
            Error::new(
                Code::Unsupported,
                "this deskpilot cannot start programs",
                "start the app yourself, then `list_apps` and `connect`",
            )
        })
    }

    /// The screen capture, or `input_unavailable` when there is none.
    pub fn capture_device(&self) -> Result<&Arc<dyn ScreenCapture>> {
        let found = self.capture.as_ref();
        found.ok_or_else(|| self.unavailable("no screenshots here"))
    }

    /// The input device, or `input_unavailable` when there is none.
    pub fn input_device(&self) -> Result<&Arc<dyn InputDevice>> {
        let found = self.input.as_ref();
        found.ok_or_else(|| self.unavailable("no synthetic input here"))
    }

    /// The window system, or `input_unavailable` when there is none.
    pub fn window_system(&self) -> Result<&Arc<dyn WindowSystem>> {
        let found = self.windows.as_ref();
        found.ok_or_else(|| self.unavailable("no window system here"))
    }

    /// `input_unavailable`, with what the wiring knows of why.
    fn unavailable(&self, what: &str) -> Error {
        Error::new(
            Code::InputUnavailable,
            format!("{what}: {}", self.missing.why),
            self.missing.hint.clone(),
        )
    }
}
