//! Screenshots through X11 `GetImage` on the root window (what is on screen, window manager
//! decorations and overlapping windows included), converted to RGB.

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{CaptureError, Image, InputError, ScreenCapture};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, ImageFormat, ImageOrder, Window};
use x11rb::rust_connection::RustConnection;

use crate::input::X11Input;

fn display_error(e: impl std::fmt::Display) -> CaptureError {
    CaptureError::Display(e.to_string())
}

impl X11Input {
    /// Runs `read` on the connection under its timeout, every failure a capture error.
    async fn reading<T: Send + 'static>(
        &self,
        read: impl FnOnce(&RustConnection, Window) -> Result<T, CaptureError> + Send + 'static,
    ) -> Result<T, CaptureError> {
        match self
            .with_connection(move |conn, root| Ok(read(conn, root)))
            .await
        {
            Ok(read) => read,
            Err(InputError::Unavailable(why)) => Err(CaptureError::Unavailable(why)),
            Err(other) => Err(display_error(other)),
        }
    }
}

#[async_trait]
impl ScreenCapture for X11Input {
    async fn capture(&self, rect: Rect) -> Result<Image, CaptureError> {
        self.reading(move |conn, root| {
            let setup = conn.setup();
            let screen = setup
                .roots
                .iter()
                .find(|s| s.root == root)
                .ok_or_else(|| display_error("no screen"))?;
            let (sw, sh) = (
                i32::from(screen.width_in_pixels),
                i32::from(screen.height_in_pixels),
            );
            let x0 = rect.x.clamp(0, sw);
            let y0 = rect.y.clamp(0, sh);
            let x1 = (rect.x + rect.width).clamp(0, sw);
            let y1 = (rect.y + rect.height).clamp(0, sh);
            if x1 <= x0 || y1 <= y0 {
                return Err(display_error(format!("{rect:?} is off screen")));
            }
            let (w, h) = ((x1 - x0) as u16, (y1 - y0) as u16);
            let reply = conn
                .get_image(ImageFormat::Z_PIXMAP, root, x0 as i16, y0 as i16, w, h, !0)
                .map_err(display_error)?
                .reply()
                .map_err(display_error)?;
            let bpp = setup
                .pixmap_formats
                .iter()
                .find(|f| f.depth == reply.depth)
                .map(|f| f.bits_per_pixel)
                .unwrap_or(32);
            if bpp != 32 || reply.depth < 24 {
                return Err(display_error(format!(
                    "unsupported pixel format: depth {} at {bpp} bits per pixel",
                    reply.depth
                )));
            }
            let lsb = setup.image_byte_order == ImageOrder::LSB_FIRST;
            let (w, h) = (u32::from(w), u32::from(h));
            let stride = reply.data.len() / h as usize;
            let mut image = Image::new(w, h);
            for y in 0..h as usize {
                let row = &reply.data[y * stride..y * stride + w as usize * 4];
                let out = &mut image.rgb[y * w as usize * 3..(y + 1) * w as usize * 3];
                for (px, dst) in row.chunks_exact(4).zip(out.chunks_exact_mut(3)) {
                    // TrueColor 24-bit in 32: B G R X (LSB first) or X R G B.
                    if lsb {
                        dst.copy_from_slice(&[px[2], px[1], px[0]]);
                    } else {
                        dst.copy_from_slice(&[px[1], px[2], px[3]]);
                    }
                }
            }
            Ok(image)
        })
        .await
    }

    /// X11's root window starts at (0, 0).
    async fn screen_bounds(&self) -> Result<Rect, CaptureError> {
        self.reading(|conn, root| {
            let screen = conn
                .setup()
                .roots
                .iter()
                .find(|s| s.root == root)
                .ok_or_else(|| display_error("no screen"))?;
            Ok(Rect::new(
                0,
                0,
                i32::from(screen.width_in_pixels),
                i32::from(screen.height_in_pixels),
            ))
        })
        .await
    }
}
