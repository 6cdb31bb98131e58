//! Keysyms for keys and characters, and where they sit on the keyboard: the server's keyboard
//! mapping, plus spare keycodes remapped on demand for characters the layout lacks.

use std::collections::HashMap;

pub use deskpilot_xkb::{Keysym, SHIFT_L, char_keysym, key_keysym, modifier_keysym};

/// Where a keysym is: a keycode, and whether Shift selects it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub keycode: u8,
    pub shift: bool,
}

/// The keyboard as the server maps it, with a pool of spare keycodes.
#[derive(Debug, Clone, Default)]
pub struct Keymap {
    places: HashMap<Keysym, Place>,
    spare: Vec<u8>,
    /// Next spare keycode to hand out (round robin: a remapped keycode is reused as late as
    /// possible, so a client still translating earlier keys sees the mapping it expects).
    next_spare: usize,
    /// Spare keycodes mapped since the last `take_assigned`.
    assigned: Vec<u8>,
    pub keysyms_per_keycode: u8,
}

impl Keymap {
    /// From a GetKeyboardMapping reply starting at `first`.
    pub fn new(first: u8, keysyms_per_keycode: u8, keysyms: &[Keysym]) -> Self {
        let per = usize::from(keysyms_per_keycode.max(1));
        let mut places = HashMap::new();
        let mut spare = Vec::new();
        for (i, syms) in keysyms.chunks(per).enumerate() {
            let Ok(keycode) = u8::try_from(usize::from(first) + i) else {
                break;
            };
            if syms.iter().all(|&s| s == 0) {
                spare.push(keycode);
                continue;
            }
            for (level, &sym) in syms.iter().take(2).enumerate() {
                if sym != 0 {
                    places.entry(sym).or_insert(Place {
                        keycode,
                        shift: level == 1,
                    });
                }
            }
        }
        Keymap {
            places,
            spare,
            next_spare: 0,
            assigned: Vec::new(),
            keysyms_per_keycode,
        }
    }

    pub fn place(&self, keysym: Keysym) -> Option<Place> {
        self.places.get(&keysym).copied()
    }

    pub fn spare_count(&self) -> usize {
        self.spare.len()
    }

    /// Picks a spare keycode for `keysym` and records it (the caller sends the mapping).
    pub fn assign_spare(&mut self, keysym: Keysym) -> Option<u8> {
        if self.spare.is_empty() {
            return None;
        }
        let keycode = self.spare[self.next_spare % self.spare.len()];
        self.next_spare += 1;
        self.places.retain(|_, p| p.keycode != keycode);
        if !self.assigned.contains(&keycode) {
            self.assigned.push(keycode);
        }
        self.places.insert(
            keysym,
            Place {
                keycode,
                shift: false,
            },
        );
        Some(keycode)
    }

    /// The spare keycodes mapped since the last call, forgotten (the caller maps them back to
    /// nothing): what was typed through them stays out of the server's keymap.
    pub fn take_assigned(&mut self) -> Vec<u8> {
        let taken = std::mem::take(&mut self.assigned);
        self.places.retain(|_, p| !taken.contains(&p.keycode));
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_spares() {
        // keycode 10: a A, keycode 11: nothing, keycode 12: nothing
        let mut map = Keymap::new(10, 2, &[0x61, 0x41, 0, 0, 0, 0]);
        assert_eq!(
            map.place(0x41),
            Some(Place {
                keycode: 10,
                shift: true
            })
        );
        assert_eq!(map.spare_count(), 2);
        assert_eq!(map.assign_spare(0x20ac), Some(11));
        assert_eq!(map.assign_spare(0x20ad), Some(12));
        assert_eq!(map.assign_spare(0x20ae), Some(11));
        assert_eq!(map.take_assigned(), vec![11, 12]);
        assert_eq!(map.place(0x20ae), None);
        assert_eq!(map.place(0x20ad), None);
        assert!(map.take_assigned().is_empty());
        assert_eq!(map.place(0x20ac), None, "keycode 11 was reused");
    }
}
