//! Tests of `plan`: what each verb tries, in which order, and what it expects.

use super::*;
use crate::model::control::Switch;
use crate::model::{ElementId, StateSet};

fn node(role: Role, actions: &[&str]) -> Node {
    let mut n = Node::new(ElementId::new(":1.1", "/x"), role);
    n.actions = actions.iter().map(|s| s.to_string()).collect();
    n.states = StateSet::all_known([]);
    n
}

/// A backend that presses through an action named "click" and does nothing else.
struct ClickOnly;

impl NativeRoutes for ClickOnly {
    fn native_route(&self, node: &Node, op: &NativeOp) -> Result<NativeRoute, String> {
        match op {
            NativeOp::Press | NativeOp::Toggle if node.actions.iter().any(|a| a == "click") => {
                Ok(NativeRoute {
                    op: NativeOp::Named("click".into()),
                    how: "click".into(),
                })
            }
            _ => Err(format!(
                "cannot {op:?} (it offers: {})",
                node.actions.join(", ")
            )),
        }
    }

    fn edit_keys(&self) -> deskpilot_platform::EditKeys {
        // Not the Ctrl keys: plans must take the platform's.
        deskpilot_platform::EditKeys {
            select_all: Chord {
                modifiers: vec![Modifier::Super],
                key: Key::Char('a'),
            },
            caret_to_end: Chord {
                modifiers: vec![Modifier::Super],
                key: Key::Named(NamedKey::Down),
            },
        }
    }
}

#[test]
fn semantic_rungs_are_what_the_backend_can_do_else_skipped_with_its_reason() {
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    let p = plan(&click, &node(Role::Button, &["click"]), &ClickOnly);
    assert_eq!(
        p.attempts[0].delivery,
        Delivery::Native(NativeRoute {
            op: NativeOp::Named("click".into()),
            how: "click".into()
        })
    );
    let p = plan(&click, &node(Role::Button, &["customize"]), &ClickOnly);
    assert_eq!(p.attempts[0].rung, Rung::Keyboard);
    assert_eq!(p.skipped[0].rung, Rung::Semantic);
    assert!(p.skipped[0].why.contains("customize"), "{:?}", p.skipped);
}

#[test]
fn only_a_left_single_click_is_semantic() {
    let n = node(Role::Button, &["click"]);
    let p = plan(
        &Action::Click {
            button: MouseButton::Right,
            double: false,
        },
        &n,
        &ClickOnly,
    );
    assert_eq!(p.attempts.len(), 1);
    assert_eq!(p.attempts[0].rung, Rung::Pointer);
}

#[test]
fn postconditions() {
    let mut check = node(Role::Checkbox, &["click"]);
    check.states.set(State::Checked, true);
    let p = plan(&Action::Toggle { ensure: None }, &check, &ClickOnly);
    assert_eq!(
        p.expect,
        Expect::Flipped {
            switch: Switch::Checked,
            was: true
        }
    );
    let p = plan(
        &Action::Toggle {
            ensure: Some(OnOff::Off),
        },
        &check,
        &ClickOnly,
    );
    assert_eq!(
        p.expect,
        Expect::OnOff {
            switch: Switch::Checked,
            on: false
        }
    );
    let mut password = node(Role::Password, &[]);
    password.value = Some(NodeValue::Redacted { chars: Some(2) });
    password.capabilities = [Capability::Text, Capability::TakesText]
        .into_iter()
        .collect();
    assert_eq!(
        plan(&Action::TypeText("abc".into()), &password, &ClickOnly).expect,
        Expect::Chars(5)
    );
    assert_eq!(
        plan(
            &Action::SetValue(ValueInput::Text("xy".into())),
            &password,
            &ClickOnly
        )
        .expect,
        Expect::Chars(2)
    );
    assert_eq!(format_number(5.0), "5");
    assert_eq!(format_number(2.5), "2.5");
}

#[test]
fn text_is_selected_with_the_platforms_keys() {
    let mut field = node(Role::TextBox, &[]);
    field.capabilities = [Capability::Text, Capability::TakesText]
        .into_iter()
        .collect();
    let p = plan(
        &Action::SetValue(ValueInput::Text("xy".into())),
        &field,
        &ClickOnly,
    );
    let select_all = ClickOnly.edit_keys().select_all;
    assert!(
        p.attempts.iter().any(|a| matches!(
            &a.delivery,
            Delivery::Keys(keys) if keys.first() == Some(&KeyInput::Chord(select_all.clone()))
        )),
        "{:?}",
        p.attempts
    );
}
