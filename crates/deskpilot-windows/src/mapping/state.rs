//! Properties and pattern states to the model's three-valued states: what the provider did
//! not say stays unknown.

use deskpilot_platform::model::{Role, State, StateSet};

use crate::raw::{Expansion, Pattern, RawElement, Toggle, Visual};

/// The element's states, `role` as mapped.
pub fn states(raw: &RawElement, role: Role) -> StateSet {
    let mut set = StateSet::unknown();
    let mut known = |state: State, value: Option<bool>| {
        if let Some(value) = value {
            set.set(state, value);
        }
    };
    known(State::Enabled, raw.enabled);
    // Offscreen: scrolled away, hidden or in a collapsed part; on screen otherwise.
    known(State::Showing, raw.offscreen.map(|off| !off));
    known(
        State::Visible,
        raw.offscreen.filter(|off| !off).map(|_| true),
    );
    known(State::Focused, raw.focused);
    known(State::Focusable, raw.focusable);
    let toggles = raw.has(Pattern::Toggle);
    known(State::Checkable, Some(toggles));
    if toggles {
        known(State::Checked, raw.toggle.map(|t| t == Toggle::On));
        known(State::Mixed, raw.toggle.map(|t| t == Toggle::Indeterminate));
        if role == Role::ToggleButton {
            known(State::Pressed, raw.toggle.map(|t| t == Toggle::On));
        }
    }
    if raw.has(Pattern::ExpandCollapse) {
        let expansion = raw.expansion;
        known(
            State::Expandable,
            expansion.map(|e| e != Expansion::LeafNode),
        );
        known(
            State::Expanded,
            expansion.map(|e| matches!(e, Expansion::Expanded | Expansion::PartiallyExpanded)),
        );
        known(
            State::Collapsed,
            expansion.map(|e| e == Expansion::Collapsed),
        );
    } else {
        known(State::Expandable, Some(false));
    }
    let selectable = raw.has(Pattern::SelectionItem);
    known(State::Selectable, Some(selectable));
    if selectable {
        known(State::Selected, raw.selected);
    }
    if raw.has(Pattern::Selection) {
        known(State::Multiselectable, raw.multiselect);
    }
    if raw.has(Pattern::Value) {
        known(State::ReadOnly, raw.read_only);
        known(State::Editable, raw.read_only.map(|ro| !ro));
    }
    known(State::Modal, raw.modal);
    if raw.has(Pattern::Window) {
        known(State::Minimized, raw.visual.map(|v| v == Visual::Minimized));
    }
    // A virtualizing container realizes its items on demand, as MANAGES_DESCENDANTS says.
    known(
        State::ManagesDescendants,
        Some(raw.has(Pattern::ItemContainer)),
    );
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raw::PatternSet;

    /// A state the provider does not report is unknown, never off.
    #[test]
    fn unreported_states_stay_unknown() {
        let raw = RawElement::default();
        let set = states(&raw, Role::Button);
        assert_eq!(set.get(State::Enabled), None);
        assert_eq!(set.get(State::Showing), None);
        assert_eq!(set.get(State::Checked), None);
        assert_eq!(set.get(State::Checkable), Some(false));
    }

    /// Toggle, expand, selection and window states come from their patterns.
    #[test]
    fn pattern_states() {
        let raw = RawElement {
            patterns: [
                Pattern::Toggle,
                Pattern::ExpandCollapse,
                Pattern::SelectionItem,
            ]
            .into_iter()
            .collect::<PatternSet>(),
            toggle: Some(Toggle::Indeterminate),
            expansion: Some(Expansion::Collapsed),
            selected: Some(true),
            enabled: Some(false),
            offscreen: Some(true),
            ..RawElement::default()
        };
        let set = states(&raw, Role::Checkbox);
        assert_eq!(set.get(State::Checked), Some(false));
        assert_eq!(set.get(State::Mixed), Some(true));
        assert_eq!(set.get(State::Collapsed), Some(true));
        assert_eq!(set.get(State::Expanded), Some(false));
        assert_eq!(set.get(State::Selected), Some(true));
        assert_eq!(set.get(State::Enabled), Some(false));
        assert_eq!(set.get(State::Showing), Some(false));
        assert_eq!(set.get(State::Visible), None);
        let minimized = RawElement {
            patterns: [Pattern::Window].into_iter().collect(),
            visual: Some(Visual::Minimized),
            ..RawElement::default()
        };
        assert!(states(&minimized, Role::Window).is(State::Minimized));
    }

    /// UIA's patterns fill the control model: Toggle is a check state, SelectionItem a
    /// selection (on/off in a multi-selection list, which its container's Selection pattern
    /// tells), and a button with neither has no on/off at all.
    #[test]
    fn patterns_fill_the_control_model() {
        use deskpilot_platform::model::control::{self, Switch};
        use deskpilot_platform::model::{ElementId, Node};
        let node = |raw: &RawElement, role| {
            let mut node = Node::new(ElementId::new("w:1:2", "7"), role);
            node.states = states(raw, role);
            node
        };
        let check = RawElement {
            patterns: [Pattern::Toggle].into_iter().collect::<PatternSet>(),
            toggle: Some(Toggle::Off),
            ..RawElement::default()
        };
        let check = node(&check, Role::Checkbox);
        assert_eq!(control::switch(&check, false), Some(Switch::Checked));
        assert_eq!(Switch::Checked.read(&check), Some(false));
        let item = RawElement {
            patterns: [Pattern::SelectionItem].into_iter().collect::<PatternSet>(),
            selected: Some(true),
            ..RawElement::default()
        };
        let item = node(&item, Role::ListItem);
        assert_eq!(control::switch(&item, false), None);
        assert_eq!(control::switch(&item, true), Some(Switch::Selected));
        assert_eq!(Switch::Selected.read(&item), Some(true));
        let button = node(&RawElement::default(), Role::Button);
        assert_eq!(control::switch(&button, false), None);
        assert_eq!(control::reads(&button, State::Checked), None);
        assert_eq!(control::reads(&button, State::Expanded), None);
    }
}
