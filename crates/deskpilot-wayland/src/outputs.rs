//! The compositor's outputs and where each sits in its layout (the coordinates that element
//! bounds, pointer motion and window positions share).

use deskpilot_platform::model::Rect;
use wayland_client::WEnum;
use wayland_client::protocol::wl_output;
use wayland_protocols::xdg::xdg_output::zv1::client::zxdg_output_v1;

/// One output: its logical rectangle in the layout (from xdg-output, else from its mode and
/// scale at its advertised position).
pub(crate) struct Output {
    pub(crate) wl: wl_output::WlOutput,
    position: Option<(i32, i32)>,
    mode: Option<(i32, i32)>,
    scale: i32,
    logical_position: Option<(i32, i32)>,
    logical_size: Option<(i32, i32)>,
}

impl Output {
    pub(crate) fn new(wl: wl_output::WlOutput) -> Self {
        Output {
            wl,
            position: None,
            mode: None,
            scale: 1,
            logical_position: None,
            logical_size: None,
        }
    }

    pub(crate) fn physical(&mut self, event: wl_output::Event) {
        match event {
            wl_output::Event::Geometry { x, y, .. } => self.position = Some((x, y)),
            wl_output::Event::Mode {
                flags: WEnum::Value(flags),
                width,
                height,
                ..
            } if flags.contains(wl_output::Mode::Current) => self.mode = Some((width, height)),
            wl_output::Event::Scale { factor } => self.scale = factor.max(1),
            _ => {}
        }
    }

    pub(crate) fn logical(&mut self, event: zxdg_output_v1::Event) {
        match event {
            zxdg_output_v1::Event::LogicalPosition { x, y } => self.logical_position = Some((x, y)),
            zxdg_output_v1::Event::LogicalSize { width, height } => {
                self.logical_size = Some((width, height))
            }
            _ => {}
        }
    }

    /// Where the output sits in the layout, in logical pixels; `None` before its geometry came.
    pub(crate) fn rect(&self) -> Option<Rect> {
        let (x, y) = self.logical_position.or(self.position)?;
        let (w, h) = self
            .logical_size
            .or(self.mode.map(|(w, h)| (w / self.scale, h / self.scale)))?;
        Some(Rect::new(x, y, w, h))
    }
}

/// The smallest rectangle holding every output: the layout a virtual pointer's absolute
/// motion spans.
pub(crate) fn layout(outputs: &[Output]) -> Option<Rect> {
    let rects: Vec<Rect> = outputs.iter().filter_map(Output::rect).collect();
    let x0 = rects.iter().map(|r| r.x).min()?;
    let y0 = rects.iter().map(|r| r.y).min()?;
    let x1 = rects.iter().map(|r| r.x + r.width).max()?;
    let y1 = rects.iter().map(|r| r.y + r.height).max()?;
    Some(Rect::new(x0, y0, x1 - x0, y1 - y0))
}
