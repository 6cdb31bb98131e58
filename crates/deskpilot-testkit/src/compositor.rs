//! The Wayland compositor's own word, whichever it is (sway's tree, gnome-shell's): where a
//! window is, which one has the focus, and a capture of the screen taken without deskpilot.

use std::path::Path;

use crate::VirtualDesktop;

impl VirtualDesktop {
    fn on_gnome(&self) -> bool {
        self.wayland().is_some_and(|w| w.gnome)
    }

    /// The rectangles native apps' bounds may count from (sway: the content; GNOME: the
    /// surface, or the frame inside the shadows).
    pub fn compositor_window(&self, title: &str) -> Vec<(i32, i32, i32, i32)> {
        match self.on_gnome() {
            true => self
                .gnome_window(title)
                .map_or(Vec::new(), |w| vec![w.buffer, w.frame]),
            false => self
                .sway_window(title)
                .map(|w| w.content)
                .into_iter()
                .collect(),
        }
    }

    /// The title of the window the compositor has focused.
    pub fn compositor_focused(&self) -> Option<String> {
        match self.on_gnome() {
            true => self.gnome_focused(),
            false => self.sway_focused(),
        }
    }

    /// The compositor's capture of `(x, y, width, height)` into `file` (`grim` on sway);
    /// `Err`: what it said.
    pub fn compositor_capture(
        &self,
        area: (i32, i32, i32, i32),
        file: &Path,
    ) -> Result<(), String> {
        if self.on_gnome() {
            return self.gnome_screenshot(area, file);
        }
        let (x, y, w, h) = area;
        let out = self
            .command("grim")
            .args(["-g", &format!("{x},{y} {w}x{h}")])
            .arg(file)
            .output()
            .map_err(|e| e.to_string())?;
        match out.status.success() {
            true => Ok(()),
            false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
        }
    }
}
