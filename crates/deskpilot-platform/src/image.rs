//! An RGB image: scaling, annotation (boxes and ref labels), PNG encoding.

use super::font;
use crate::model::Rect;

/// 8-bit RGB pixels, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

/// A box to draw, with its label (a ref such as `e12`), in image coordinates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub rect: Rect,
    pub text: String,
}

const BOX: [u8; 3] = [230, 0, 120];
/// Tabs are near black with white text: the highest contrast on any background.
const TAB: [u8; 3] = [20, 20, 20];
const TEXT: [u8; 3] = [255, 255, 255];
/// Space around a tab's text.
const PAD: i32 = 2;

/// Where each label's tab goes (`None`: no free place), in the order given.
pub fn place_tabs(labels: &[Label], width: i32, height: i32) -> Vec<Option<Rect>> {
    let mut placed: Vec<Rect> = Vec::new();
    let mut out = Vec::with_capacity(labels.len());
    for label in labels {
        let r = label.rect;
        if r.is_empty() {
            out.push(None);
            continue;
        }
        let (w, h) = (font::width(&label.text) + 2 * PAD, font::HEIGHT + 2 * PAD);
        let right = r.x + r.width - w;
        let bottom = r.y + r.height - h;
        // Outside first: above (left, right), below (left, right), beside (left, right of
        // the top); then inside the top-left and bottom-right corners.
        let candidates = [
            (r.x, r.y - h),
            (right, r.y - h),
            (r.x, r.y + r.height),
            (right, r.y + r.height),
            (r.x - w, r.y),
            (r.x + r.width, r.y),
            (r.x, r.y),
            (right, bottom),
        ];
        let fits = |tab: &Rect| {
            tab.x >= 0
                && tab.y >= 0
                && tab.x + tab.width <= width
                && tab.y + tab.height <= height
                && !placed.iter().any(|p| p.intersects(tab))
        };
        // Best where it covers no other labelled element either (the text of the next row
        // of a list); else the first free place.
        let clear = |tab: &Rect| {
            !labels
                .iter()
                .any(|other| other.rect != r && other.rect.intersects(tab))
        };
        let tabs = candidates.iter().map(|&(x, y)| Rect::new(x, y, w, h));
        let free = tabs
            .clone()
            .find(|tab| fits(tab) && clear(tab))
            .or_else(|| tabs.clone().find(|tab| fits(tab)));
        if let Some(tab) = free {
            placed.push(tab);
        }
        out.push(free);
    }
    out
}

impl Image {
    pub fn new(width: u32, height: u32) -> Self {
        Image {
            width,
            height,
            rgb: vec![0; width as usize * height as usize * 3],
        }
    }

    fn put(&mut self, x: i32, y: i32, color: [u8; 3]) {
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        self.rgb[i..i + 3].copy_from_slice(&color);
    }

    fn fill(&mut self, x: i32, y: i32, w: i32, h: i32, color: [u8; 3]) {
        for yy in y.max(0)..(y + h).min(self.height as i32) {
            for xx in x.max(0)..(x + w).min(self.width as i32) {
                self.put(xx, yy, color);
            }
        }
    }

    /// Scales down (box filter) so that neither side exceeds `max_side`; returns the factor
    /// applied (1.0 when already small enough).
    pub fn fit(&mut self, max_side: u32) -> f64 {
        let longest = self.width.max(self.height);
        if longest <= max_side || max_side == 0 {
            return 1.0;
        }
        let scale = f64::from(max_side) / f64::from(longest);
        let (w, h) = (
            ((f64::from(self.width) * scale).round() as u32).max(1),
            ((f64::from(self.height) * scale).round() as u32).max(1),
        );
        let mut out = Image::new(w, h);
        for y in 0..h {
            let (y0, y1) = span(y, h, self.height);
            for x in 0..w {
                let (x0, x1) = span(x, w, self.width);
                let mut sum = [0u32; 3];
                for sy in y0..y1 {
                    let row = sy as usize * self.width as usize;
                    for sx in x0..x1 {
                        let i = (row + sx as usize) * 3;
                        for (total, &channel) in sum.iter_mut().zip(&self.rgb[i..i + 3]) {
                            *total += u32::from(channel);
                        }
                    }
                }
                let n = ((y1 - y0) * (x1 - x0)).max(1);
                let i = (y as usize * w as usize + x as usize) * 3;
                for (dst, total) in out.rgb[i..i + 3].iter_mut().zip(sum) {
                    *dst = (total / n) as u8;
                }
            }
        }
        *self = out;
        scale
    }

    /// Draws each label's box (1 px outline) and its text on a dark tab placed at a corner
    /// outside the box where there is room (above, below, then beside it), never over another
    /// tab; inside the box's top-left corner when nothing outside is free. A label with no free
    /// place at all is left out. Returns how many labels were drawn.
    pub fn annotate(&mut self, labels: &[Label]) -> usize {
        for label in labels {
            let r = label.rect;
            if r.is_empty() {
                continue;
            }
            self.fill(r.x, r.y, r.width, 1, BOX);
            self.fill(r.x, r.y + r.height - 1, r.width, 1, BOX);
            self.fill(r.x, r.y, 1, r.height, BOX);
            self.fill(r.x + r.width - 1, r.y, 1, r.height, BOX);
        }
        let tabs = place_tabs(labels, self.width as i32, self.height as i32);
        for (label, tab) in labels.iter().zip(&tabs) {
            let Some(tab) = tab else { continue };
            self.fill(tab.x, tab.y, tab.width, tab.height, TAB);
            font::draw(&label.text, |dx, dy| {
                self.put(tab.x + PAD + dx, tab.y + PAD + dy, TEXT);
            });
        }
        tabs.iter().filter(|t| t.is_some()).count()
    }

