//! The route ladder for one action on one element, worked out before anything is sent: the
//! rungs to try in order, the rungs ruled out up front (and why), and the postcondition that
//! confirms the effect. Pure: no I/O.

use super::action::{Action, Direction, MouseButton, NativeOp, OnOff, ValueInput};
use super::report::{Rung, Skipped};
use crate::model::control::{self, Switch};
use crate::model::{ActionName, Capability, Node, NodeValue, Role, State};
use crate::platform::{NativeRoute, NativeRoutes};
use deskpilot_platform::InputText;
use deskpilot_platform::{Chord, Key, Modifier, NamedKey};

/// What one rung sends.
#[derive(Debug, Clone, PartialEq)]
pub enum Delivery {
    /// A semantic operation, as the backend will do it.
    Native(NativeRoute),
    /// A semantic operation on another element than the target (an option of the target
    /// combo box).
    NativeOn {
        element: Box<Node>,
        route: NativeRoute,
    },
    /// Focus the element (unless it has focus), then these keys.
    Keys(Vec<KeyInput>),
    /// A pointer click at the centre of the element's live bounds.
    Pointer { button: MouseButton, double: bool },
    /// The mouse wheel over the centre of the element's live bounds.
    Wheel { direction: Direction, amount: u32 },
}

/// Keyboard input of a rung.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyInput {
    Chord(Chord),
    Text(InputText),
    /// Opens the element's list (a combo box's): by its own action when it has one (the
    /// open list takes the keys: the element is not focused first), else this chord, unless
    /// the click that focused it opened the list already. Only first.
    OpenList(Chord),
    /// When the rung had to focus the element: the caret to the end of its text (focusing
    /// a GTK entry selects all of it, and typing would replace it).
    CaretToEndIfFocused,
}

/// One rung to try.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    pub rung: Rung,
    pub delivery: Delivery,
}

/// The postcondition that confirms an action.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// No cheap postcondition: a visible change confirms, none leaves it unverified.
    AnyChange,
    /// The state that carries the control's on/off reads `on`.
    OnOff { switch: Switch, on: bool },
    /// The state that carries the control's on/off differs from what it was.
    Flipped { switch: Switch, was: bool },
    /// A state reads on (or off).
    State { state: State, on: bool },
    /// The text value is exactly this.
    Text(InputText),
    /// The secret's character count is this.
    Chars(u32),
    /// The text value contains this (typed text).
    Contains(InputText),
    /// The numeric value is this.
    Number(f64),
    /// A menu's items are showing.
    MenuOpen,
    /// The combo box shows this option.
    Shown(String),
}

/// The ladder for an action.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub attempts: Vec<Attempt>,
    /// Rungs ruled out before trying anything.
    pub skipped: Vec<Skipped>,
    pub expect: Expect,
    /// Why the effect cannot be read back, when it cannot (a toggle on a control with no
    /// on/off state): then a change is no confirmation.
    pub unreadable: Option<&'static str>,
}

/// The note of a toggle on a control whose on/off deskpilot cannot read.
pub const NO_ON_OFF_STATE: &str = "the control reports no on/off state (checked, pressed, or selected in a multi-selection list): the effect cannot be read back";

/// The semantic rung for `op`, when the backend can do it on `node`; else why not.
fn semantic(
    routes: &dyn NativeRoutes,
    node: &Node,
    op: NativeOp,
    steps: &mut Vec<Attempt>,
    skipped: &mut Vec<Skipped>,
) {
    match routes.native_route(node, &op) {
        Ok(route) => steps.push(Attempt {
            rung: Rung::Semantic,
            delivery: Delivery::Native(route),
        }),
        Err(why) => skipped.push(skip(Rung::Semantic, why)),
    }
}

fn keys(input: Vec<KeyInput>) -> Attempt {
    Attempt {
        rung: Rung::Keyboard,
        delivery: Delivery::Keys(input),
    }
}

fn pointer(button: MouseButton, double: bool) -> Attempt {
    Attempt {
        rung: Rung::Pointer,
        delivery: Delivery::Pointer { button, double },
    }
}

fn chord(key: Key) -> KeyInput {
    KeyInput::Chord(Chord::plain(key))
}

fn skip(rung: Rung, why: impl Into<String>) -> Skipped {
    Skipped {
        rung,
        why: why.into(),
    }
}

/// Controls a space presses or toggles.
pub(super) fn button_like(role: Role) -> bool {
    matches!(
        role,
        Role::Button
            | Role::ToggleButton
            | Role::MenuButton
            | Role::Checkbox
            | Role::Radio
            | Role::Switch
    )
}

