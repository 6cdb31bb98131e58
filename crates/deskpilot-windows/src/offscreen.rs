//! An offscreen bitmap's life in the order GDI requires. It is made like the screen's,
//! selected into a memory device context and drawn into, let go, read, freed. `GetDIBits`
//! reads only a bitmap no device context holds, and `DeleteObject` frees only such a bitmap
//! (their documentation's rules; review C3).

/// The GDI calls behind an offscreen drawing (`com/pixels.rs` on Windows).
pub trait Gdi {
    type Dc: Copy;
    type Bitmap: Copy;
    /// What a device context held before a bitmap was selected into it.
    type Held: Copy;
    /// The screen's device context (`GetDC(NULL)`).
    fn screen_dc(&self) -> Self::Dc;
    /// A memory device context like `screen` (`CreateCompatibleDC`).
    fn memory_dc(&self, screen: Self::Dc) -> Self::Dc;
    /// A bitmap like the screen's (`CreateCompatibleBitmap`).
    fn bitmap(&self, screen: Self::Dc, width: i32, height: i32) -> Self::Bitmap;
    /// Selects `bitmap` into `dc` (`SelectObject`), answering what `dc` held.
    fn hold(&self, dc: Self::Dc, bitmap: Self::Bitmap) -> Self::Held;
    /// Selects back into `dc` what it held, letting the bitmap go.
    fn let_go(&self, dc: Self::Dc, held: Self::Held);
    /// `GetDIBits`: the bitmap as top-down 32-bit BGRA into `pixels`; the lines read.
    fn read(&self, dc: Self::Dc, bitmap: Self::Bitmap, size: (i32, i32), pixels: &mut [u8]) -> i32;
    /// Frees the bitmap and the memory device context, releases the screen's.
    fn free(&self, screen: Self::Dc, memory: Self::Dc, bitmap: Self::Bitmap);
}

/// A `width` x `height` bitmap that `draw` fills through a memory device context (given the
/// screen's too), read back top-down BGRA; everything made is freed, even when `draw` fails.
pub fn drawn<G: Gdi>(
    gdi: &G,
    width: i32,
    height: i32,
    draw: impl FnOnce(G::Dc, G::Dc) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    if width <= 0 || height <= 0 {
        return Err(format!("nothing to draw: {width}x{height}"));
    }
    let mut pixels = vec![0u8; width as usize * height as usize * 4];
    let screen = gdi.screen_dc();
    let memory = gdi.memory_dc(screen);
    let bitmap = gdi.bitmap(screen, width, height);
    let held = gdi.hold(memory, bitmap);
    let copied = draw(screen, memory);
    gdi.let_go(memory, held);
    let lines = gdi.read(memory, bitmap, (width, height), &mut pixels);
    gdi.free(screen, memory, bitmap);
    copied?;
    if lines != height {
        return Err(format!("GetDIBits read {lines} of {height} lines"));
    }
    Ok(pixels)
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    /// GDI as strict as its documentation: reading or freeing a bitmap a device context
    /// holds fails. Handles are numbers; the log says what was made, held and freed.
    #[derive(Default)]
    struct StrictGdi {
        /// The bitmap each memory device context holds.
        holding: RefCell<Vec<(u32, u32)>>,
        made: RefCell<Vec<u32>>,
        freed: RefCell<Vec<u32>>,
    }

    impl StrictGdi {
        fn held(&self, bitmap: u32) -> bool {
            self.holding.borrow().iter().any(|(_, b)| *b == bitmap)
        }
    }

    impl Gdi for StrictGdi {
        type Dc = u32;
        type Bitmap = u32;
        type Held = u32;

        fn screen_dc(&self) -> u32 {
            1
        }

        fn memory_dc(&self, _screen: u32) -> u32 {
            self.made.borrow_mut().push(2);
            2
        }

        fn bitmap(&self, _screen: u32, _width: i32, _height: i32) -> u32 {
            self.made.borrow_mut().push(3);
            3
        }

        fn hold(&self, dc: u32, bitmap: u32) -> u32 {
            self.holding.borrow_mut().push((dc, bitmap));
            0
        }

        fn let_go(&self, dc: u32, _held: u32) {
            self.holding.borrow_mut().retain(|(d, _)| *d != dc);
        }

        /// Fails, reading nothing, while a device context holds the bitmap.
        fn read(&self, _dc: u32, bitmap: u32, size: (i32, i32), pixels: &mut [u8]) -> i32 {
            if self.held(bitmap) {
                return 0;
            }
            pixels.fill(7);
            size.1
        }

        /// A held bitmap is not freed (`DeleteObject` fails on it).
        fn free(&self, _screen: u32, memory: u32, bitmap: u32) {
            if !self.held(bitmap) {
                self.freed.borrow_mut().push(bitmap);
            }
            self.freed.borrow_mut().push(memory);
        }
    }

    /// The bitmap is let go before it is read, and everything made is freed.
    #[test]
    fn the_bitmap_is_let_go_before_it_is_read() {
        let gdi = StrictGdi::default();
        let pixels = drawn(&gdi, 3, 2, |_, memory| {
            assert_eq!(memory, 2);
            Ok(())
        });
        assert_eq!(pixels, Ok(vec![7; 24]));
        assert_eq!(gdi.freed.borrow().len(), gdi.made.borrow().len());
    }

    /// A drawing that failed says why, and still frees what was made.
    #[test]
    fn a_failed_drawing_says_why_and_frees_all() {
        let gdi = StrictGdi::default();
        let pixels = drawn(&gdi, 3, 2, |_, _| Err("PrintWindow failed".into()));
        assert_eq!(pixels, Err("PrintWindow failed".into()));
        assert_eq!(gdi.freed.borrow().len(), gdi.made.borrow().len());
        assert!(drawn(&gdi, 0, 2, |_, _| Ok(())).is_err());
    }
}
