//! Actionability, as Playwright's actions wait for it: exactly one visible match, not known to
//! be disabled (GTK 4.8 reports no `enabled`), editable for text, bounds that hold still for
//! pointer input. One rule for every face: the MCP tools and the CLI wait up to a per-call
//! timeout, the test library its own; each look is the engine's `Wake`.

use std::time::Duration;

use super::action::{Action, MouseButton, ValueInput};
use crate::error::{Code, Error};
use crate::model::{Capability, Node, Rect, State};
use crate::read::{FindResult, Match};

/// When an action waits for the element's bounds to hold still.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Still {
    /// Never: the action goes through the element's own semantics.
    #[default]
    Never,
    /// Always: the action is real pointer input.
    Always,
    /// When the element has neither an action of its own nor a keyboard focus to take (then
    /// a click falls to the pointer).
    IfPointed,
}

impl Still {
    /// Whether `node`'s bounds must hold still before the action.
    pub fn applies_to(self, node: &Node) -> bool {
        match self {
            Still::Never => false,
            Still::Always => true,
            Still::IfPointed => {
                !node.capabilities.contains(Capability::Actions)
                    && !node.states.is(State::Focusable)
            }
        }
    }
}

/// What an element must be before an action is sent to it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Needs {
    pub enabled: bool,
    pub editable: bool,
    /// When the bounds must be the same on two looks in a row (pointer input goes to where
    /// the element is now).
    pub still: Still,
    /// Hidden matches count too (scrolling one into view is the point).
    pub hidden_too: bool,
    /// A hidden option of a combo box will do: the action chooses it through the combo box.
    pub chooses: bool,
}

impl Needs {
    /// What `action` needs of its element: the same for every face.
    pub fn of(action: &Action) -> Needs {
        let enabled = Needs {
            enabled: true,
            ..Needs::default()
        };
        match action {
            Action::ScrollIntoView => Needs {
                hidden_too: true,
                ..Needs::default()
            },
            Action::Click {
                button: MouseButton::Left,
                double: false,
            } => Needs {
                still: Still::IfPointed,
                chooses: true,
                ..enabled
            },
            Action::Select => Needs {
                chooses: true,
                ..enabled
            },
            Action::Click { .. } | Action::Scroll { .. } => Needs {
                still: Still::Always,
                ..enabled
            },
            Action::SetValue(ValueInput::Text(_)) => Needs {
                editable: true,
                ..enabled
            },
            _ => enabled,
        }
    }

    /// What is waited for, in words.
    pub fn wanted(&self, node: Option<&Node>) -> String {
        let mut wanted = match (self.enabled, self.editable) {
            (_, true) => "visible, enabled and editable",
            (true, false) => "visible and enabled",
            _ => "visible",
        }
        .to_owned();
        let pointed = match node {
            Some(node) => self.still.applies_to(node),
            None => self.still == Still::Always,
        };
        if pointed {
            wanted.push_str(", with bounds that hold still (for pointer input)");
        }
        wanted
    }

    /// The first need `node` does not meet (with `previous`, its bounds on the look before).
    pub(crate) fn unmet(&self, node: &Node, previous: Option<Option<Rect>>) -> Option<Unmet> {
        let states = &node.states;
        if self.enabled && states.is_not(State::Enabled) {
            return Some(Unmet::Disabled);
        }
        let takes_text =
            states.is(State::Editable) || node.capabilities.contains(Capability::TakesText);
        if self.editable && (!takes_text || states.is(State::ReadOnly)) {
            return Some(Unmet::NotEditable);
        }
        let placed = node.bounds.is_some_and(|b| !b.is_empty());
        if self.still.applies_to(node) && !(placed && previous == Some(node.bounds)) {
            return Some(Unmet::Moving);
        }
        None
    }
}

/// A need not met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unmet {
    Disabled,
    NotEditable,
    Moving,
}

/// Why an element did not become actionable.
#[derive(Debug, Clone)]
pub enum NotReady {
    /// The engine failed (a stale ref, a frozen app).
    Failed(Error),
    /// Several visible elements match: one was meant (strict), whatever a wait would bring.
    Ambiguous(FindResult),
    /// The wait ran out: what was wanted, and the last look.
    TimedOut {
        code: Code,
        wanted: String,
        /// How long it was waited for (the timeout asked).
        waited: Duration,
        found: FindResult,
        /// The closed menu the only match is in, to open first.
        menu: Option<String>,
    },
}

impl From<Error> for NotReady {
    fn from(error: Error) -> Self {
        NotReady::Failed(error)
    }
}

