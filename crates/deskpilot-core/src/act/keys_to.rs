//! Where typed text with no target goes: the focused element of the window keys go to, and
//! whether its text can be read back there.

use crate::model::{Capability, Node, Role, State};
use crate::read::Resolved;

/// What the focused element of a window is, for typed text.
pub(crate) enum KeysTo {
    /// A field that shows its text: typing is judged by that text, read back.
    Field(Box<Resolved>),
    /// Somewhere whose text cannot be read back (nothing focused, a canvas): sent, unverified.
    Elsewhere,
}

/// Controls a space or Enter presses, toggles or opens.
pub(crate) fn pressed_by_keys(role: Role) -> bool {
    super::plan::button_like(role)
        || matches!(
            role,
            Role::Link | Role::MenuItem | Role::MenuItemCheckbox | Role::MenuItemRadio | Role::Tab
        )
}

/// An element whose text typing edits and that reads it back.
pub(crate) fn shows_typed_text(node: &Node) -> bool {
    node.capabilities.contains(Capability::Text)
        && (node.capabilities.contains(Capability::TakesText) || node.states.is(State::Editable))
        && !node.states.is(State::ReadOnly)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ElementId;

    #[test]
    fn a_button_takes_no_typed_text_and_a_field_shows_it() {
        assert!(pressed_by_keys(Role::Button));
        assert!(!pressed_by_keys(Role::TextBox));
        let mut field = Node::new(ElementId::new(":1.1", "/f"), Role::TextBox);
        field.capabilities = [Capability::Text, Capability::TakesText]
            .into_iter()
            .collect();
        assert!(shows_typed_text(&field));
        field.states.set(State::ReadOnly, true);
        assert!(!shows_typed_text(&field));
        let mut terminal = Node::new(ElementId::new(":1.1", "/t"), Role::Terminal);
        terminal.capabilities = [Capability::Text].into_iter().collect();
        assert!(!shows_typed_text(&terminal));
    }
}
