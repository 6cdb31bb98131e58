//! The control model: for an element, by its role and what it reports, which state carries
//! its on/off, which states apply to it at all, where its value lives and what a click on it
//! means. Every verb and every judgement reads states through it. A state is known off only
//! where it applies: a bit a backend did not report is no evidence of "off" on a control
//! that has no such state (a Qt checklist's item has no `checked`; its on/off is `selected`).

use super::{Capability, Node, Role, State};

/// The state that carries a control's on/off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Switch {
    /// A check box, radio, switch or checkable item: `checked`.
    Checked,
    /// A toggle button: `checked` or `pressed`, whichever the toolkit sets.
    Pressed,
    /// An item of a multi-selection list with no check state of its own: `selected`.
    Selected,
}

impl Switch {
    /// On, off, or `None` where the element does not say.
    pub fn read(self, node: &Node) -> Option<bool> {
        let states = &node.states;
        match self {
            Switch::Checked => states.get(State::Checked),
            Switch::Pressed => match (states.get(State::Checked), states.get(State::Pressed)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), _) | (_, Some(false)) => Some(false),
                (None, None) => None,
            },
            Switch::Selected => reads(node, State::Selected),
        }
    }

    /// The state's name, for notes.
    pub fn state(self) -> State {
        match self {
            Switch::Checked => State::Checked,
            Switch::Pressed => State::Pressed,
            Switch::Selected => State::Selected,
        }
    }
}

/// Roles whose on/off is `checked` by definition.
fn checks(role: Role) -> bool {
    matches!(
        role,
        Role::Checkbox | Role::Radio | Role::Switch | Role::MenuItemCheckbox | Role::MenuItemRadio
    )
}

/// Items of a list, tree or table: a click on one selects it.
pub fn is_item(role: Role) -> bool {
    matches!(
        role,
        Role::ListItem | Role::TreeItem | Role::Row | Role::Cell
    )
}

/// The state that carries `node`'s on/off, when it has one. An item is a multi-selection
/// list's when it says so itself (Qt) or its container does (`in_multiselection`, read by
/// whoever can).
pub fn switch(node: &Node, in_multiselection: bool) -> Option<Switch> {
    let states = &node.states;
    if node.role == Role::ToggleButton {
        return Some(Switch::Pressed);
    }
    if states.is(State::Checkable) || states.is(State::Checked) || checks(node.role) {
        return Some(Switch::Checked);
    }
    let multi = states.is(State::Multiselectable) || in_multiselection;
    (is_item(node.role) && states.is(State::Selectable) && multi).then_some(Switch::Selected)
}

/// Whether `state` means anything on `node`: only then is its absence "off".
pub fn applies(node: &Node, state: State) -> bool {
    let states = &node.states;
    match state {
        State::Checked | State::Mixed | State::Checkable => {
            states.is(State::Checkable) || checks(node.role) || node.role == Role::ToggleButton
        }
        State::Pressed => node.role == Role::ToggleButton,
        State::Selected => states.is(State::Selectable),
        State::Expanded | State::Collapsed => {
            states.is(State::Expandable) || states.is(State::Collapsed)
        }
        State::Focused => states.is(State::Focusable),
        _ => true,
    }
}

/// `state` of `node`: on when reported on, off only where it applies, else unknown.
pub fn reads(node: &Node, state: State) -> Option<bool> {
    match node.states.get(state) {
        Some(true) => Some(true),
        known if applies(node, state) => known,
        _ => None,
    }
}

/// What a plain left click on `node` means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClickMeans {
    /// Press it (a button, a link, a menu): its default action.
    Press,
    /// Select it, as a person's click on a row does; activating a row is `activate`, or a
    /// double click.
    Select,
}

/// What a plain left click on `node` means.
pub fn click_means(node: &Node) -> ClickMeans {
    if is_item(node.role) && node.states.is(State::Selectable) {
        ClickMeans::Select
    } else {
        ClickMeans::Press
    }
}

/// Whether `node`'s value is a number (a spin button, a slider): a value given as text that
/// reads as a number is set as that number.
pub fn numeric(node: &Node) -> bool {
    node.capabilities.contains(Capability::Number)
        || matches!(node.role, Role::SpinButton | Role::Slider)
}

#[cfg(test)]
#[path = "control_tests.rs"]
mod tests;