    /// PNG, fast compression.
    pub fn to_png(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.rgb.len() / 4);
        {
            let mut encoder = png::Encoder::new(&mut out, self.width, self.height);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.set_compression(png::Compression::Fast);
            let mut writer = encoder.write_header().expect("PNG header into memory");
            writer
                .write_image_data(&self.rgb)
                .expect("PNG data into memory");
        }
        out
    }

    /// An 8-bit RGB or RGBA PNG's pixels (alpha dropped); `None` for anything else.
    pub fn from_png(bytes: &[u8]) -> Option<Image> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().ok()?;
        let mut buffer = vec![0; reader.output_buffer_size()?];
        let frame = reader.next_frame(&mut buffer).ok()?;
        let channels = match (frame.color_type, frame.bit_depth) {
            (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
            (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
            _ => return None,
        };
        let pixels = &buffer[..frame.buffer_size()];
        let rgb = pixels
            .chunks_exact(channels)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        Some(Image {
            width: frame.width,
            height: frame.height,
            rgb,
        })
    }
}

/// The source range [start, end) that destination index `i` of `n` covers out of `total`.
fn span(i: u32, n: u32, total: u32) -> (u32, u32) {
    let start = (u64::from(i) * u64::from(total) / u64::from(n)) as u32;
    let end = ((u64::from(i) + 1) * u64::from(total) / u64::from(n)) as u32;
    (start, end.max(start + 1).min(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_read_back_has_the_pixels_written() {
        let mut img = Image::new(3, 2);
        img.rgb
            .iter_mut()
            .enumerate()
            .for_each(|(i, c)| *c = i as u8);
        assert_eq!(Image::from_png(&img.to_png()), Some(img));
        assert_eq!(Image::from_png(b"not a png"), None);
    }

    #[test]
    fn fit_keeps_the_aspect_and_averages() {
        let mut img = Image::new(400, 200);
        img.rgb.iter_mut().for_each(|c| *c = 100);
        let scale = img.fit(100);
        assert_eq!((img.width, img.height), (100, 50));
        assert!((scale - 0.25).abs() < 1e-9);
        assert!(img.rgb.iter().all(|&c| c == 100));
        let mut small = Image::new(10, 10);
        assert_eq!(small.fit(100), 1.0);
    }

    #[test]
    fn annotation_draws_boxes_and_labels() {
        let mut img = Image::new(100, 60);
        let drawn = img.annotate(&[Label {
            rect: Rect::new(20, 30, 40, 20),
            text: "e12".into(),
        }]);
        assert_eq!(drawn, 1);
        let at = |x: usize, y: usize| &img.rgb[(y * 100 + x) * 3..(y * 100 + x) * 3 + 3];
        assert_eq!(at(20, 40), &BOX[..], "left edge");
        assert_eq!(at(40, 40), &[0, 0, 0][..], "inside stays");
        // The tab above the box holds white text pixels.
        let white = (0..100)
            .flat_map(|x| (0..30).map(move |y| (x, y)))
            .filter(|&(x, y)| at(x, y) == &TEXT[..])
            .count();
        assert!(white > 10, "label text drawn ({white} px)");
    }

    fn label(x: i32, y: i32, w: i32, h: i32, text: &str) -> Label {
        Label {
            rect: Rect::new(x, y, w, h),
            text: text.into(),
        }
    }

    #[test]
    fn tabs_go_outside_their_element_where_there_is_room() {
        let labels = [label(50, 50, 80, 20, "e7")];
        let tab = place_tabs(&labels, 300, 200)[0].unwrap();
        assert!(!tab.intersects(&labels[0].rect), "{tab:?}");
        assert_eq!(tab.height, font::HEIGHT + 2 * PAD);
        // At the top edge of the image: below it instead, still outside.
        let top = [label(50, 0, 80, 20, "e7")];
        let tab = place_tabs(&top, 300, 200)[0].unwrap();
        assert!(!tab.intersects(&top[0].rect) && tab.y >= 20, "{tab:?}");
    }

    #[test]
    fn tabs_prefer_places_that_cover_no_other_element() {
        // Above the lower row is the upper row's element: its tab goes elsewhere.
        let labels = [label(50, 20, 80, 18, "e1"), label(50, 38, 80, 18, "e2")];
        let tabs = place_tabs(&labels, 300, 200);
        let lower = tabs[1].unwrap();
        assert!(!lower.intersects(&labels[0].rect), "{lower:?}");
        assert!(!lower.intersects(&labels[1].rect), "{lower:?}");
    }

    #[test]
    fn no_two_tabs_overlap() {
        // A dense list: 40 rows of 20 px, 3 columns of cells, all labelled.
        let labels: Vec<Label> = (0..40)
            .flat_map(|row| {
                (0..3).map(move |col| label(10 + col * 120, 10 + row * 20, 110, 18, "e1234"))
            })
            .collect();
        let tabs = place_tabs(&labels, 400, 900);
        let placed: Vec<Rect> = tabs.iter().flatten().copied().collect();
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                assert!(!a.intersects(b), "{a:?} and {b:?} overlap");
            }
            assert!(a.x >= 0 && a.y >= 0 && a.x + a.width <= 400 && a.y + a.height <= 900);
        }
        assert!(
            placed.len() >= labels.len() / 2,
            "{} of {}",
            placed.len(),
            labels.len()
        );
    }

    #[test]
    fn png_round_trips() {
        let mut img = Image::new(3, 2);
        img.rgb[0] = 255;
        let png = img.to_png();
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (3, 2));
        assert_eq!(buf[0], 255);
    }
}
