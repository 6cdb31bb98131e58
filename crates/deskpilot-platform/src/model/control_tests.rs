//! The control model per role, on nodes as each platform's mapping builds them: AT-SPI's
//! (every state known, absent ones off) and UI Automation's (only what a pattern reports).

use super::*;
use crate::model::{ElementId, StateSet};

/// A node from a mapping that reports every state (AT-SPI's): the states on, every other
/// one known off.
fn complete(role: Role, on: &[State]) -> Node {
    let mut node = Node::new(ElementId::new(":1.1", "/a"), role);
    node.states = StateSet::all_known(on.iter().copied());
    node
}

/// A node from a mapping that reports only what a pattern says (UI Automation's).
fn partial(role: Role, known: &[(State, bool)]) -> Node {
    let mut node = Node::new(ElementId::new("w:1:2", "7"), role);
    for (state, on) in known {
        node.states.set(*state, *on);
    }
    node
}

/// kdialog's checklist (Qt 5): a list item whose on/off is `selected`; no `checked` at all.
#[test]
fn a_qt_checklist_item_is_on_when_selected() {
    use State::*;
    let on = complete(
        Role::ListItem,
        &[Enabled, Focusable, Multiselectable, Selectable, Selected],
    );
    assert_eq!(switch(&on, false), Some(Switch::Selected));
    assert_eq!(Switch::Selected.read(&on), Some(true));
    assert_eq!(reads(&on, Checked), None, "no checked state, so never off");
    let off = complete(
        Role::ListItem,
        &[Enabled, Focusable, Multiselectable, Selectable],
    );
    assert_eq!(Switch::Selected.read(&off), Some(false));
}

/// An item of a single-selection list has no on/off: nothing reads as "already off".
#[test]
fn an_item_of_a_single_selection_list_has_no_switch() {
    let item = complete(Role::ListItem, &[State::Selectable]);
    assert_eq!(switch(&item, false), None);
    assert_eq!(reads(&item, State::Checked), None);
    assert_eq!(reads(&item, State::Selected), Some(false));
    // Its container says it takes many: then selected is its on/off.
    assert_eq!(switch(&item, true), Some(Switch::Selected));
}

/// A button reports no `checked`: AT-SPI's absent bit is not "off".
#[test]
fn a_plain_button_is_neither_on_nor_off() {
    let button = complete(Role::Button, &[State::Enabled, State::Focusable]);
    assert_eq!(switch(&button, false), None);
    assert_eq!(reads(&button, State::Checked), None);
    assert_eq!(reads(&button, State::Pressed), None);
    assert_eq!(reads(&button, State::Expanded), None);
}

/// Check boxes, radios, switches and check menu items read `checked`, off when absent.
#[test]
fn checkable_roles_read_checked() {
    for role in [
        Role::Checkbox,
        Role::Radio,
        Role::Switch,
        Role::MenuItemCheckbox,
        Role::MenuItemRadio,
    ] {
        let off = complete(role, &[]);
        assert_eq!(switch(&off, false), Some(Switch::Checked), "{role}");
        assert_eq!(Switch::Checked.read(&off), Some(false), "{role}");
        let on = complete(role, &[State::Checked]);
        assert_eq!(Switch::Checked.read(&on), Some(true), "{role}");
    }
    // Any element that says it is checkable (a Qt view's check item).
    let item = complete(Role::ListItem, &[State::Checkable, State::Selectable]);
    assert_eq!(switch(&item, true), Some(Switch::Checked));
}

/// A toggle button: one toolkit says `checked`, another `pressed` (GTK 3, GTK 4).
#[test]
fn a_toggle_button_reads_checked_or_pressed() {
    let checked = complete(Role::ToggleButton, &[State::Checked]);
    let pressed = complete(Role::ToggleButton, &[State::Pressed]);
    let off = complete(Role::ToggleButton, &[]);
    assert_eq!(switch(&checked, false), Some(Switch::Pressed));
    assert_eq!(Switch::Pressed.read(&checked), Some(true));
    assert_eq!(Switch::Pressed.read(&pressed), Some(true));
    assert_eq!(Switch::Pressed.read(&off), Some(false));
}

/// UI Automation: the Toggle pattern gives `checkable` and `checked`; SelectionItem gives
/// `selectable` and `selected`; the container's Selection pattern says whether it takes many.
#[test]
fn ui_automations_patterns_fill_the_same_model() {
    let check = partial(
        Role::Checkbox,
        &[(State::Checkable, true), (State::Checked, false)],
    );
    assert_eq!(switch(&check, false), Some(Switch::Checked));
    assert_eq!(Switch::Checked.read(&check), Some(false));
    let item = partial(
        Role::ListItem,
        &[
            (State::Checkable, false),
            (State::Selectable, true),
            (State::Selected, true),
        ],
    );
    assert_eq!(switch(&item, false), None);
    assert_eq!(switch(&item, true), Some(Switch::Selected));
    assert_eq!(Switch::Selected.read(&item), Some(true));
    // A provider that reports no toggle state: unknown, never off.
    let silent = partial(Role::Checkbox, &[(State::Checkable, true)]);
    assert_eq!(Switch::Checked.read(&silent), None);
}

/// Expanded is off only on what can expand.
#[test]
fn expanded_is_off_only_where_it_can_expand() {
    let leaf = complete(Role::TreeItem, &[State::Selectable]);
    assert_eq!(reads(&leaf, State::Expanded), None);
    let folder = complete(Role::TreeItem, &[State::Expandable, State::Collapsed]);
    assert_eq!(reads(&folder, State::Expanded), Some(false));
    let open = complete(Role::TreeItem, &[State::Expanded]);
    assert_eq!(reads(&open, State::Expanded), Some(true));
}

/// A click on a selectable row selects it; anything else is pressed.
#[test]
fn a_click_selects_a_row_and_presses_the_rest() {
    let row = complete(Role::Row, &[State::Selectable]);
    assert_eq!(click_means(&row), ClickMeans::Select);
    let cell = complete(Role::Cell, &[State::Selectable]);
    assert_eq!(click_means(&cell), ClickMeans::Select);
    let plain = complete(Role::ListItem, &[]);
    assert_eq!(click_means(&plain), ClickMeans::Press);
    let button = complete(Role::Button, &[]);
    assert_eq!(click_means(&button), ClickMeans::Press);
}

/// A spin button or anything with a number is numeric; a text box is not.
#[test]
fn numbers_live_in_spin_buttons_and_number_capable_elements() {
    assert!(numeric(&complete(Role::SpinButton, &[])));
    let mut slider = complete(Role::Generic, &[]);
    slider.capabilities.insert(Capability::Number);
    assert!(numeric(&slider));
    assert!(!numeric(&complete(Role::TextBox, &[])));
}
