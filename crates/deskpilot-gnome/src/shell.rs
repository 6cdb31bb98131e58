//! gnome-shell's own interfaces: `Eval` (its JavaScript, which holds the window list) and
//! `Screenshot`. Outside its unsafe mode the shell keeps both to its own programs
//! (gnome-shell 43's `shellDBus.js` and its sender allowlist): deskpilot then says so.

use std::path::Path;

use crate::bus::{Bus, GnomeError, Target};

const SHELL: Target<'static> = Target {
    service: "org.gnome.Shell",
    path: "/org/gnome/Shell",
    interface: "org.gnome.Shell",
};
const SCREENSHOT: Target<'static> = Target {
    service: "org.gnome.Shell.Screenshot",
    path: "/org/gnome/Shell/Screenshot",
    interface: "org.gnome.Shell.Screenshot",
};

/// Why `Eval` and screenshots are refused to deskpilot.
pub(crate) const SAFE_MODE: &str = "gnome-shell lends its window list and screenshots to its own programs only (deskpilot needs the shell's unsafe mode for them)";

/// gnome-shell, as deskpilot asks it.
#[derive(Debug, Clone)]
pub(crate) struct Shell {
    bus: Bus,
}

impl Shell {
    pub(crate) fn new(bus: Bus) -> Self {
        Shell { bus }
    }

    /// Runs `script` in the shell; what it returned, as JSON.
    pub(crate) async fn eval(&self, script: &str) -> Result<serde_json::Value, GnomeError> {
        let (ran, said): (bool, String) = self.bus.call(SHELL, "Eval", &(script,)).await?;
        match (ran, said.as_str()) {
            // Refused outside unsafe mode: no error, nothing said.
            (false, "") => Err(GnomeError::Denied(SAFE_MODE.into())),
            (false, error) => Err(GnomeError::Failed(format!("gnome-shell: {error}"))),
            (true, "") => Ok(serde_json::Value::Null),
            (true, json) => serde_json::from_str(json)
                .map_err(|e| GnomeError::Failed(format!("gnome-shell answered {json:?}: {e}"))),
        }
    }

    /// Writes the screen's `(x, y, width, height)` to `file` as PNG.
    pub(crate) async fn screenshot(
        &self,
        area: (i32, i32, i32, i32),
        file: &Path,
    ) -> Result<(), GnomeError> {
        let file = file.to_string_lossy();
        let (x, y, width, height) = area;
        let body = (x, y, width, height, false, file.as_ref());
        let answer: Result<(bool, String), _> =
            self.bus.call(SCREENSHOT, "ScreenshotArea", &body).await;
        match answer {
            Ok((true, _)) => Ok(()),
            Ok((false, _)) => Err(GnomeError::Failed(
                "gnome-shell could not take the screenshot".into(),
            )),
            Err(GnomeError::Denied(_)) => Err(GnomeError::Denied(SAFE_MODE.into())),
            Err(e) => Err(e),
        }
    }
}
