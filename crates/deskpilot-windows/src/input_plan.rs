//! Input as `SendInput` records, planned in plain Rust: text as Unicode key events (any
//! script; characters outside the basic plane as their two UTF-16 halves), chords as virtual
//! keys (extended where Windows wants it, modifiers released in reverse), the pointer at
//! absolute coordinates over the virtual screen (whose origin can be negative). `com/input.rs`
//! copies each record into an `INPUT` unchanged.

use deskpilot_platform::model::Rect;
use deskpilot_platform::{Chord, Direction, Key, Modifier, MouseButton, NamedKey};

/// `INPUT.type`.
pub const INPUT_MOUSE: u32 = 0;
pub const INPUT_KEYBOARD: u32 = 1;

/// `KEYBDINPUT.dwFlags`.
pub const KEYEVENTF_EXTENDEDKEY: u32 = 0x0001;
pub const KEYEVENTF_KEYUP: u32 = 0x0002;
pub const KEYEVENTF_UNICODE: u32 = 0x0004;

/// `MOUSEINPUT.dwFlags`.
pub const MOUSEEVENTF_MOVE: u32 = 0x0001;
pub const MOUSEEVENTF_LEFTDOWN: u32 = 0x0002;
pub const MOUSEEVENTF_LEFTUP: u32 = 0x0004;
pub const MOUSEEVENTF_RIGHTDOWN: u32 = 0x0008;
pub const MOUSEEVENTF_RIGHTUP: u32 = 0x0010;
pub const MOUSEEVENTF_MIDDLEDOWN: u32 = 0x0020;
pub const MOUSEEVENTF_MIDDLEUP: u32 = 0x0040;
pub const MOUSEEVENTF_WHEEL: u32 = 0x0800;
pub const MOUSEEVENTF_HWHEEL: u32 = 0x1000;
pub const MOUSEEVENTF_VIRTUALDESK: u32 = 0x4000;
pub const MOUSEEVENTF_ABSOLUTE: u32 = 0x8000;

/// One wheel click (`WHEEL_DELTA`).
pub const WHEEL_DELTA: i32 = 120;

/// One `INPUT` record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    /// `KEYBDINPUT`: a virtual key, or a UTF-16 unit with `KEYEVENTF_UNICODE`.
    Key { vk: u16, scan: u16, flags: u32 },
    /// `MOUSEINPUT`: `dx`/`dy` absolute (0..=65535 over the virtual screen), wheel data.
    Mouse {
        dx: i32,
        dy: i32,
        data: i32,
        flags: u32,
    },
}

impl Record {
    /// `INPUT.type` of the record.
    pub fn kind(&self) -> u32 {
        match self {
            Record::Key { .. } => INPUT_KEYBOARD,
            Record::Mouse { .. } => INPUT_MOUSE,
        }
    }
}

/// A key down or up: a virtual key and whether it is an extended one.
fn key(vk: u16, extended: bool, up: bool) -> Record {
    let mut flags = if extended { KEYEVENTF_EXTENDEDKEY } else { 0 };
    if up {
        flags |= KEYEVENTF_KEYUP;
    }
    Record::Key { vk, scan: 0, flags }
}

/// A named key's virtual key, and whether it is extended (arrows, the navigation block,
/// the menu key: without the flag Windows reads them as the number pad's).
pub fn named(key: NamedKey) -> (u16, bool) {
    match key {
        NamedKey::Enter => (0x0D, false),
        NamedKey::Tab => (0x09, false),
        NamedKey::Escape => (0x1B, false),
        NamedKey::Backspace => (0x08, false),
        NamedKey::Space => (0x20, false),
        NamedKey::PageUp => (0x21, true),
        NamedKey::PageDown => (0x22, true),
        NamedKey::End => (0x23, true),
        NamedKey::Home => (0x24, true),
        NamedKey::Left => (0x25, true),
        NamedKey::Up => (0x26, true),
        NamedKey::Right => (0x27, true),
        NamedKey::Down => (0x28, true),
        NamedKey::Insert => (0x2D, true),
        NamedKey::Delete => (0x2E, true),
        NamedKey::Menu => (0x5D, true),
        NamedKey::F(n) => (0x6F + u16::from(n.clamp(1, 24)), false),
    }
}

fn modifier(m: Modifier) -> (u16, bool) {
    match m {
        Modifier::Shift => (0x10, false),
        Modifier::Ctrl => (0x11, false),
        Modifier::Alt => (0x12, false),
        Modifier::Super => (0x5B, true),
    }
}

