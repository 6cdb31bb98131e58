//! Element states, three-valued: a state a toolkit does not report is unknown, not false
//! (GTK4 widgets lack `enabled` and `showing`).

use serde::{Deserialize, Serialize};

macro_rules! states {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal ),* $(,)?) => {
        /// One boolean property of an element.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(into = "&'static str", try_from = "String")]
        #[repr(u8)]
        pub enum State {
            $( $(#[$doc])* $variant, )*
        }

        impl State {
            pub const ALL: &'static [State] = &[ $( State::$variant, )* ];

            /// The state's name as rendered and as written in selectors.
            pub fn name(self) -> &'static str {
                match self { $( State::$variant => $name, )* }
            }

            pub fn from_name(name: &str) -> Option<State> {
                match name { $( $name => Some(State::$variant), )* _ => None }
            }
        }
    };
}

states! {
    Active => "active",
    Busy => "busy",
    Checkable => "checkable",
    Checked => "checked",
    /// Neither checked nor unchecked (a tri-state check box).
    Mixed => "mixed",
    Collapsed => "collapsed",
    Expandable => "expandable",
    Expanded => "expanded",
    Defunct => "defunct",
    Editable => "editable",
    ReadOnly => "readonly",
    /// Accepts user input (AT-SPI enabled + sensitive).
    Enabled => "enabled",
    Focusable => "focusable",
    Focused => "focused",
    HasPopup => "haspopup",
    Horizontal => "horizontal",
    Vertical => "vertical",
    /// A minimized window.
    Minimized => "minimized",
    Modal => "modal",
    Multiline => "multiline",
    Multiselectable => "multiselectable",
    Pressed => "pressed",
    Required => "required",
    Invalid => "invalid",
    Selectable => "selectable",
    Selected => "selected",
    /// On screen: the element and all its ancestors are visible and it is in the visible area.
    Showing => "showing",
    Visible => "visible",
    Default => "default",
    Visited => "visited",
    Modified => "modified",
    /// The element owns transient children created on demand (huge tables, documents).
    ManagesDescendants => "managesdescendants",
}

/// A set of states that says, for each state, on, off, or unknown. As JSON: the states that
/// are on, and those that are unknown (every other state is off).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "StateSetJson", from = "StateSetJson")]
pub struct StateSet {
    on: u64,
    known: u64,
}

const _: () = assert!(State::ALL.len() <= 64);

fn bit(state: State) -> u64 {
    1 << (state as u8)
}

impl StateSet {
    /// No state known.
    pub const fn unknown() -> Self {
        StateSet { on: 0, known: 0 }
    }

    /// `on` states set, and every other state known to be off.
    pub fn all_known(on: impl IntoIterator<Item = State>) -> Self {
        let mut set = StateSet {
            on: 0,
            known: u64::MAX,
        };
        for state in on {
            set.on |= bit(state);
        }
        set
    }

    /// On, off, or `None` when unknown.
    pub fn get(&self, state: State) -> Option<bool> {
        (self.known & bit(state) != 0).then_some(self.on & bit(state) != 0)
    }

    /// True only when known to be on.
    pub fn is(&self, state: State) -> bool {
        self.get(state) == Some(true)
    }

    /// True only when known to be off.
    pub fn is_not(&self, state: State) -> bool {
        self.get(state) == Some(false)
    }

    pub fn set(&mut self, state: State, value: bool) {
        self.known |= bit(state);
        if value {
            self.on |= bit(state);
        } else {
            self.on &= !bit(state);
        }
    }

    /// Makes `state` unknown.
    pub fn forget(&mut self, state: State) {
        self.known &= !bit(state);
        self.on &= !bit(state);
    }

    /// The states known to be on, in declaration order.
    pub fn iter_on(&self) -> impl Iterator<Item = State> + '_ {
        State::ALL.iter().copied().filter(|s| self.is(*s))
    }

    /// The states that are unknown, in declaration order.
    pub fn iter_unknown(&self) -> impl Iterator<Item = State> + '_ {
        State::ALL
            .iter()
            .copied()
            .filter(|s| self.get(*s).is_none())
    }
}

#[derive(Serialize, Deserialize)]
struct StateSetJson {
    on: Vec<State>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unknown: Vec<State>,
}

impl From<StateSet> for StateSetJson {
    fn from(set: StateSet) -> Self {
        StateSetJson {
            on: set.iter_on().collect(),
            unknown: set.iter_unknown().collect(),
        }
    }
}

impl From<StateSetJson> for StateSet {
    fn from(json: StateSetJson) -> Self {
        let mut set = StateSet::all_known(json.on);
        for state in json.unknown {
            set.forget(state);
        }
        set
    }
}

impl From<State> for &'static str {
    fn from(state: State) -> Self {
        state.name()
    }
}

impl TryFrom<String> for State {
    type Error = String;
    fn try_from(name: String) -> Result<Self, Self::Error> {
        State::from_name(&name).ok_or_else(|| format!("unknown state {name:?}"))
    }
}

impl std::fmt::Display for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_is_neither_on_nor_off() {
        let mut set = StateSet::all_known([State::Focused]);
        set.forget(State::Enabled);
        assert_eq!(set.get(State::Focused), Some(true));
        assert_eq!(set.get(State::Checked), Some(false));
        assert_eq!(set.get(State::Enabled), None);
        assert!(!set.is(State::Enabled) && !set.is_not(State::Enabled));
        set.set(State::Enabled, false);
        assert!(set.is_not(State::Enabled));
        assert_eq!(set.iter_on().collect::<Vec<_>>(), vec![State::Focused]);
    }

    #[test]
    fn names_round_trip() {
        for &state in State::ALL {
            assert_eq!(State::from_name(state.name()), Some(state));
        }
    }

    #[test]
    fn json_says_what_is_on_and_what_is_unknown() {
        let mut set = StateSet::all_known([State::Focused, State::Showing]);
        set.forget(State::Enabled);
        let json = serde_json::to_value(set).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"on": ["focused", "showing"], "unknown": ["enabled"]})
        );
        assert_eq!(serde_json::from_value::<StateSet>(json).unwrap(), set);
    }
}