impl From<NotReady> for Error {
    fn from(not_ready: NotReady) -> Self {
        match not_ready {
            NotReady::Failed(error) => error,
            NotReady::Ambiguous(found) => Error::new(
                Code::Ambiguous,
                format!(
                    "{} visible elements match, one was meant: {}",
                    found.visible,
                    crate::wait::last_seen(&found)
                ),
                "make the selector match one element (add [name=...] or :nth(N)), or use a ref",
            ),
            NotReady::TimedOut {
                found,
                menu: Some(menu),
                waited,
                ..
            } if found.matches.len() == 1 => Error::new(
                Code::NotVisible,
                format!(
                    "{} is in a closed menu: open {menu} first (waited {} ms)",
                    described(&found.matches[0]),
                    waited.as_millis()
                ),
                "`click` the menu (or `act` expand on it), then act on the item",
            ),
            NotReady::TimedOut {
                code: Code::Disabled,
                waited,
                found,
                ..
            } if found.matches.len() == 1 => Error::new(
                Code::Disabled,
                format!(
                    "{} is disabled (waited {} ms for it to be enabled); last seen: {}",
                    described(&found.matches[0]),
                    waited.as_millis(),
                    crate::wait::last_seen(&found)
                ),
                "retry later, or do what enables it first; a longer timeout (timeout_ms, --timeout-ms) waits for it",
            ),
            NotReady::TimedOut {
                code,
                wanted,
                waited,
                found,
                ..
            } => {
                let hint = match code {
                    Code::NotEditable => {
                        "`set_value` needs an editable field; use `click` or `act` on other controls"
                    }
                    Code::NotFound => {
                        "check the selector against a fresh `snapshot`; the element may not exist yet (a longer timeout_ms waits for it)"
                    }
                    _ => "retry, or give a longer timeout_ms",
                };
                Error::new(
                    code,
                    format!(
                        "not {wanted} after {} ms; last seen: {}",
                        waited.as_millis(),
                        crate::wait::last_seen(&found)
                    ),
                    hint,
                )
            }
        }
    }
}

/// A match as refusals name it: `e5 (button "Save")`.
fn described(m: &Match) -> String {
    format!(
        "{} ({} {})",
        m.reference,
        m.role,
        crate::escape::quoted(&m.name, 100)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ElementId, Role};

    fn node(role: Role) -> Node {
        Node::new(ElementId::new(":1.1", "/o/1"), role)
    }

    /// A click waits for still bounds only where it would fall to the pointer: no action of
    /// the element's own, no focus to take.
    #[test]
    fn a_click_waits_for_still_bounds_only_when_pointed() {
        let bare = node(Role::Label);
        let mut pressable = node(Role::Button);
        pressable.capabilities.insert(Capability::Actions);
        let mut focusable = node(Role::Unknown);
        focusable.states.set(State::Focusable, true);
        assert!(Still::IfPointed.applies_to(&bare));
        assert!(!Still::IfPointed.applies_to(&pressable));
        assert!(!Still::IfPointed.applies_to(&focusable));
        assert!(Still::Always.applies_to(&pressable));
        assert!(!Still::Never.applies_to(&bare));
    }

    /// Not known to be disabled is enabled (GTK 4.8 reports no `enabled`); text needs an
    /// editable field; pointer input needs the bounds of the look before.
    #[test]
    fn what_each_action_needs_and_what_blocks_it() {
        let click = Action::Click {
            button: MouseButton::Left,
            double: false,
        };
        let mut save = node(Role::Button);
        save.capabilities.insert(Capability::Actions);
        assert_eq!(Needs::of(&click).unmet(&save, None), None);
        save.states.set(State::Enabled, false);
        assert_eq!(Needs::of(&click).unmet(&save, None), Some(Unmet::Disabled));
        let fill = Action::SetValue(ValueInput::Text("notes.txt".into()));
        let mut field = node(Role::TextBox);
        assert_eq!(
            Needs::of(&fill).unmet(&field, None),
            Some(Unmet::NotEditable)
        );
        field.capabilities.insert(Capability::TakesText);
        assert_eq!(Needs::of(&fill).unmet(&field, None), None);
        let double = Action::Click {
            button: MouseButton::Left,
            double: true,
        };
        let mut cell = node(Role::Cell);
        cell.bounds = Some(Rect::new(10, 10, 40, 20));
        assert_eq!(Needs::of(&double).unmet(&cell, None), Some(Unmet::Moving));
        let moved = Some(Some(Rect::new(10, 30, 40, 20)));
        assert_eq!(Needs::of(&double).unmet(&cell, moved), Some(Unmet::Moving));
        assert_eq!(Needs::of(&double).unmet(&cell, Some(cell.bounds)), None);
        assert!(Needs::of(&Action::ScrollIntoView).hidden_too);
    }
}
