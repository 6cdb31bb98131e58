//! The screen's pixels on Windows: a `BitBlt` of the virtual screen's region (`com/`),
//! clipped to the screen and converted here from GDI's top-down BGRA to the model's RGB.
//! A window another window covers draws its own content instead (`PrintWindow`), and the
//! capture says which it was.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{CaptureError, Cover, Image, ScreenCapture, WindowId, WindowImage};

use crate::system_windows::RawWindow;

/// The system calls behind the capture.
pub trait PixelSource: Send + Sync + 'static {
    /// The virtual screen (all monitors), in physical pixels.
    fn screen(&self) -> Rect;
    /// The pixels of `rect` (inside the screen), top-down BGRA, 4 bytes each.
    fn grab(&self, rect: Rect) -> Result<Vec<u8>, String>;
    /// The top-level windows in z-order, topmost first (`EnumWindows`' order).
    fn stack(&self) -> Result<Vec<RawWindow>, String>;
    /// `window` drawn by itself into a bitmap (`PrintWindow` with `PW_RENDERFULLCONTENT`):
    /// the screen rectangle it drew and its top-down BGRA pixels.
    fn print(&self, window: u64) -> Result<(Rect, Vec<u8>), String>;
    /// `window`'s DPI and its monitor's (`GetDpiForWindow`, `GetDpiForMonitor`).
    fn dpi(&self, window: u64) -> Result<Dpi, String>;
}

/// A window's DPI and the DPI of the monitor it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dpi {
    pub window: u32,
    pub monitor: u32,
}

/// `window` drawn by itself, when it draws at the screen's scale. A window at another DPI
/// than its monitor's (DPI-unaware, or system-aware on a monitor of another scale) draws at
/// its own, which Windows stretches on screen only (review C2).
fn printed<P: PixelSource>(pixels: &P, window: u64) -> Result<(Rect, Vec<u8>), String> {
    let dpi = pixels.dpi(window)?;
    if dpi.window != dpi.monitor {
        return Err(format!(
            "it draws at {} DPI on a monitor at {}",
            dpi.window, dpi.monitor
        ));
    }
    pixels.print(window)
}

/// The class of a menu's window (`#32768`): a top-level window of the app that opened it.
const MENU_CLASS: &str = "#32768";

/// Whether a window shown above `window` in `stack` overlaps `rect`; `None` when `window`
/// is not in the stack. The app's own popups are part of what it shows, never a cover
/// (review C1: a screenshot with a menu open was redrawn without the menu).
pub fn covered(stack: &[RawWindow], window: u64, rect: Rect) -> Option<bool> {
    let at = stack.iter().position(|w| w.hwnd == window)?;
    let target = &stack[at];
    Some(
        stack[..at]
            .iter()
            .filter(|w| w.visible && !w.cloaked && !w.minimized)
            .filter(|w| !own_popup(stack, w, target))
            .any(|w| clip(w.frame, rect).is_some()),
    )
}

/// Whether `w` is `target`'s own popup: of its process, and a menu, a tool window (a
/// drop-down, a tooltip) or a window it owns (a dialog), through the owners' chain.
fn own_popup(stack: &[RawWindow], w: &RawWindow, target: &RawWindow) -> bool {
    if w.pid != target.pid {
        return false;
    }
    let mut owner = w.owner;
    // Bounded by the stack: an owner chain has no cycle, a wrong list might.
    for _ in 0..stack.len() {
        match owner {
            Some(o) if o == target.hwnd => return true,
            Some(o) => owner = stack.iter().find(|x| x.hwnd == o).and_then(|x| x.owner),
            None => break,
        }
    }
    w.tool || w.class == MENU_CLASS
}

/// The `part` of a top-down BGRA bitmap that covers `drawn`, row by row.
pub fn crop(bgra: &[u8], drawn: Rect, part: Rect) -> Vec<u8> {
    let stride = drawn.width as usize * 4;
    let (dx, dy) = ((part.x - drawn.x) as usize, (part.y - drawn.y) as usize);
    (0..part.height as usize)
        .flat_map(|row| {
            let start = (dy + row) * stride + dx * 4;
            bgra[start..start + part.width as usize * 4].iter().copied()
        })
        .collect()
}

