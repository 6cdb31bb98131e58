//! The virtual keyboard's keymap: one key per keysym, so that any character is typed by one
//! key with no modifier. The compositor compiles the text and hands the result to the app
//! with the keyboard focus, in order with the keys: a new map never races keys sent before it.

use deskpilot_platform::NamedKey;
use deskpilot_platform::keys::Key;
use deskpilot_xkb::{ALT_L, CONTROL_L, Keysym, SHIFT_L, SUPER_L, key_keysym};

/// The first XKB keycode; its evdev code (what the protocol's `key` carries) is 8 less.
const FIRST_KEYCODE: u32 = 9;
/// X11's highest keycode: XWayland apps read the same map, and X11 keycodes are one byte.
const LAST_KEYCODE: u32 = 255;
/// Keys the map may hold.
pub(crate) const CAPACITY: usize = (LAST_KEYCODE - FIRST_KEYCODE + 1) as usize;

/// The modifiers first, each with the real modifier it sets and that modifier's mask (XKB's
/// real modifiers have fixed indices: Shift 0, Lock 1, Control 2, Mod1 3 ... Mod5 7).
const MODIFIERS: [(Keysym, &str, u32); 4] = [
    (SHIFT_L, "Shift", 1 << 0),
    (CONTROL_L, "Control", 1 << 2),
    (ALT_L, "Mod1", 1 << 3),
    (SUPER_L, "Mod4", 1 << 6),
];

/// The mask of the modifier a key sets, if it is one. The compositor keeps no modifier state
/// for a virtual keyboard's keys (wlroots passes them on with `update_state` false): the
/// client sends the mask itself.
pub(crate) fn modifier_mask(keysym: Keysym) -> Option<u32> {
    MODIFIERS
        .iter()
        .find(|(k, _, _)| *k == keysym)
        .map(|(_, _, mask)| *mask)
}

/// What every map holds: the modifiers, the named keys, F1 to F12 and printable ASCII.
pub(crate) fn base() -> Vec<Keysym> {
    let named = [
        NamedKey::Enter,
        NamedKey::Tab,
        NamedKey::Escape,
        NamedKey::Backspace,
        NamedKey::Delete,
        NamedKey::Insert,
        NamedKey::Home,
        NamedKey::End,
        NamedKey::PageUp,
        NamedKey::PageDown,
        NamedKey::Left,
        NamedKey::Up,
        NamedKey::Right,
        NamedKey::Down,
        NamedKey::Menu,
    ];
    let mut keysyms: Vec<Keysym> = MODIFIERS.iter().map(|(k, _, _)| *k).collect();
    keysyms.extend(named.into_iter().map(|n| key_keysym(Key::Named(n))));
    keysyms.extend((1..=12).map(|n| key_keysym(Key::Named(NamedKey::F(n)))));
    keysyms.extend(0x20..=0x7e);
    keysyms
}

/// The keys of one map, in keycode order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Keymap {
    keysyms: Vec<Keysym>,
}

impl Keymap {
    /// The base keys and `extra` (at most what fits).
    pub(crate) fn with(extra: &[Keysym]) -> Self {
        let mut keysyms = base();
        for &k in extra {
            if keysyms.len() < CAPACITY && !keysyms.contains(&k) {
                keysyms.push(k);
            }
        }
        Keymap { keysyms }
    }

    /// How many keys beyond the base a map can hold.
    pub(crate) fn room() -> usize {
        CAPACITY - base().len()
    }

    /// The evdev code of the key that types `keysym`, if the map has one.
    pub(crate) fn code(&self, keysym: Keysym) -> Option<u32> {
        let index = self.keysyms.iter().position(|&k| k == keysym)?;
        Some(FIRST_KEYCODE + index as u32 - 8)
    }

    /// The map as XKB text (NUL-terminated, as the protocol's keymap file wants).
    pub(crate) fn text(&self) -> String {
        let last = FIRST_KEYCODE + self.keysyms.len() as u32 - 1;
        let mut codes = format!(
            "minimum = {FIRST_KEYCODE};\nmaximum = {};\n",
            last.max(FIRST_KEYCODE)
        );
        let mut symbols = String::new();
        for (i, keysym) in self.keysyms.iter().enumerate() {
            let code = FIRST_KEYCODE + i as u32;
            codes.push_str(&format!("<K{code}> = {code};\n"));
            // An integer of 10 or more is read as a keysym's value (libxkbcommon's parser).
            symbols.push_str(&format!("key <K{code}> {{ [ 0x{keysym:x} ] }};\n"));
        }
        for (i, (_, modifier, _)) in MODIFIERS.iter().enumerate() {
            let code = FIRST_KEYCODE + i as u32;
            symbols.push_str(&format!("modifier_map {modifier} {{ <K{code}> }};\n"));
        }
        format!(
            "xkb_keymap {{\nxkb_keycodes \"deskpilot\" {{\n{codes}}};\n\
             xkb_types \"deskpilot\" {{ include \"complete\" }};\n\
             xkb_compatibility \"deskpilot\" {{ include \"complete\" }};\n\
             xkb_symbols \"deskpilot\" {{\n{symbols}}};\n}};\n\0"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskpilot_xkb::char_keysym;

    #[test]
    fn every_character_gets_a_key_of_its_own() {
        let euro = char_keysym('€');
        let map = Keymap::with(&[euro, char_keysym('é')]);
        assert_eq!(map.code(SHIFT_L), Some(1), "evdev code of XKB keycode 9");
        assert!(map.code(char_keysym('a')).is_some());
        let text = map.text();
        assert!(text.contains("key <K9> { [ 0xffe1 ] };"), "{text}");
        assert!(text.contains("modifier_map Mod4 { <K12> };"));
        assert!(text.contains(&format!("[ 0x{euro:x} ]")));
        assert!(text.ends_with("};\n\0"));
    }

    #[test]
    fn modifier_keys_carry_their_real_modifiers_mask() {
        assert_eq!(modifier_mask(SHIFT_L), Some(1));
        assert_eq!(modifier_mask(CONTROL_L), Some(4));
        assert_eq!(modifier_mask(ALT_L), Some(8));
        assert_eq!(modifier_mask(SUPER_L), Some(64));
        assert_eq!(modifier_mask(char_keysym('a')), None);
    }

    #[test]
    fn a_map_never_passes_x11s_last_keycode() {
        let many: Vec<Keysym> = (0..400).map(|i| 0x0100_0400 + i).collect();
        let map = Keymap::with(&many);
        assert_eq!(map.keysyms.len(), CAPACITY);
        assert!(map.code(0x0100_0400).is_some());
        assert_eq!(map.code(0x0100_0400 + 399), None);
        assert!(map.text().contains("maximum = 255;"));
        assert_eq!(Keymap::room(), CAPACITY - base().len());
    }
}
