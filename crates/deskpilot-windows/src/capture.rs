//! The screen's pixels on Windows: a `BitBlt` of the virtual screen's region (`com/`),
//! clipped to the screen and converted here from GDI's top-down BGRA to the model's RGB.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{Image, InputError, ScreenCapture};

/// The system calls behind the capture.
pub trait PixelSource: Send + Sync + 'static {
    /// The virtual screen (all monitors), in physical pixels.
    fn screen(&self) -> Rect;
    /// The pixels of `rect` (inside the screen), top-down BGRA, 4 bytes each.
    fn grab(&self, rect: Rect) -> Result<Vec<u8>, String>;
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
}

#[async_trait]
impl<P: PixelSource> ScreenCapture for GdiCapture<P> {
    async fn capture(&self, rect: Rect) -> Result<Image, InputError> {
        let pixels = self.pixels.clone();
        let grab = tokio::task::spawn_blocking(move || {
            let screen = pixels.screen();
            let inside = clip(rect, screen)
                .ok_or_else(|| format!("{rect:?} is not on the screen {screen:?}"))?;
            let bgra = pixels.grab(inside)?;
            let expected = inside.width as usize * inside.height as usize * 4;
            if bgra.len() != expected {
                return Err(format!("BitBlt gave {} bytes, not {expected}", bgra.len()));
            }
            Ok(Image {
                width: inside.width as u32,
                height: inside.height as u32,
                rgb: rgb_of_bgra(&bgra),
            })
        });
        match tokio::time::timeout(self.timeout, grab).await {
            Ok(Ok(image)) => image.map_err(InputError::Display),
            Ok(Err(e)) => Err(InputError::Display(e.to_string())),
            Err(_) => Err(InputError::Display(
                "the capture did not return in time".into(),
            )),
        }
    }

    async fn screen_bounds(&self) -> Result<Rect, InputError> {
        Ok(self.pixels.screen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two monitors, the left one at negative x: pixels come back as RGB.
    struct Striped;

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
    }

    /// A region is clipped to the virtual screen (left of the primary monitor included) and
    /// its BGRA pixels come back RGB; a region off the screen is an error, not an image.
    #[tokio::test]
    async fn regions_clip_to_the_virtual_screen_and_come_back_rgb() {
        let capture = GdiCapture::new(Arc::new(Striped), Duration::from_secs(1));
        let image = capture.capture(Rect::new(-120, -5, 30, 10)).await.unwrap();
        assert_eq!((image.width, image.height), (10, 5));
        assert_eq!(&image.rgb[..6], &[3, 2, 1, 3, 2, 1]);
        assert_eq!(capture.screen_bounds().await.unwrap().x, -100);
        assert!(capture.capture(Rect::new(500, 0, 10, 10)).await.is_err());
    }
}
