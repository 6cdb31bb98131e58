//! Keys and chords by platform-neutral name: `Enter`, `ctrl+s`, `alt+F4`, `shift+Tab`, `a`.

use std::fmt;

/// A modifier key held during a chord.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Modifier {
    Ctrl,
    Shift,
    Alt,
    Super,
}

/// A key with a name (not a character).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NamedKey {
    Enter,
    Tab,
    Escape,
    Backspace,
    Delete,
    Insert,
    Home,
    End,
    PageUp,
    PageDown,
    Up,
    Down,
    Left,
    Right,
    Space,
    Menu,
    /// F1..F24.
    F(u8),
}

/// The key of a chord.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    Named(NamedKey),
    Char(char),
}

/// Modifiers (pressed in order, released in reverse) and one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chord {
    pub modifiers: Vec<Modifier>,
    pub key: Key,
}

/// Why a key description could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(String);

const NAMES: &[(&str, NamedKey)] = &[
    ("enter", NamedKey::Enter),
    ("return", NamedKey::Enter),
    ("tab", NamedKey::Tab),
    ("escape", NamedKey::Escape),
    ("esc", NamedKey::Escape),
    ("backspace", NamedKey::Backspace),
    ("delete", NamedKey::Delete),
    ("del", NamedKey::Delete),
    ("insert", NamedKey::Insert),
    ("home", NamedKey::Home),
    ("end", NamedKey::End),
    ("pageup", NamedKey::PageUp),
    ("page_up", NamedKey::PageUp),
    ("pagedown", NamedKey::PageDown),
    ("page_down", NamedKey::PageDown),
    ("up", NamedKey::Up),
    ("down", NamedKey::Down),
    ("left", NamedKey::Left),
    ("right", NamedKey::Right),
    ("space", NamedKey::Space),
    ("menu", NamedKey::Menu),
];

fn modifier(name: &str) -> Option<Modifier> {
    match name {
        "ctrl" | "control" => Some(Modifier::Ctrl),
        "shift" => Some(Modifier::Shift),
        "alt" => Some(Modifier::Alt),
        "super" | "meta" | "win" | "cmd" => Some(Modifier::Super),
        _ => None,
    }
}

fn key(name: &str) -> Result<Key, KeyError> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Ok(Key::Char(c));
    }
    let lower = name.to_ascii_lowercase();
    if let Some((_, key)) = NAMES.iter().find(|(n, _)| *n == lower) {
        return Ok(Key::Named(*key));
    }
    if let Some(n) = lower.strip_prefix('f').and_then(|d| d.parse::<u8>().ok())
        && (1..=24).contains(&n)
    {
        return Ok(Key::Named(NamedKey::F(n)));
    }
    Err(KeyError(format!(
        "unknown key {name:?}: use a single character or one of Enter, Tab, Escape, Backspace, \
         Delete, Insert, Home, End, PageUp, PageDown, Up, Down, Left, Right, Space, Menu, F1-F24"
    )))
}

impl std::str::FromStr for Chord {
    type Err = KeyError;

    /// `Enter`, `ctrl+s`, `ctrl+shift+Tab`, `alt+F4`, `+` (the plus key), `ctrl++`.
    fn from_str(text: &str) -> Result<Chord, KeyError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(KeyError("empty key".into()));
        }
        // The last part is the key; a trailing "+" after a separator is the plus key itself.
        let (mods, last) = match text.strip_suffix("++") {
            Some(rest) => (rest, "+"),
            None if text == "+" => ("", "+"),
            None => match text.rsplit_once('+') {
                Some((mods, last)) => (mods, last),
                None => ("", text),
            },
        };
        let mut modifiers = Vec::new();
        for part in mods
            .split('+')
            .filter(|p| !mods.is_empty() || !p.is_empty())
        {
            let m = modifier(&part.trim().to_ascii_lowercase()).ok_or_else(|| {
                KeyError(format!(
                    "unknown modifier {part:?} in {text:?}: use ctrl, shift, alt or super"
                ))
            })?;
            if !modifiers.contains(&m) {
                modifiers.push(m);
            }
        }
        Ok(Chord {
            modifiers,
            key: key(last.trim())?,
        })
    }
}

impl fmt::Display for Chord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.modifiers {
            let name = match m {
                Modifier::Ctrl => "ctrl",
                Modifier::Shift => "shift",
                Modifier::Alt => "alt",
                Modifier::Super => "super",
            };
            write!(f, "{name}+")?;
        }
        match self.key {
            Key::Char(c) => write!(f, "{c}"),
            Key::Named(NamedKey::F(n)) => write!(f, "F{n}"),
            Key::Named(k) => write!(f, "{k:?}"),
        }
    }
}

impl Chord {
    pub fn plain(key: Key) -> Self {
        Chord {
            modifiers: Vec::new(),
            key,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chord(text: &str) -> Chord {
        text.parse().unwrap()
    }

    #[test]
    fn chords_parse() {
        assert_eq!(chord("Enter"), Chord::plain(Key::Named(NamedKey::Enter)));
        assert_eq!(
            chord("ctrl+s"),
            Chord {
                modifiers: vec![Modifier::Ctrl],
                key: Key::Char('s')
            }
        );
        assert_eq!(
            chord("Alt+F4"),
            Chord {
                modifiers: vec![Modifier::Alt],
                key: Key::Named(NamedKey::F(4))
            }
        );
        assert_eq!(chord("+"), Chord::plain(Key::Char('+')));
        assert_eq!(
            chord("ctrl++"),
            Chord {
                modifiers: vec![Modifier::Ctrl],
                key: Key::Char('+')
            }
        );
        assert_eq!(chord("ctrl+shift+Tab").modifiers.len(), 2);
        assert_eq!(chord("ctrl+s").to_string(), "ctrl+s");
    }

    #[test]
    fn bad_chords_say_why() {
        for bad in ["", "hyper+a", "ctrl+Foo", "F25", "ctrl+"] {
            let e = bad.parse::<Chord>().unwrap_err();
            assert!(!e.0.is_empty(), "{bad:?}");
        }
    }
}