/// The screen's BGRA pixels of `rect` as an image.
fn grab_image<P: PixelSource>(pixels: &P, rect: Rect) -> Result<Image, String> {
    let screen = pixels.screen();
    let inside =
        clip(rect, screen).ok_or_else(|| format!("{rect:?} is not on the screen {screen:?}"))?;
    let bgra = pixels.grab(inside)?;
    image_of(&bgra, inside, "BitBlt")
}

fn image_of(bgra: &[u8], rect: Rect, call: &str) -> Result<Image, String> {
    let expected = rect.width as usize * rect.height as usize * 4;
    if bgra.len() != expected {
        return Err(format!("{call} gave {} bytes, not {expected}", bgra.len()));
    }
    Ok(Image {
        width: rect.width as u32,
        height: rect.height as u32,
        rgb: rgb_of_bgra(bgra),
    })
}

/// `window`'s pixels at `rect`: the screen's when nothing covers it, its own drawing when
/// something does, the screen's (said to show the cover) when it cannot draw itself.
fn window_image<P: PixelSource>(
    pixels: &P,
    window: u64,
    rect: Rect,
) -> Result<WindowImage, String> {
    let stack = pixels.stack()?;
    let on_screen = clip(rect, pixels.screen()).unwrap_or(rect);
    let cover = match covered(&stack, window, on_screen) {
        None => None,
        Some(false) => Some(Cover::Clear),
        Some(true) => {
            let drawn = printed(pixels, window).and_then(|(drawn, bgra)| {
                let part = clip(rect, drawn).ok_or("the window drew nothing of its bounds")?;
                image_of(&bgra, drawn, "PrintWindow")?;
                image_of(&crop(&bgra, drawn, part), part, "PrintWindow")
            });
            match drawn {
                Ok(image) => {
                    return Ok(WindowImage {
                        image,
                        cover: Some(Cover::Redrawn),
                    });
                }
                Err(why) => {
                    tracing::debug!(
                        "PrintWindow of {window:#x} failed ({why}): the screen's pixels"
                    );
                    Some(Cover::Shown)
                }
            }
        }
    };
    Ok(WindowImage {
        image: grab_image(pixels, rect)?,
        cover,
    })
}

/// `rect` clipped to `screen`; `None` when nothing of it is on the screen.
pub fn clip(rect: Rect, screen: Rect) -> Option<Rect> {
    let left = rect.x.max(screen.x);
    let top = rect.y.max(screen.y);
    let right = (rect.x + rect.width).min(screen.x + screen.width);
    let bottom = (rect.y + rect.height).min(screen.y + screen.height);
    (right > left && bottom > top).then(|| Rect::new(left, top, right - left, bottom - top))
}

/// GDI's BGRA pixels as RGB.
pub fn rgb_of_bgra(bgra: &[u8]) -> Vec<u8> {
    bgra.chunks_exact(4)
        .flat_map(|p| [p[2], p[1], p[0]])
        .collect()
}

/// The `ScreenCapture` over `P`.
pub struct GdiCapture<P> {
    pixels: Arc<P>,
    timeout: Duration,
}

impl<P: PixelSource> GdiCapture<P> {
    pub fn new(pixels: Arc<P>, timeout: Duration) -> Self {
        GdiCapture { pixels, timeout }
    }

    /// `grab` off the async threads, under the capture's deadline.
    async fn bounded<T: Send + 'static>(
        &self,
        grab: impl FnOnce(&P) -> Result<T, String> + Send + 'static,
    ) -> Result<T, CaptureError> {
        let pixels = self.pixels.clone();
        let grab = tokio::task::spawn_blocking(move || grab(&pixels));
        match tokio::time::timeout(self.timeout, grab).await {
            Ok(Ok(image)) => image.map_err(CaptureError::Display),
            Ok(Err(e)) => Err(CaptureError::Display(e.to_string())),
            Err(_) => Err(CaptureError::Display(
                "the capture did not return in time".into(),
            )),
        }
    }
}

#[async_trait]
impl<P: PixelSource> ScreenCapture for GdiCapture<P> {
    async fn capture(&self, rect: Rect) -> Result<Image, CaptureError> {
        self.bounded(move |pixels| grab_image(pixels, rect)).await
    }

    async fn screen_bounds(&self) -> Result<Rect, CaptureError> {
        Ok(self.pixels.screen())
    }