/// The ladder for `action` on `node`; `routes` says which semantic operations the backend
/// can do on it.
pub fn plan(action: &Action, node: &Node, routes: &dyn NativeRoutes) -> Plan {
    let mut steps = Vec::new();
    let mut skipped = Vec::new();
    let mut unreadable = None;
    let semantic = |op, steps: &mut Vec<Attempt>, skipped: &mut Vec<Skipped>| {
        semantic(routes, node, op, steps, skipped)
    };
    let expect = match action {
        Action::Click { button, double } => {
            if *button == MouseButton::Left && !double {
                semantic(NativeOp::Press, &mut steps, &mut skipped);
                if node.role == Role::Menu {
                    // Opening a menu is safe to repeat: a semantic click that left it closed
                    // (peers saw this on GNOME) falls through to the real pointer.
                    skipped.push(skip(Rung::Keyboard, "no keyboard route opens a menu"));
                } else if button_like(node.role) {
                    steps.push(keys(vec![chord(Key::Named(NamedKey::Space))]));
                } else {
                    skipped.push(skip(
                        Rung::Keyboard,
                        format!("no key activates a {}", node.role),
                    ));
                }
            } else {
                skipped.push(skip(
                    Rung::Semantic,
                    "only a left single click has a semantic route",
                ));
                skipped.push(skip(Rung::Keyboard, "no keyboard equivalent"));
            }
            steps.push(pointer(*button, *double));
            // A click flips a check box or a toggle; a radio or an item stays on.
            let flips = control::switch(node, false)
                .filter(|_| !matches!(node.role, Role::Radio | Role::MenuItemRadio))
                .filter(|_| !control::is_item(node.role))
                .and_then(|switch| Some((switch, switch.read(node)?)));
            if node.role == Role::Menu && *button == MouseButton::Left && !double {
                Expect::MenuOpen
            } else if let Some((switch, was)) = flips {
                Expect::Flipped { switch, was }
            } else {
                Expect::AnyChange
            }
        }
        Action::SetValue(ValueInput::Text(text)) => {
            semantic(NativeOp::SetText(text.clone()), &mut steps, &mut skipped);
            steps.push(keys(vec![
                KeyInput::Chord(routes.edit_keys().select_all),
                KeyInput::Text(text.clone()),
            ]));
            skipped.push(skip(Rung::Pointer, "text is entered with keys"));
            if node.is_secret() || text.is_secret() {
                Expect::Chars(text.chars() as u32)
            } else {
                Expect::Text(text.clone())
            }
        }
        Action::SetValue(ValueInput::Number(number)) => {
            semantic(NativeOp::SetNumber(*number), &mut steps, &mut skipped);
            if node.capabilities.contains(Capability::TakesText) {
                if control::numeric(node) {
                    // GTK's spin button keeps text set outright uncommitted: its value stays,
                    // and the text is left half done. Typed text is committed with Enter.
                    skipped.push(skip(
                        Rung::Semantic,
                        "a number field's text set outright is not committed",
                    ));
                } else {
                    semantic(
                        NativeOp::SetText(format_number(*number).into()),
                        &mut steps,
                        &mut skipped,
                    );
                }
                steps.push(keys(vec![
                    KeyInput::Chord(routes.edit_keys().select_all),
                    KeyInput::Text(format_number(*number).into()),
                    chord(Key::Named(NamedKey::Enter)),
                ]));
            } else {
                skipped.push(skip(
                    Rung::Keyboard,
                    "no text field to type the number into",
                ));
            }
            skipped.push(skip(Rung::Pointer, "a value is not set by pointing"));
            Expect::Number(*number)
        }
        Action::TypeText(text) => {
            let text_field = node.capabilities.contains(Capability::Text);
            let mut input = vec![KeyInput::Text(text.clone())];
            if text_field {
                input.insert(0, KeyInput::CaretToEndIfFocused);
            }
            steps.push(keys(input));
            // Only reached when no key could be sent (typing is never sent twice): an element
            // that takes no focus but edits (an office suite's paragraphs), or no display to
            // type on.
            semantic(NativeOp::AppendText(text.clone()), &mut steps, &mut skipped);
            let focused = node.states.is(State::Focused);
            match (&node.value, text_field) {
                (Some(NodeValue::Redacted { chars: Some(n) }), _) => {
                    Expect::Chars(n + text.chars() as u32)
                }
                // Focused here, the caret goes to the end: the text grows by what is typed.
                (Some(NodeValue::Text { text: now }), true) if !focused => {
                    Expect::Text(InputText::plain(format!("{now}{}", text.expose())))
                }
                (Some(NodeValue::Text { .. }), true) => Expect::Contains(text.clone()),
                _ => Expect::AnyChange,
            }
        }
        Action::PressKey(key) => {
            skipped.push(skip(Rung::Semantic, "a key press is a keystroke"));
            steps.push(keys(vec![KeyInput::Chord(key.clone())]));
            Expect::AnyChange
        }
        Action::Toggle { ensure } => {
            let switch = control::switch(node, false);
            toggle_rungs((routes, node), *ensure, &mut steps, &mut skipped);
            let expect = match (switch, ensure) {
                (Some(switch), Some(want)) => Some(Expect::OnOff {
                    switch,
                    on: *want == OnOff::On,
                }),
                (Some(switch), None) => {
                    switch.read(node).map(|was| Expect::Flipped { switch, was })
                }
                (None, _) => None,
            };
            match expect {
                Some(expect) => expect,
                None => {
                    unreadable = Some(NO_ON_OFF_STATE);
                    Expect::AnyChange
                }
            }
        }
        Action::Select | Action::AddToSelection => {
            let op = if *action == Action::Select {
                NativeOp::Select
            } else {
                NativeOp::AddToSelection
            };
            semantic(op, &mut steps, &mut skipped);
            if *action == Action::Select
                && matches!(node.role, Role::Tab | Role::Radio | Role::MenuItemRadio)
            {
                // Pressing a tab (or a radio item) is what selects it.
                semantic(NativeOp::Press, &mut steps, &mut skipped);
            }
            if *action == Action::Select {
                steps.push(keys(vec![chord(Key::Named(NamedKey::Space))]));
                steps.push(pointer(MouseButton::Left, false));
            } else {
                skipped.push(skip(
                    Rung::Keyboard,
                    "no key adds to a selection everywhere",
                ));
                skipped.push(skip(Rung::Pointer, "ctrl+click is not sent"));
            }
            Expect::State {
                state: State::Selected,
                on: true,
            }
        }
        // Planned from the combo box's options, read first (`choose::choice_plan`).
        Action::SelectOption(_) => Expect::AnyChange,
        Action::Deselect => {
            semantic(NativeOp::Deselect, &mut steps, &mut skipped);
            steps.push(keys(vec![KeyInput::Chord(Chord {
                modifiers: vec![Modifier::Ctrl],
                key: Key::Named(NamedKey::Space),
            })]));
            skipped.push(skip(Rung::Pointer, "ctrl+click is not sent"));
            Expect::State {
                state: State::Selected,
                on: false,
            }
        }
        Action::Expand | Action::Collapse => {
            let expand = *action == Action::Expand;
            let op = if expand {
                NativeOp::Expand
            } else {
                NativeOp::Collapse
            };
            semantic(op, &mut steps, &mut skipped);
            let key = if expand { '+' } else { '-' };
            steps.push(keys(vec![chord(Key::Char(key))]));
            skipped.push(skip(
                Rung::Pointer,
                "a double click may activate the item instead",
            ));
            Expect::State {
                state: State::Expanded,
                on: expand,
            }
        }
        Action::Focus => {
            semantic(NativeOp::Focus, &mut steps, &mut skipped);
            skipped.push(skip(Rung::Keyboard, "no key focuses a given element"));
            skipped.push(skip(Rung::Pointer, "a click may activate the element"));
            Expect::State {
                state: State::Focused,
                on: true,
            }
        }
        Action::ScrollIntoView => {
            semantic(NativeOp::ScrollIntoView, &mut steps, &mut skipped);
            skipped.push(skip(Rung::Keyboard, "no key scrolls to a given element"));
            skipped.push(skip(Rung::Pointer, "the element may be off screen"));
            Expect::State {
                state: State::Showing,
                on: true,
            }
        }
        Action::Scroll { direction, amount } => {
            skipped.push(skip(
                Rung::Semantic,
                "no semantic scroll by an amount (scroll_into_view scrolls to an element)",
            ));
            skipped.push(skip(
                Rung::Keyboard,
                "arrow keys would move focus or a value",
            ));
            steps.push(Attempt {
                rung: Rung::Pointer,
                delivery: Delivery::Wheel {
                    direction: *direction,
                    amount: *amount,
                },
            });
            Expect::AnyChange
        }
        Action::Activate(name) => {
            let op = match name {
                ActionName::Default => NativeOp::DefaultAction,
                ActionName::Named(name) => NativeOp::Named(name.clone()),
            };
            semantic(op, &mut steps, &mut skipped);
            skipped.push(skip(Rung::Keyboard, "an element's own action has no key"));
            skipped.push(skip(
                Rung::Pointer,
                "an element's own action has no pointer route",
            ));
            Expect::AnyChange
        }
    };
    Plan {
        attempts: steps,
        skipped,
        expect,
        unreadable,
    }
}

