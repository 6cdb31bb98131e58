//! Screenshots through `zwlr_screencopy_manager_v1`: each output under the rectangle copies
//! its part into a shared-memory buffer, read back from the file behind it.

use std::os::fd::AsFd;
use std::os::unix::fs::FileExt;
use std::time::Instant;

use deskpilot_platform::Image;
use deskpilot_platform::model::Rect;
use wayland_client::protocol::{wl_buffer, wl_shm, wl_shm_pool};
use wayland_client::{Connection, Dispatch, Proxy, QueueHandle, WEnum};
use wayland_protocols_wlr::screencopy::v1::client::zwlr_screencopy_frame_v1::{
    self, ZwlrScreencopyFrameV1,
};

use crate::client::{Client, ClientError, Frame, State};

/// The pixels of `rect` (layout coordinates), every output under it copied in.
pub(crate) fn capture(
    client: &mut Client,
    rect: Rect,
    deadline: Instant,
) -> Result<Image, ClientError> {
    let parts: Vec<(usize, Rect)> = client
        .state
        .outputs
        .iter()
        .enumerate()
        .filter_map(|(i, o)| Some((i, intersection(o.rect()?, rect)?)))
        .collect();
    if parts.is_empty() {
        return Err(ClientError::Failed(format!("{rect:?} is off every output")));
    }
    let mut image = Image::new(rect.width as u32, rect.height as u32);
    for (index, part) in parts {
        let origin = client.state.outputs[index].rect().expect("filtered above");
        let local = part.offset(-origin.x, -origin.y);
        let piece = copy_region(client, index, local, deadline)?;
        blit(&mut image, &piece, part.x - rect.x, part.y - rect.y);
    }
    Ok(image)
}

/// One output's `local` region, scaled to logical pixels.
fn copy_region(
    client: &mut Client,
    output: usize,
    local: Rect,
    deadline: Instant,
) -> Result<Image, ClientError> {
    let manager = client
        .globals
        .screencopy
        .clone()
        .ok_or_else(|| ClientError::Unavailable("the compositor has no screencopy".into()))?;
    let shm = client
        .globals
        .shm
        .clone()
        .ok_or_else(|| ClientError::Unavailable("the compositor has no wl_shm".into()))?;
    client.state.frame = Frame::default();
    let wl = client.state.outputs[output].wl.clone();
    let frame = manager.capture_output_region(
        0,
        &wl,
        local.x,
        local.y,
        local.width,
        local.height,
        &client.qh,
        (),
    );
    let v3 = manager.version() >= 3;
    client.dispatch_until(deadline, |s| {
        s.frame.failed || (s.frame.buffer.is_some() && (s.frame.buffer_done || !v3))
    })?;
    let Some((format, width, height, stride)) = client
        .state
        .frame
        .buffer
        .filter(|_| !client.state.frame.failed)
    else {
        frame.destroy();
        return Err(ClientError::Failed(
            "the compositor refused the capture".into(),
        ));
    };
    let size = stride as usize * height as usize;
    let file = tempfile::tempfile().map_err(failed)?;
    file.set_len(size as u64).map_err(failed)?;
    let pool = shm.create_pool(file.as_fd(), size as i32, &client.qh, ());
    let buffer = pool.create_buffer(
        0,
        width as i32,
        height as i32,
        stride as i32,
        shm_format(format),
        &client.qh,
        (),
    );
    frame.copy(&buffer);
    let copied = client.dispatch_until(deadline, |s| s.frame.ready || s.frame.failed);
    frame.destroy();
    buffer.destroy();
    pool.destroy();
    copied?;
    if client.state.frame.failed {
        return Err(ClientError::Failed("the compositor failed the copy".into()));
    }
    let mut bytes = vec![0; size];
    file.read_exact_at(&mut bytes, 0).map_err(failed)?;
    let pixels = Pixels {
        bytes: &bytes,
        format,
        width,
        height,
        stride,
        y_invert: client.state.frame.y_invert,
    };
    let image = pixels.to_image()?;
    Ok(scaled(image, local.width as u32, local.height as u32))
}

fn shm_format(format: u32) -> wl_shm::Format {
    wl_shm::Format::try_from(format).unwrap_or(wl_shm::Format::Xrgb8888)
}

fn failed(e: impl std::fmt::Display) -> ClientError {
    ClientError::Failed(format!("screencopy buffer: {e}"))
}

/// A copied buffer as the compositor wrote it.
struct Pixels<'a> {
    bytes: &'a [u8],
    format: u32,
    width: u32,
    height: u32,
    stride: u32,
    y_invert: bool,
}

