//! `FakeKeyboards`: keyboard layouts as Windows keeps them, one per thread
//! (`GetKeyboardLayout(thread)`); the `Ex` mappings map on a layout given. A few keys of two
//! layouts are enough to show a key mapped on the wrong one. Which thread's layout is asked
//! (the foreground window's) is the COM sink's, compiled only.

/// The layout of the foreground window's thread, where keys go.
pub struct FakeKeyboards {
    pub foreground: u64,
}

impl Default for FakeKeyboards {
    fn default() -> Self {
        FakeKeyboards {
            foreground: Self::US,
        }
    }
}

impl FakeKeyboards {
    /// US English (`00000409`).
    pub const US: u64 = 0x0409_0409;
    /// German (`00000407`): Y and Z swapped, `/` on Shift+7.
    pub const GERMAN: u64 = 0x0407_0407;

    /// A character's virtual key on `layout`, and whether it needs Shift (`VkKeyScanExW`).
    pub fn vk_for(c: char, layout: u64) -> Option<(u16, bool)> {
        match (layout, c) {
            (_, 'a'..='z') => Some((c.to_ascii_uppercase() as u16, false)),
            (Self::US, '/') => Some((0xBF, false)),
            (Self::GERMAN, '/') => Some((0x37, true)),
            (Self::GERMAN, '#') => Some((0xBF, false)),
            _ => None,
        }
    }

    /// A virtual key's scan code on `layout` (`MapVirtualKeyExW`, `MAPVK_VK_TO_VSC_EX`).
    pub fn scan_of(vk: u16, layout: u64) -> Option<u16> {
        match (layout, vk) {
            (_, 0x0D) => Some(0x1C),
            (_, 0x10) => Some(0x2A),
            (_, 0x11) => Some(0x1D),
            (_, 0x37) => Some(0x08),
            (_, 0x25) => Some(0xE04B),
            (_, 0x41) => Some(0x1E),
            (Self::US, 0x5A) | (Self::GERMAN, 0x59) => Some(0x2C),
            (Self::US, 0x59) | (Self::GERMAN, 0x5A) => Some(0x15),
            (Self::US, 0xBF) => Some(0x35),
            (Self::GERMAN, 0xBF) => Some(0x2B),
            _ => None,
        }
    }
}
