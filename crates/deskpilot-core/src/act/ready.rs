//! Actionability, as Playwright's actions wait for it: exactly one visible match, not known to
//! be disabled (GTK 4.8 reports no `enabled`), editable for text, bounds that hold still for
//! pointer input. One rule for every face: the MCP tools and the CLI wait up to a per-call
//! timeout, the test library its own; each look is the engine's `Wake`.

use std::time::Duration;

use tokio::time::Instant;

use super::action::{Action, MouseButton, ValueInput};
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::model::{Capability, Node, Rect, Role, State};
use crate::platform::Secrecy;
use crate::read::{FindResult, Match, Target};
use crate::wait::FALLBACK_POLL;

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
    fn unmet(&self, node: &Node, previous: Option<Option<Rect>>) -> Option<Unmet> {
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
enum Unmet {
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

impl Engine {
    /// Whether a hidden element is only scrolled out of view: not a menu's item, not
    /// `visible` off, and its parent shown (a hidden popover's or page's field is not).
    async fn scrolled_out(&self, node: &Node) -> bool {
        let item = matches!(
            node.role,
            Role::MenuItem | Role::MenuItemCheckbox | Role::MenuItemRadio | Role::Menu
        );
        if item || node.states.is_not(State::Visible) {
            return false;
        }
        let Ok(Some(parent)) = self.backend().parent(&node.id).await else {
            return false;
        };
        match self.backend().node(&parent, Secrecy::NoText).await {
            Ok(parent) => crate::visibility::shown(&parent),
            Err(_) => false,
        }
    }

    /// One look at `target`: a selector's matches, or the ref's element read afresh.
    async fn look(&self, session: &str, target: &Target) -> Result<FindResult> {
        match target {
            Target::Selector(selector) => self.handle(session).find(selector, None, 50).await,
            Target::Ref(text) => {
                let resolved = self.handle(session).resolve_ref(text).await?;
                let m = Match {
                    reference: resolved.reference,
                    role: resolved.node.role,
                    name: resolved.node.display_name().to_owned(),
                    exact: true,
                    // A ref is meant whatever it shows: the ladder scrolls or refuses.
                    visible: true,
                    node: resolved.node,
                };
                Ok(FindResult {
                    matches: vec![m],
                    total: 1,
                    visible: 1,
                    exact: 1,
                    unsearched: Vec::new(),
                })
            }
        }
    }
}

impl crate::engine::Session<'_> {
    /// Waits up to `timeout` until `target` is exactly one visible element that meets
    /// `needs`; several visible matches fail at once (strict). A timeout of zero looks once.
    /// When the wait runs out on a match that is only hidden, it is returned (the ladder
    /// scrolls it into view or says what to open).
    pub async fn actionable(
        &self,
        target: &Target,
        needs: Needs,
        timeout: Duration,
    ) -> std::result::Result<Match, NotReady> {
        let session = self.id();
        let started = Instant::now();
        let deadline = started + timeout;
        let app = self.engine.session_info(session)?.root;
        let mut wake = self.engine.wake_on(&app, FALLBACK_POLL).await;
        // The element (its role and name: Qt hands out a new object for a table cell at each
        // query) and its bounds on the previous look, for `still`.
        let mut previous: Option<(Role, String, Option<Rect>)> = None;
        // Whether a hidden match is merely scrolled out of view, by its ref (asked once).
        let mut scrolled: Option<(String, bool)> = None;
        loop {
            let found = match self.engine.look(session, target).await {
                // A busy app is looked at again until the deadline (see `wait_for`).
                Err(e) if e.code == Code::AppNotResponding && Instant::now() < deadline => {
                    wake.next(deadline).await;
                    continue;
                }
                found => found?,
            };
            let visible: Vec<&Match> = found
                .matches
                .iter()
                .filter(|m| m.visible || needs.hidden_too)
                .collect();
            if visible.len() > 1 {
                return Err(NotReady::Ambiguous(found));
            }
            let bounds_before = |m: &Match| {
                previous
                    .as_ref()
                    .filter(|(role, name, _)| *role == m.role && *name == m.name)
                    .map(|(_, _, b)| *b)
            };
            let unmet = visible
                .first()
                .map(|m| (m, needs.unmet(&m.node, bounds_before(m))));
            if let Some((m, None)) = unmet {
                return Ok((*m).clone());
            }
            // One match, not shown: merely scrolled out of view, the ladder scrolls it in (as
            // Playwright's actions do); in a closed menu, a hidden popover or page, it is
            // waited for.
            if let ([only], true) = (found.matches.as_slice(), visible.is_empty()) {
                if scrolled.as_ref().is_none_or(|(r, _)| *r != only.reference) {
                    // An option of a closed combo box is chosen through it (see `act`).
                    let out = self.engine.scrolled_out(&only.node).await
                        || (needs.chooses && self.engine.combo_of(&only.node).await.is_some());
                    scrolled = Some((only.reference.clone(), out));
                }
                if scrolled.as_ref().is_some_and(|(_, out)| *out) {
                    return Ok(only.clone());
                }
            }
            if Instant::now() >= deadline {
                let code = match unmet {
                    Some((_, Some(Unmet::Disabled))) => Code::Disabled,
                    Some((_, Some(Unmet::NotEditable))) => Code::NotEditable,
                    Some((_, Some(Unmet::Moving))) => Code::Timeout,
                    Some((_, None)) => unreachable!("returned above"),
                    None if found.total == 0 => Code::NotFound,
                    None => Code::NotVisible,
                };
                let wanted = needs.wanted(visible.first().map(|m| &m.node));
                // A hidden match in a closed menu: the menu to open first.
                let menu = match (found.matches.as_slice(), visible.is_empty()) {
                    ([only], true) => self.engine.closed_menu_of(session, &only.node).await,
                    _ => None,
                };
                return Err(NotReady::TimedOut {
                    code,
                    wanted,
                    waited: timeout,
                    found,
                    menu,
                });
            }
            previous = visible
                .first()
                .map(|m| (m.role, m.name.clone(), m.node.bounds));
            wake.next(deadline).await;
        }
    }

    /// `action` on `target` once it is actionable (waiting up to `timeout`), through the
    /// ladder.
    pub async fn act_when_ready(
        &self,
        target: &Target,
        action: &Action,
        timeout: Duration,
    ) -> Result<super::ActionReport> {
        let ready = self.actionable(target, Needs::of(action), timeout).await?;
        self.act(&Target::Ref(ready.reference), action).await
    }
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
