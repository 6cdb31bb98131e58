//! XKB keysyms, the keyboard's words shared by Linux's display servers: what X11's XTEST and
//! Wayland's virtual keyboard send for a key, a modifier or a character.

use deskpilot_platform::{Key, Modifier, NamedKey};

pub type Keysym = u32;

pub const SHIFT_L: Keysym = 0xffe1;
pub const CONTROL_L: Keysym = 0xffe3;
pub const ALT_L: Keysym = 0xffe9;
pub const SUPER_L: Keysym = 0xffeb;

pub fn modifier_keysym(modifier: Modifier) -> Keysym {
    match modifier {
        Modifier::Ctrl => CONTROL_L,
        Modifier::Shift => SHIFT_L,
        Modifier::Alt => ALT_L,
        Modifier::Super => SUPER_L,
    }
}

/// The keysym of a character: Latin-1 directly, newline and tab as their keys, anything else
/// as a Unicode keysym.
pub fn char_keysym(c: char) -> Keysym {
    match c {
        '\n' | '\r' => 0xff0d,
        '\t' => 0xff09,
        ' '..='~' | '\u{a0}'..='\u{ff}' => c as u32,
        _ => 0x0100_0000 | c as u32,
    }
}

pub fn key_keysym(key: Key) -> Keysym {
    match key {
        Key::Char(c) => char_keysym(c),
        Key::Named(named) => match named {
            NamedKey::Enter => 0xff0d,
            NamedKey::Tab => 0xff09,
            NamedKey::Escape => 0xff1b,
            NamedKey::Backspace => 0xff08,
            NamedKey::Delete => 0xffff,
            NamedKey::Insert => 0xff63,
            NamedKey::Home => 0xff50,
            NamedKey::End => 0xff57,
            NamedKey::PageUp => 0xff55,
            NamedKey::PageDown => 0xff56,
            NamedKey::Left => 0xff51,
            NamedKey::Up => 0xff52,
            NamedKey::Right => 0xff53,
            NamedKey::Down => 0xff54,
            NamedKey::Space => 0x20,
            NamedKey::Menu => 0xff67,
            NamedKey::F(n) => 0xffbe + u32::from(n) - 1,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keysyms() {
        assert_eq!(char_keysym('a'), 0x61);
        assert_eq!(char_keysym('é'), 0xe9);
        assert_eq!(char_keysym('€'), 0x0100_20ac);
        assert_eq!(char_keysym('\n'), 0xff0d);
        assert_eq!(key_keysym(Key::Named(NamedKey::F(4))), 0xffc1);
    }
}
