//! The virtual keyboard (`zwp_virtual_keyboard_v1`): keys pressed and released by evdev code,
//! on a keymap that holds every keysym about to be typed (`keymap.rs`).

use std::io::Write;
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use deskpilot_xkb::Keysym;
use wayland_protocols_misc::zwp_virtual_keyboard_v1::client::zwp_virtual_keyboard_v1::ZwpVirtualKeyboardV1;

use crate::client::{Client, ClientError};
use crate::keymap::{Keymap, modifier_mask};

/// `wl_keyboard.keymap_format.xkb_v1`.
const XKB_V1: u32 = 1;
const PRESSED: u32 = 1;
const RELEASED: u32 = 0;

pub(crate) struct Keyboard {
    device: ZwpVirtualKeyboardV1,
    /// The map the compositor has; `None` before the first.
    map: Option<Keymap>,
    start: Instant,
}

impl Keyboard {
    pub(crate) fn new(device: ZwpVirtualKeyboardV1) -> Self {
        Keyboard {
            device,
            map: None,
            start: Instant::now(),
        }
    }

    fn time(&self) -> u32 {
        self.start.elapsed().as_millis() as u32
    }

    /// Gives the compositor a map with every one of `keysyms` (those that fit), unless the
    /// current one has them all.
    fn ensure(&mut self, keysyms: &[Keysym]) -> Result<(), ClientError> {
        let missing: Vec<Keysym> = match &self.map {
            Some(map) => keysyms
                .iter()
                .copied()
                .filter(|&k| map.code(k).is_none())
                .collect(),
            None => keysyms.to_vec(),
        };
        if self.map.is_some() && missing.is_empty() {
            return Ok(());
        }
        self.upload(Keymap::with(&missing))
    }

    /// Sends `map`, written to an unlinked file the compositor maps.
    fn upload(&mut self, map: Keymap) -> Result<(), ClientError> {
        let text = map.text();
        let mut file = tempfile::tempfile().map_err(failed)?;
        file.write_all(text.as_bytes()).map_err(failed)?;
        self.device.keymap(XKB_V1, file.as_fd(), text.len() as u32);
        self.map = Some(map);
        Ok(())
    }

    /// Forgets the characters beyond the base map (what a secret's typing added).
    pub(crate) fn reset(
        &mut self,
        client: &mut Client,
        deadline: Instant,
    ) -> Result<(), ClientError> {
        if self.map.as_ref().is_some_and(|m| *m != Keymap::with(&[])) {
            self.upload(Keymap::with(&[]))?;
            client.roundtrip(deadline)?;
        }
        Ok(())
    }

    fn key(&self, keysym: Keysym, state: u32) -> Result<(), ClientError> {
        let code = self
            .map
            .as_ref()
            .and_then(|m| m.code(keysym))
            .ok_or_else(|| ClientError::Failed("a key is missing from the keymap".into()))?;
        self.device.key(self.time(), code, state);
        Ok(())
    }

    /// Presses `keysyms` in order, then releases them in reverse (also on error); the
    /// modifiers' mask follows each modifier key.
    pub(crate) fn chord(&mut self, keysyms: &[Keysym]) -> Result<(), ClientError> {
        self.ensure(keysyms)?;
        let mut down = Vec::with_capacity(keysyms.len());
        let mut mask = 0;
        let mut result = Ok(());
        for &k in keysyms {
            result = self.key(k, PRESSED);
            if result.is_err() {
                break;
            }
            down.push(k);
            if let Some(bit) = modifier_mask(k) {
                mask |= bit;
                self.device.modifiers(mask, 0, 0, 0);
            }
        }
        for &k in down.iter().rev() {
            result = result.and(self.key(k, RELEASED));
            if let Some(bit) = modifier_mask(k) {
                mask &= !bit;
                self.device.modifiers(mask, 0, 0, 0);
            }
        }
        result
    }

    /// Types each keysym as one key, counting in `sent` the characters handed to the
    /// compositor; stops before the next once `stop` is set.
    pub(crate) fn type_keysyms(
        &mut self,
        client: &mut Client,
        keysyms: &[Keysym],
        stop: &AtomicBool,
        sent: &AtomicUsize,
    ) -> Result<(), ClientError> {
        for (i, &k) in keysyms.iter().enumerate() {
            if stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            if self.map.as_ref().is_none_or(|m| m.code(k).is_none()) {
                // The next map holds this character and as many of the following as fit.
                let next: Vec<Keysym> = keysyms[i..].iter().copied().take(Keymap::room()).collect();
                self.upload(Keymap::with(&next))?;
            }
            self.chord(&[k])?;
            client.flush()?;
            sent.fetch_add(1, Ordering::SeqCst);
        }
        Ok(())
    }
}

fn failed(e: impl std::fmt::Display) -> ClientError {
    ClientError::Failed(format!("keymap file: {e}"))
}