/// A chord's records: modifiers down in order, the key down and up, modifiers up in reverse.
/// A character key is its virtual key where the layout has one (`vk_for`: the key and
/// whether it needs Shift, as `VkKeyScanW` says); letters and digits always have theirs.
pub fn chord(
    chord: &Chord,
    vk_for: impl Fn(char) -> Option<(u16, bool)>,
) -> Result<Vec<Record>, String> {
    let mut modifiers: Vec<(u16, bool)> = chord.modifiers.iter().map(|m| modifier(*m)).collect();
    let (vk, extended) = match chord.key {
        Key::Named(name) => named(name),
        Key::Char(c) if c.is_ascii_alphanumeric() => (c.to_ascii_uppercase() as u16, false),
        Key::Char(c) => {
            let (vk, shift) =
                vk_for(c).ok_or_else(|| format!("{c:?} has no key on this layout"))?;
            if shift && !chord.modifiers.contains(&Modifier::Shift) {
                modifiers.push(modifier(Modifier::Shift));
            }
            (vk, false)
        }
    };
    let mut records: Vec<Record> = modifiers
        .iter()
        .map(|(vk, ext)| key(*vk, *ext, false))
        .collect();
    records.push(key(vk, extended, false));
    records.push(key(vk, extended, true));
    records.extend(modifiers.iter().rev().map(|(vk, ext)| key(*vk, *ext, true)));
    Ok(records)
}

/// `records` with each virtual key's scan code from the layout (`scan_of`: the code, the
/// extended prefix 0xE0 in its high byte), and the extended flag where the prefix says so.
/// Apps that read scan codes (remote consoles, Chromium's `KeyboardEvent.code`) missed keys
/// sent with none (review B2). Unicode records keep theirs.
pub fn with_scans(records: Vec<Record>, scan_of: impl Fn(u16) -> Option<u16>) -> Vec<Record> {
    records
        .into_iter()
        .map(|record| match record {
            Record::Key { vk, scan: 0, flags } if flags & KEYEVENTF_UNICODE == 0 => {
                let (code, extended) = match scan_of(vk).map(|code| (code, code >> 8)) {
                    Some((code, 0)) => (code, 0),
                    Some((code, 0xE0)) => (code, KEYEVENTF_EXTENDEDKEY),
                    // No code, or a prefix one record cannot carry (0xE1: Pause).
                    _ => return record,
                };
                Record::Key {
                    vk,
                    scan: code & 0xFF,
                    flags: flags | extended,
                }
            }
            other => other,
        })
        .collect()
}

/// Text as records, with the number of records each character took (so that a partial send
/// says how many characters went): Unicode key events per UTF-16 unit, a line break as
/// Enter, a tab as Tab.
pub fn text(text: &str) -> Vec<(char, Vec<Record>)> {
    text.chars()
        .filter(|c| *c != '\r')
        .map(|c| {
            let records = match c {
                '\n' => vec![key(0x0D, false, false), key(0x0D, false, true)],
                '\t' => vec![key(0x09, false, false), key(0x09, false, true)],
                _ => {
                    let mut units = [0u16; 2];
                    c.encode_utf16(&mut units)
                        .iter()
                        .flat_map(|unit| {
                            [false, true].map(|up| Record::Key {
                                vk: 0,
                                scan: *unit,
                                flags: KEYEVENTF_UNICODE | if up { KEYEVENTF_KEYUP } else { 0 },
                            })
                        })
                        .collect()
                }
            };
            (c, records)
        })
        .collect()
}

/// A screen point as `SendInput`'s absolute coordinates over the virtual screen `screen`.
pub fn absolute(x: i32, y: i32, screen: Rect) -> (i32, i32) {
    let scale = |at: i32, origin: i32, size: i32| {
        let span = i64::from(size.max(2) - 1);
        let offset = i64::from((at - origin).clamp(0, size.max(2) - 1));
        ((offset * 65_535 + span / 2) / span) as i32
    };
    (
        scale(x, screen.x, screen.width),
        scale(y, screen.y, screen.height),
    )
}

/// The pointer moved to (x, y).
pub fn move_to(x: i32, y: i32, screen: Rect) -> Record {
    let (dx, dy) = absolute(x, y, screen);
    Record::Mouse {
        dx,
        dy,
        data: 0,
        flags: MOUSEEVENTF_MOVE | MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK,
    }
}

/// A button pressed or released where the pointer is.
pub fn button(button: MouseButton, up: bool) -> Record {
    let flags = match (button, up) {
        (MouseButton::Left, false) => MOUSEEVENTF_LEFTDOWN,
        (MouseButton::Left, true) => MOUSEEVENTF_LEFTUP,
        (MouseButton::Right, false) => MOUSEEVENTF_RIGHTDOWN,
        (MouseButton::Right, true) => MOUSEEVENTF_RIGHTUP,
        (MouseButton::Middle, false) => MOUSEEVENTF_MIDDLEDOWN,
        (MouseButton::Middle, true) => MOUSEEVENTF_MIDDLEUP,
    };
    Record::Mouse {
        dx: 0,
        dy: 0,
        data: 0,
        flags,
    }
}

