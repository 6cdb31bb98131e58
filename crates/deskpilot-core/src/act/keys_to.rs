//! Where typed text with no target goes: the focused element of the window keys go to, and
//! whether its text can be read back there.

use super::subject::Subject;
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::escape::quoted;
use std::time::Duration;

use crate::model::{Capability, ElementId, Node, Role, State};
use crate::platform::WalkLimits;
use crate::read::{Match, Resolved, Target};

/// What the focused element of a window is, for typed text.
pub(super) enum KeysTo {
    /// A field that shows its text: typing is judged by that text, read back.
    Field(Box<Resolved>),
    /// Somewhere whose text cannot be read back (nothing focused, a canvas): sent, unverified.
    Elsewhere,
}

impl Engine {
    /// Where text typed into `window` (the session's keys window) goes, and how it is said
    /// (`the keys went to button "No" in alert "Question"`). A control that a space or Enter
    /// would press is refused: typed text there answers a question nobody asked.
    pub(super) async fn keys_to(
        &self,
        session: &str,
        window: &Subject,
    ) -> Result<(KeysTo, String)> {
        let in_window = format!(
            "{} {}",
            window.node().role,
            quoted(window.node().display_name(), 100)
        );
        let focused = match self.focus_under(session, &window.node().id).await? {
            Some(m) if shows_typed_text(&m.node) || pressed_by_keys(m.node.role) => Some(m),
            // Qt names a container in its focus events: the field inside it that says it has
            // the focus is where the keys go.
            other => self
                .focused_field(session, &window.node().id)
                .await
                .or(other),
        };
        let Some(focused) = focused else {
            return Ok((
                KeysTo::Elsewhere,
                format!("the keys went to {in_window}; no element there says it has the focus"),
            ));
        };
        let what = format!(
            "{} {} in {in_window}",
            focused.node.role,
            quoted(focused.node.display_name(), 100)
        );
        if pressed_by_keys(focused.node.role) {
            return Err(Error::new(
                Code::NotEditable,
                format!(
                    "`type_text` with no target: the keys would go to {what} [ref={}], which takes no text (a space or Enter would press it)",
                    focused.reference
                ),
                "answer or close that window first (click the button you mean), or give `type_text` the field as its target",
            ));
        }
        let went = format!("the keys went to {what}");
        if !shows_typed_text(&focused.node) {
            return Ok((KeysTo::Elsewhere, went));
        }
        let resolved = self
            .handle(session)
            .resolve(&Target::Ref(focused.reference))
            .await?;
        Ok((KeysTo::Field(Box::new(resolved)), went))
    }
}

impl Engine {
    /// The deepest element under `window` that says it has the focus and shows typed text.
    async fn focused_field(&self, session: &str, window: &ElementId) -> Option<Match> {
        let limits = WalkLimits {
            max_nodes: 20_000,
            ..WalkLimits::with_timeout(Duration::from_secs(15))
        };
        let mut tree = self.backend().snapshot(window, &limits).await.ok()?;
        let named = self.focus_named(&tree).await;
        crate::derive::derive_what_readers_see(&mut tree, &named);
        let seen = crate::visibility::visible(&tree);
        let field = (0..tree.len())
            .filter(|&i| {
                let node = &tree.nodes[i].node;
                node.states.is(State::Focused) && shows_typed_text(node)
            })
            .max_by_key(|&i| tree.nodes[i].depth)?;
        self.match_of(session, &tree.nodes[field].node, true, seen[field])
            .ok()
    }
}

/// Controls a space or Enter presses, toggles or opens.
fn pressed_by_keys(role: Role) -> bool {
    super::plan::button_like(role)
        || matches!(
            role,
            Role::Link | Role::MenuItem | Role::MenuItemCheckbox | Role::MenuItemRadio | Role::Tab
        )
}

/// An element whose text typing edits and that reads it back.
fn shows_typed_text(node: &Node) -> bool {
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