/// The rungs of a toggle. An item of a multi-selection list is toggled by its own action or
/// its list's selection only: a key or a click on it may clear the other items.
fn toggle_rungs(
    (routes, node): (&dyn NativeRoutes, &Node),
    ensure: Option<OnOff>,
    steps: &mut Vec<Attempt>,
    skipped: &mut Vec<Skipped>,
) {
    let semantic = |op, steps: &mut Vec<Attempt>, skipped: &mut Vec<Skipped>| {
        semantic(routes, node, op, steps, skipped)
    };
    semantic(NativeOp::Toggle, steps, skipped);
    if control::switch(node, false) != Some(Switch::Selected) {
        steps.push(keys(vec![chord(Key::Named(NamedKey::Space))]));
        steps.push(pointer(MouseButton::Left, false));
        return;
    }
    match ensure {
        Some(OnOff::On) => semantic(NativeOp::AddToSelection, steps, skipped),
        Some(OnOff::Off) => semantic(NativeOp::Deselect, steps, skipped),
        None => {}
    }
    let why = "a key or click on a multi-selection list's item may clear the other items";
    skipped.push(skip(Rung::Keyboard, why));
    skipped.push(skip(Rung::Pointer, why));
}

/// A number as typed: no trailing ".0".
pub fn format_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
