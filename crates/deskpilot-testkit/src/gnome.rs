//! gnome-shell's own view, asked with `gdbus` (not deskpilot): its windows, which one has the
//! focus, its screenshots and the pointer's buttons. An oracle for the GNOME tests; the test
//! desktop runs the shell in unsafe mode, which opens `Eval` and `Screenshot` to it.

use std::path::Path;

use serde::Deserialize;

use crate::VirtualDesktop;

/// A window as gnome-shell has it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GnomeWindow {
    pub title: String,
    pub focused: bool,
    pub minimized: bool,
    /// Its surface (shadows included): what native apps' window-relative bounds count from.
    pub buffer: (i32, i32, i32, i32),
    /// The window as it shows (`get_frame_rect`).
    pub frame: (i32, i32, i32, i32),
}

const WINDOWS: &str = "global.get_window_actors().map(a => a.meta_window).map(w => { \
    const b = w.get_buffer_rect(); const f = w.get_frame_rect(); \
    return { title: w.get_title() || '', focused: w.has_focus(), minimized: w.minimized, \
    buffer: [b.x, b.y, b.width, b.height], frame: [f.x, f.y, f.width, f.height] }; })";

/// gdbus's text of a string (`'...'`, with `\\` and `\'` escaped) as the string.
fn unquoted(text: &str) -> Option<String> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            c => out.push(c),
        }
    }
    Some(out)
}

impl VirtualDesktop {
    fn gdbus(&self, service: &str, path: &str, method: &str) -> std::process::Command {
        let mut cmd = self.command("gdbus");
        cmd.args(["call", "--session", "--timeout=5"])
            .arg(format!("--dest={service}"))
            .arg(format!("--object-path={path}"))
            .arg(format!("--method={method}"));
        cmd
    }

    /// What `script` returned in gnome-shell, as JSON; `None` when it failed.
    pub fn gnome_eval(&self, script: &str) -> Option<serde_json::Value> {
        let out = self
            .gdbus(
                "org.gnome.Shell",
                "/org/gnome/Shell",
                "org.gnome.Shell.Eval",
            )
            .arg(script)
            .output()
            .ok()?;
        let said = String::from_utf8_lossy(&out.stdout);
        let json = said.trim().strip_prefix("(true, ")?.strip_suffix(')')?;
        serde_json::from_str(&unquoted(json)?).ok()
    }

    /// Every window gnome-shell manages.
    pub fn gnome_windows(&self) -> Vec<GnomeWindow> {
        self.gnome_eval(WINDOWS)
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default()
    }

    /// The window titled `title`, as gnome-shell has it.
    pub fn gnome_window(&self, title: &str) -> Option<GnomeWindow> {
        self.gnome_windows().into_iter().find(|w| w.title == title)
    }

    /// The title of the window gnome-shell has focused.
    pub fn gnome_focused(&self) -> Option<String> {
        self.gnome_windows()
            .into_iter()
            .find(|w| w.focused)
            .map(|w| w.title)
    }

    /// How many remote desktop sessions mutter runs (the desktop's own seat holds one).
    pub fn gnome_remote_sessions(&self) -> usize {
        let out = self
            .command("gdbus")
            .args([
                "introspect",
                "--session",
                "--dest=org.gnome.Mutter.RemoteDesktop",
            ])
            .arg("--object-path=/org/gnome/Mutter/RemoteDesktop/Session")
            .output();
        let said = out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
        said.unwrap_or_default()
            .lines()
            .filter(|l| l.trim_start().starts_with("node u"))
            .count()
    }

    /// The buttons gnome-shell sees held down (Clutter's BUTTON1..5 masks, bits 8 to 12).
    pub fn gnome_buttons_down(&self) -> Option<u64> {
        let pointer = self.gnome_eval("global.get_pointer()")?;
        Some(pointer.get(2)?.as_u64()? & 0x1f00)
    }

    /// gnome-shell's screenshot of `(x, y, width, height)` into `file`; `Err`: what gdbus said.
    pub fn gnome_screenshot(&self, area: (i32, i32, i32, i32), file: &Path) -> Result<(), String> {
        let (x, y, w, h) = area;
        let out = self
            .gdbus(
                "org.gnome.Shell.Screenshot",
                "/org/gnome/Shell/Screenshot",
                "org.gnome.Shell.Screenshot.ScreenshotArea",
            )
            // Typed, so that gdbus does not read a negative number as an option.
            .args([x, y, w, h].map(|n| format!("@i {n}")))
            .args(["false", &file.to_string_lossy()])
            .output()
            .map_err(|e| e.to_string())?;
        match String::from_utf8_lossy(&out.stdout).starts_with("(true,") {
            true => Ok(()),
            false => Err(format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gdbus_strings_are_unquoted() {
        assert_eq!(unquoted(r"'[1, \'a\']'").as_deref(), Some("[1, 'a']"));
        assert_eq!(unquoted(r"'a\\b'").as_deref(), Some(r"a\b"));
        assert_eq!(unquoted("no quotes"), None);
    }
}
