//! `ShellCapture`: the contract's `ScreenCapture` through gnome-shell's `Screenshot`, which
//! writes a PNG file: written in a directory of deskpilot's own, read, then removed.

use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{CaptureError, Image, ScreenCapture};

use crate::bus::GnomeError;
use crate::shell::Shell;

/// Screenshots of one gnome-shell's screen.
#[derive(Debug)]
pub struct ShellCapture {
    shell: Shell,
    screen: Rect,
    dir: tempfile::TempDir,
    taken: AtomicU64,
}

impl ShellCapture {
    pub(crate) fn new(shell: Shell, screen: Rect) -> Result<Self, GnomeError> {
        let mut dir = tempfile::Builder::new();
        dir.prefix("deskpilot-shots-");
        let dir = match std::env::var_os("XDG_RUNTIME_DIR") {
            Some(runtime) => dir.tempdir_in(runtime),
            None => dir.tempdir(),
        }
        .map_err(|e| GnomeError::Failed(format!("a directory for screenshots: {e}")))?;
        Ok(ShellCapture {
            shell,
            screen,
            dir,
            taken: AtomicU64::new(0),
        })
    }
}

fn capture_error(e: GnomeError) -> CaptureError {
    match e {
        GnomeError::Denied(why) | GnomeError::Missing(why) => CaptureError::Unavailable(why),
        GnomeError::Failed(why) => CaptureError::Display(why),
    }
}

#[async_trait]
impl ScreenCapture for ShellCapture {
    async fn capture(&self, rect: Rect) -> Result<Image, CaptureError> {
        let Some(area) = rect.intersection(&self.screen) else {
            return Err(CaptureError::Display(format!(
                "{rect:?} is outside the screen {:?}",
                self.screen
            )));
        };
        let n = self.taken.fetch_add(1, Ordering::Relaxed);
        let file = self.dir.path().join(format!("shot-{n}.png"));
        let taken = self
            .shell
            .screenshot((area.x, area.y, area.width, area.height), &file)
            .await;
        let read = taken.map_err(capture_error).and_then(|()| {
            std::fs::read(&file).map_err(|e| CaptureError::Display(format!("the screenshot: {e}")))
        });
        let _ = std::fs::remove_file(&file);
        Image::from_png(&read?)
            .ok_or_else(|| CaptureError::Display("gnome-shell's screenshot is no RGB PNG".into()))
    }

    async fn screen_bounds(&self) -> Result<Rect, CaptureError> {
        Ok(self.screen)
    }
}