impl Pixels<'_> {
    fn to_image(&self) -> Result<Image, ClientError> {
        // Little-endian 32-bit words: ARGB/XRGB lie B G R in memory, ABGR/XBGR R G B.
        let bgr = match wl_shm::Format::try_from(self.format) {
            Ok(wl_shm::Format::Argb8888 | wl_shm::Format::Xrgb8888) => true,
            Ok(wl_shm::Format::Abgr8888 | wl_shm::Format::Xbgr8888) => false,
            _ => {
                return Err(ClientError::Failed(format!(
                    "unsupported pixel format {:#x}",
                    self.format
                )));
            }
        };
        let mut image = Image::new(self.width, self.height);
        let w = self.width as usize;
        for y in 0..self.height as usize {
            let source = if self.y_invert {
                self.height as usize - 1 - y
            } else {
                y
            };
            let row = &self.bytes[source * self.stride as usize..][..w * 4];
            let out = &mut image.rgb[y * w * 3..(y + 1) * w * 3];
            for (px, dst) in row.chunks_exact(4).zip(out.chunks_exact_mut(3)) {
                if bgr {
                    dst.copy_from_slice(&[px[2], px[1], px[0]]);
                } else {
                    dst.copy_from_slice(&px[..3]);
                }
            }
        }
        Ok(image)
    }
}

/// `image` resized to `width` x `height` by nearest pixel (a scaled output copies more
/// pixels than its logical size).
fn scaled(image: Image, width: u32, height: u32) -> Image {
    if image.width == width && image.height == height {
        return image;
    }
    let mut out = Image::new(width, height);
    for y in 0..height as usize {
        let sy = y * image.height as usize / height.max(1) as usize;
        for x in 0..width as usize {
            let sx = x * image.width as usize / width.max(1) as usize;
            let from = (sy * image.width as usize + sx) * 3;
            out.rgb[(y * width as usize + x) * 3..][..3]
                .copy_from_slice(&image.rgb[from..from + 3]);
        }
    }
    out
}

/// Copies `piece` into `image` at (x, y).
fn blit(image: &mut Image, piece: &Image, x: i32, y: i32) {
    let w = image.width as usize;
    for row in 0..piece.height as usize {
        let ty = y as usize + row;
        if ty >= image.height as usize {
            break;
        }
        let n = (piece.width as usize).min(w.saturating_sub(x as usize));
        let from = &piece.rgb[row * piece.width as usize * 3..][..n * 3];
        image.rgb[(ty * w + x as usize) * 3..][..n * 3].copy_from_slice(from);
    }
}

pub(crate) fn intersection(a: Rect, b: Rect) -> Option<Rect> {
    let x0 = a.x.max(b.x);
    let y0 = a.y.max(b.y);
    let x1 = (a.x + a.width).min(b.x + b.width);
    let y1 = (a.y + a.height).min(b.y + b.height);
    (x1 > x0 && y1 > y0).then(|| Rect::new(x0, y0, x1 - x0, y1 - y0))
}

impl Dispatch<ZwlrScreencopyFrameV1, ()> for State {
    fn event(
        state: &mut Self,
        _: &ZwlrScreencopyFrameV1,
        event: zwlr_screencopy_frame_v1::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let frame = &mut state.frame;
        match event {
            zwlr_screencopy_frame_v1::Event::Buffer {
                format,
                width,
                height,
                stride,
            } => {
                let format = match format {
                    WEnum::Value(f) => f.into(),
                    WEnum::Unknown(f) => f,
                };
                frame.buffer = Some((format, width, height, stride));
            }
            zwlr_screencopy_frame_v1::Event::BufferDone => frame.buffer_done = true,
            zwlr_screencopy_frame_v1::Event::Flags { flags } => {
                frame.y_invert = matches!(flags, WEnum::Value(f) if f.contains(zwlr_screencopy_frame_v1::Flags::YInvert));
            }
            zwlr_screencopy_frame_v1::Event::Ready { .. } => frame.ready = true,
            zwlr_screencopy_frame_v1::Event::Failed => frame.failed = true,
            _ => {}
        }
    }
}

wayland_client::delegate_noop!(State: ignore wl_shm_pool::WlShmPool);
wayland_client::delegate_noop!(State: ignore wl_buffer::WlBuffer);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xrgb_words_become_rgb_and_an_inverted_copy_is_turned_back() {
        // Two rows of one pixel: red then blue, in memory B G R X, stride 8 (padding).
        let bytes = [0, 0, 255, 0, 9, 9, 9, 9, 255, 0, 0, 0, 9, 9, 9, 9];
        let format: u32 = wl_shm::Format::Xrgb8888.into();
        let pixels = Pixels {
            bytes: &bytes,
            format,
            width: 1,
            height: 2,
            stride: 8,
            y_invert: false,
        };
        assert_eq!(pixels.to_image().unwrap().rgb, vec![255, 0, 0, 0, 0, 255]);
        let inverted = Pixels {
            y_invert: true,
            ..pixels
        };
        assert_eq!(inverted.to_image().unwrap().rgb, vec![0, 0, 255, 255, 0, 0]);
    }

    #[test]
    fn a_rectangle_across_two_outputs_is_cut_at_their_edge() {
        let left = Rect::new(0, 0, 100, 50);
        let right = Rect::new(100, 0, 100, 50);
        let shot = Rect::new(90, 10, 20, 20);
        assert_eq!(intersection(left, shot), Some(Rect::new(90, 10, 10, 20)));
        assert_eq!(intersection(right, shot), Some(Rect::new(100, 10, 10, 20)));
        assert_eq!(intersection(left, Rect::new(100, 0, 5, 5)), None);
    }
}
