//! AT-SPI state bits -> deskpilot states, three-valued.

use atspi::State as A;
use deskpilot_platform::model::{State, StateSet};

/// How completely an app reports states. Most toolkits report every state that applies, so an
/// absent state is off; GTK 4.8 never sets some (`enabled`, `sensitive`, `showing`, `visible`)
/// on most widgets, so their absence there means unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StateReporting {
    #[default]
    Complete,
    /// GTK 4: enabled/showing/visible only reported when on.
    Gtk4,
}

/// Maps raw AT-SPI state bits.
pub fn map_states(bits: u64, reporting: StateReporting) -> StateSet {
    let mut on = Vec::new();
    for index in 0..64u32 {
        if bits & (1 << index) == 0 {
            continue;
        }
        let Some(state) = atspi_state(index) else {
            continue;
        };
        if let Some(mapped) = map_state(state) {
            on.push(mapped);
        }
    }
    let mut set = StateSet::all_known(on);
    if reporting == StateReporting::Gtk4 {
        for state in [State::Enabled, State::Showing, State::Visible] {
            if !set.is(state) {
                set.forget(state);
            }
        }
    }
    set
}

fn atspi_state(index: u32) -> Option<A> {
    atspi::StateSet::from_bits(1u64 << index)
        .ok()?
        .iter()
        .next()
}

/// One AT-SPI state -> one deskpilot state; `None` for states an agent never needs.
fn map_state(state: A) -> Option<State> {
    Some(match state {
        A::Active => State::Active,
        A::Busy => State::Busy,
        A::Checked => State::Checked,
        A::Checkable => State::Checkable,
        A::Indeterminate => State::Mixed,
        A::Collapsed => State::Collapsed,
        A::Expandable => State::Expandable,
        A::Expanded => State::Expanded,
        A::Defunct => State::Defunct,
        A::Editable => State::Editable,
        A::ReadOnly => State::ReadOnly,
        A::Enabled | A::Sensitive => State::Enabled,
        A::Focusable => State::Focusable,
        A::Focused => State::Focused,
        A::HasPopup => State::HasPopup,
        A::Horizontal => State::Horizontal,
        A::Vertical => State::Vertical,
        A::Iconified => State::Minimized,
        A::Modal => State::Modal,
        A::MultiLine => State::Multiline,
        A::Multiselectable => State::Multiselectable,
        A::Pressed => State::Pressed,
        A::Required => State::Required,
        A::InvalidEntry => State::Invalid,
        A::Selectable => State::Selectable,
        A::Selected => State::Selected,
        A::Showing => State::Showing,
        A::Visible => State::Visible,
        A::IsDefault => State::Default,
        A::Visited => State::Visited,
        A::ManagesDescendants => State::ManagesDescendants,
        A::Invalid
        | A::Armed
        | A::HasTooltip
        | A::Opaque
        | A::Resizable
        | A::SingleLine
        | A::Stale
        | A::Transient
        | A::Truncated
        | A::Animated
        | A::SupportsAutocompletion
        | A::SelectableText => return None,
        // `atspi::State` is non-exhaustive: a state added upstream is ignored until mapped.
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(states: &[A]) -> u64 {
        states.iter().fold(0, |b, s| b | *s as u64)
    }

    #[test]
    fn complete_reporting_makes_absent_states_off() {
        let set = map_states(
            bits(&[A::Enabled, A::Sensitive, A::Focused, A::Checked]),
            StateReporting::Complete,
        );
        assert!(set.is(State::Enabled) && set.is(State::Focused) && set.is(State::Checked));
        assert!(set.is_not(State::Showing));
        assert!(set.is_not(State::Expanded));
    }

    #[test]
    fn gtk4_leaves_unreported_states_unknown() {
        let set = map_states(bits(&[A::Focusable]), StateReporting::Gtk4);
        assert_eq!(set.get(State::Enabled), None);
        assert_eq!(set.get(State::Showing), None);
        assert_eq!(set.get(State::Checked), Some(false));
        let set = map_states(bits(&[A::Showing, A::Sensitive]), StateReporting::Gtk4);
        assert!(set.is(State::Showing) && set.is(State::Enabled));
    }

    #[test]
    fn unknown_bits_are_ignored() {
        let set = map_states(1 << 60 | A::Focused as u64, StateReporting::Complete);
        assert!(set.is(State::Focused));
    }
}