/// Wheel clicks where the pointer is (up and right positive).
pub fn wheel(direction: Direction, clicks: u32) -> Record {
    let delta = WHEEL_DELTA * clicks.min(100) as i32;
    let (data, flags) = match direction {
        Direction::Up => (delta, MOUSEEVENTF_WHEEL),
        Direction::Down => (-delta, MOUSEEVENTF_WHEEL),
        Direction::Right => (delta, MOUSEEVENTF_HWHEEL),
        Direction::Left => (-delta, MOUSEEVENTF_HWHEEL),
    };
    Record::Mouse {
        dx: 0,
        dy: 0,
        data,
        flags,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any script types as Unicode key events; a character outside the basic plane as its two
    /// UTF-16 halves, each down and up; a line break as Enter.
    #[test]
    fn text_is_unicode_key_events_with_surrogate_pairs() {
        let planned = text("é😀\n");
        assert_eq!(planned.len(), 3);
        let unicode = |scan: u16, up: bool| Record::Key {
            vk: 0,
            scan,
            flags: KEYEVENTF_UNICODE | if up { KEYEVENTF_KEYUP } else { 0 },
        };
        assert_eq!(planned[0].1, [unicode(0xE9, false), unicode(0xE9, true)]);
        assert_eq!(
            planned[1].1,
            [
                unicode(0xD83D, false),
                unicode(0xD83D, true),
                unicode(0xDE00, false),
                unicode(0xDE00, true)
            ]
        );
        assert_eq!(
            planned[2].1,
            [key(0x0D, false, false), key(0x0D, false, true)]
        );
        assert!(
            planned
                .iter()
                .flat_map(|(_, r)| r)
                .all(|r| r.kind() == INPUT_KEYBOARD)
        );
    }

    /// A chord: modifiers down in order, the key (extended where Windows wants it), all up
    /// in reverse; a character the layout shifts adds Shift; one it lacks is refused.
    #[test]
    fn chords_are_virtual_keys_released_in_reverse() {
        let ctrl_shift_end = Chord {
            modifiers: vec![Modifier::Ctrl, Modifier::Shift],
            key: Key::Named(NamedKey::End),
        };
        let records = chord(&ctrl_shift_end, |_| None).unwrap();
        assert_eq!(
            records,
            [
                key(0x11, false, false),
                key(0x10, false, false),
                key(0x23, true, false),
                key(0x23, true, true),
                key(0x10, false, true),
                key(0x11, false, true)
            ]
        );
        let ctrl_a = Chord {
            modifiers: vec![Modifier::Ctrl],
            key: Key::Char('a'),
        };
        assert_eq!(
            chord(&ctrl_a, |_| None).unwrap()[1],
            key(0x41, false, false)
        );
        let question = Chord {
            modifiers: vec![],
            key: Key::Char('?'),
        };
        let shifted = chord(&question, |c| (c == '?').then_some((0xBF, true))).unwrap();
        assert_eq!(shifted[0], key(0x10, false, false));
        assert_eq!(shifted[1], key(0xBF, false, false));
        assert!(chord(&question, |_| None).is_err());
    }

    /// A scan code goes with its key, an E0 prefix as the extended flag; a key with no code
    /// or an E1 prefix (Pause: one record cannot carry it) keeps none, never a wrong one.
    #[test]
    fn scan_codes_carry_their_prefix_or_are_left_out() {
        let keys = vec![
            key(0x41, false, false),
            key(0x25, false, false),
            key(0x13, false, false),
        ];
        let codes = |vk| match vk {
            0x41 => Some(0x1E),
            0x25 => Some(0xE04B),
            0x13 => Some(0xE11D),
            _ => None,
        };
        let scans: Vec<(u16, bool)> = with_scans(keys, codes)
            .iter()
            .map(|r| match r {
                Record::Key { scan, flags, .. } => (*scan, flags & KEYEVENTF_EXTENDEDKEY != 0),
                _ => unreachable!("keys only"),
            })
            .collect();
        assert_eq!(scans, [(0x1E, false), (0x4B, true), (0, false)]);
    }

    /// The pointer lands on the virtual screen's absolute scale, a monitor left of the
    /// primary one (negative x) included; wheel clicks are 120 each.
    #[test]
    fn the_pointer_spans_a_virtual_screen_with_a_negative_origin() {
        let screen = Rect::new(-1920, 0, 3840, 1080);
        assert_eq!(absolute(-1920, 0, screen), (0, 0));
        assert_eq!(absolute(1919, 1079, screen), (65_535, 65_535));
        assert_eq!(absolute(0, 540, screen).0, 32_776);
        match move_to(-1000, 10, screen) {
            Record::Mouse { flags, .. } => {
                assert_eq!(
                    flags,
                    MOUSEEVENTF_MOVE | MOUSEEVENTF_ABSOLUTE | MOUSEEVENTF_VIRTUALDESK
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            wheel(Direction::Down, 3),
            Record::Mouse {
                dx: 0,
                dy: 0,
                data: -360,
                flags: MOUSEEVENTF_WHEEL
            }
        );
    }
}