    async fn capture_window(
        &self,
        window: WindowId,
        rect: Rect,
    ) -> Result<WindowImage, CaptureError> {
        self.bounded(move |pixels| window_image(pixels, window.0, rect))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two monitors, the left one at negative x: the screen's pixels are BGR 1, 2, 3, and a
    /// window that draws itself draws each pixel's column and row into its red and green.
    #[derive(Default)]
    struct Striped {
        stack: Vec<RawWindow>,
        /// What `PrintWindow` draws: `None` fails.
        drawn: Option<Rect>,
        /// The window's DPI and its monitor's; none is 96 and 96.
        dpi: Option<(u32, u32)>,
    }

    impl PixelSource for Striped {
        fn screen(&self) -> Rect {
            Rect::new(-100, 0, 200, 50)
        }

        fn grab(&self, rect: Rect) -> Result<Vec<u8>, String> {
            // Blue-green-red-alpha, one colour per pixel.
            Ok((0..rect.width * rect.height)
                .flat_map(|_| [1u8, 2, 3, 255])
                .collect())
        }

        fn stack(&self) -> Result<Vec<RawWindow>, String> {
            Ok(self.stack.clone())
        }

        /// A window at another DPI than its monitor's draws at its own scale, into the top
        /// left of a bitmap of its size on screen; the rest stays black.
        fn print(&self, _window: u64) -> Result<(Rect, Vec<u8>), String> {
            let drawn = self.drawn.ok_or("PrintWindow failed")?;
            let (window, monitor) = self.dpi.unwrap_or((96, 96));
            let scaled = |n: i32| n * window as i32 / monitor as i32;
            let (w, h) = (scaled(drawn.width), scaled(drawn.height));
            let pixels = (0..drawn.height)
                .flat_map(|y| {
                    (0..drawn.width).flat_map(move |x| match x < w && y < h {
                        true => [0, y as u8, x as u8, 255],
                        false => [0, 0, 0, 255],
                    })
                })
                .collect();
            Ok((drawn, pixels))
        }

        fn dpi(&self, _window: u64) -> Result<Dpi, String> {
            let (window, monitor) = self.dpi.unwrap_or((96, 96));
            Ok(Dpi { window, monitor })
        }
    }

    fn window(hwnd: u64, frame: Rect) -> RawWindow {
        RawWindow {
            hwnd,
            frame,
            visible: true,
            ..RawWindow::default()
        }
    }

    /// A desk where window 2 at (0, 0) 40x20 lies under window 1 at `above`.
    fn desk(above: Rect, drawn: Option<Rect>) -> Striped {
        Striped {
            stack: vec![window(1, above), window(2, Rect::new(0, 0, 40, 20))],
            drawn,
            dpi: None,
        }
    }

    async fn shoot(desk: Striped) -> WindowImage {
        let capture = GdiCapture::new(Arc::new(desk), Duration::from_secs(1));
        capture
            .capture_window(WindowId(2), Rect::new(0, 0, 40, 20))
            .await
            .unwrap()
    }

    /// A window nothing covers is the screen's pixels, said clear; one a window above covers
    /// draws itself, cropped to its bounds and said redrawn; one that cannot draw itself is
    /// the screen's pixels, said to show the cover.
    #[tokio::test]
    async fn a_covered_window_draws_itself_and_says_so() {
        let beside = Rect::new(50, 0, 40, 20);
        let over = Rect::new(30, 10, 40, 20);
        let clear = shoot(desk(beside, Some(Rect::new(-5, -5, 50, 30)))).await;
        assert_eq!(clear.cover, Some(Cover::Clear));
        assert_eq!(&clear.image.rgb[..3], &[3, 2, 1]);

        let redrawn = shoot(desk(over, Some(Rect::new(-5, -5, 50, 30)))).await;
        assert_eq!(redrawn.cover, Some(Cover::Redrawn));
        assert_eq!((redrawn.image.width, redrawn.image.height), (40, 20));
        // The window's (0, 0) is the drawing's (5, 5): red 5, green 5.
        assert_eq!(&redrawn.image.rgb[..3], &[5, 5, 0]);
        let last = redrawn.image.rgb.len() - 3;
        assert_eq!(&redrawn.image.rgb[last..], &[44, 24, 0]);

        let shown = shoot(desk(over, None)).await;
        assert_eq!(shown.cover, Some(Cover::Shown));
        assert_eq!(&shown.image.rgb[..3], &[3, 2, 1]);
    }

    /// A covered window at another DPI than its monitor's draws itself at its own scale.
    /// So it is not redrawn, and the screen's pixels say they show the cover (review C2:
    /// its drawing was cropped as if at the screen's scale).
    #[tokio::test]
    async fn a_window_at_another_scale_is_not_redrawn() {
        let over = Rect::new(30, 10, 40, 20);
        let unaware = Striped {
            dpi: Some((96, 144)),
            ..desk(over, Some(Rect::new(-5, -5, 50, 30)))
        };
        let shot = shoot(unaware).await;
        let last = shot.image.rgb.len() - 3;
        assert_eq!(
            (shot.cover, &shot.image.rgb[last..]),
            (Some(Cover::Shown), &[3, 2, 1][..])
        );
    }

    /// What cannot be seen covers nothing (minimized, cloaked, hidden windows); a window not
    /// in the stack has no word on its cover.
    #[test]
    fn only_shown_windows_above_cover() {
        let over = Rect::new(30, 10, 40, 20);
        let target = Rect::new(0, 0, 40, 20);
        for hide in [
            |w: &mut RawWindow| w.minimized = true,
            |w: &mut RawWindow| w.cloaked = true,
            |w: &mut RawWindow| w.visible = false,
        ] {
            let mut stack = desk(over, None).stack;
            hide(&mut stack[0]);
            assert_eq!(covered(&stack, 2, target), Some(false));
        }
        let stack = desk(over, None).stack;
        assert_eq!(covered(&stack, 2, target), Some(true));
        assert_eq!(
            covered(&stack, 1, over),
            Some(false),
            "below covers nothing"
        );
        assert_eq!(covered(&stack, 9, target), None);
    }

    /// The app's own menu, drop-down and owned dialog above its window cover nothing: they
    /// are what it shows. Another app's window does, and so does the app's other main
    /// window, which is not part of this one.
    #[test]
    fn an_apps_own_popups_never_cover() {
        let target = Rect::new(0, 0, 40, 20);
        let over = Rect::new(30, 10, 40, 20);
        let of_app = |hwnd, edit: fn(&mut RawWindow)| {
            let mut w = window(hwnd, over);
            w.pid = 5;
            edit(&mut w);
            w
        };
        let mut main = window(2, target);
        main.pid = 5;
        let popups: [fn(&mut RawWindow); 3] = [
            |w| w.class = "#32768".into(),
            |w| w.tool = true,
            |w| w.owner = Some(2),
        ];
        for popup in popups {
            let stack = vec![of_app(1, popup), main.clone()];
            assert_eq!(covered(&stack, 2, target), Some(false));
        }
        let dialog_of_dialog = vec![
            of_app(3, |w| w.owner = Some(1)),
            of_app(1, |w| w.owner = Some(2)),
            main.clone(),
        ];
        assert_eq!(covered(&dialog_of_dialog, 2, target), Some(false));
        let other_window = vec![of_app(1, |_| {}), main.clone()];
        assert_eq!(covered(&other_window, 2, target), Some(true));
        let mut foreign_menu = of_app(1, |w| w.class = "#32768".into());
        foreign_menu.pid = 6;
        assert_eq!(covered(&[foreign_menu, main], 2, target), Some(true));
    }

    /// A region is clipped to the virtual screen (left of the primary monitor included) and
    /// its BGRA pixels come back RGB; a region off the screen is an error, not an image.
    #[tokio::test]
    async fn regions_clip_to_the_virtual_screen_and_come_back_rgb() {
        let capture = GdiCapture::new(Arc::new(Striped::default()), Duration::from_secs(1));
        let image = capture.capture(Rect::new(-120, -5, 30, 10)).await.unwrap();
        assert_eq!((image.width, image.height), (10, 5));
        assert_eq!(&image.rgb[..6], &[3, 2, 1, 3, 2, 1]);
        assert_eq!(capture.screen_bounds().await.unwrap().x, -100);
        assert!(capture.capture(Rect::new(500, 0, 10, 10)).await.is_err());
    }
}
