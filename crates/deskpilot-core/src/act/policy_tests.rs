//! The ladder's policy on observations built by hand: no backend, no engine.

use super::*;
use crate::act::{InputText, OnOff};
use crate::model::ElementId;

fn checkbox(checked: bool) -> Node {
    let mut node = Node::new(ElementId::new(":1.a", "/c"), Role::Checkbox);
    node.name = "Wrap".into();
    node.states.set(State::Checked, checked);
    node
}

fn field(text: &str) -> Node {
    let mut node = Node::new(ElementId::new(":1.a", "/f"), Role::TextBox);
    node.value = Some(NodeValue::Text { text: text.into() });
    node
}

fn slider(current: f64) -> Node {
    let mut node = Node::new(ElementId::new(":1.a", "/s"), Role::Slider);
    node.value = Some(NodeValue::Number {
        current,
        min: Some(0.0),
        max: Some(10.0),
        step: None,
    });
    node
}

fn seen(node: Node) -> Observation {
    Observation {
        target: Some(node),
        windows: Vec::new(),
        active: None,
        showing_items: None,
    }
}

fn click() -> Action {
    Action::Click {
        button: crate::act::MouseButton::Left,
        double: false,
    }
}

fn send(judging: Start) -> Judging {
    match judging {
        Start::Send(judging) => judging,
        other => panic!("expected to send, got {other:?}"),
    }
}

fn judged(action: &Action, judging: &Judging, before: &Observation, verdict: Verdict) -> Next {
    judge(action, judging, before, &verdict, "e1", "action \"click\"")
}

#[test]
fn a_state_the_verb_is_for_that_already_holds_sends_nothing() {
    let action = Action::SetValue(ValueInput::Text(InputText::plain("abc")));
    let expect = Expect::Text(InputText::plain("abc"));
    let held = start(&action, expect, None, &seen(field("abc")));
    assert_eq!(
        held,
        Start::NothingToDo {
            held: "the new text already".into()
        }
    );
}

#[test]
fn a_postcondition_that_held_before_confirms_nothing_on_its_own() {
    // Toggle without `ensure` flips: its postcondition holding before says nothing.
    let action = Action::Toggle { ensure: None };
    let judging = send(start(
        &action,
        Expect::OnOff(true),
        None,
        &seen(checkbox(true)),
    ));
    assert_eq!(judging.expect, Expect::AnyChange);
    assert_eq!(judging.held_before, Some(Expect::OnOff(true)));
    let before = seen(checkbox(true));
    // Undone by the action: it held, and no longer does.
    let undone = judged(
        &action,
        &judging,
        &before,
        Verdict::Changed(seen(checkbox(false))),
    );
    assert!(
        matches!(&undone, Next::Report { effect: Effect::Unverified, note: Some(n) } if n.contains("held before, and no longer does")),
        "{undone:?}"
    );
}

#[test]
fn a_met_postcondition_confirms() {
    let action = Action::Toggle {
        ensure: Some(OnOff::On),
    };
    let judging = send(start(
        &action,
        Expect::OnOff(true),
        None,
        &seen(checkbox(false)),
    ));
    let next = judged(
        &action,
        &judging,
        &seen(checkbox(false)),
        Verdict::Met(seen(checkbox(true))),
    );
    assert!(
        matches!(
            next,
            Next::Report {
                effect: Effect::Confirmed,
                note: None
            }
        ),
        "{next:?}"
    );
}

#[test]
fn a_miss_of_a_repeatable_verb_tries_the_next_rung_and_of_a_click_does_not() {
    let toggle = Action::Toggle {
        ensure: Some(OnOff::On),
    };
    let before = seen(checkbox(false));
    let judging = send(start(&toggle, Expect::OnOff(true), None, &before));
    let missed = || Verdict::Missed {
        after: seen(checkbox(false)),
        quiet: false,
    };
    let next = judged(&toggle, &judging, &before, missed());
    assert!(
        matches!(&next, Next::TryAnother { why } if why.contains("no effect (the control on)")),
        "{next:?}"
    );
    // A click is not safe to repeat: one miss is the answer (no-op, since nothing changed).
    let judging = send(start(&click(), Expect::OnOff(true), None, &before));
    let next = judged(&click(), &judging, &before, missed());
    assert!(
        matches!(&next, Next::Report { effect: Effect::Noop, note: Some(n) } if n.contains("not sent again")),
        "{next:?}"
    );
}

#[test]
fn nothing_seen_without_a_postcondition_is_unverified_never_confirmed() {
    let before = seen(checkbox(false));
    let judging = send(start(&click(), Expect::AnyChange, None, &before));
    let next = judged(
        &click(),
        &judging,
        &before,
        Verdict::Missed {
            after: seen(checkbox(false)),
            quiet: true,
        },
    );
    assert!(
        matches!(&next, Next::Report { effect: Effect::Unverified, note: Some(n) } if n.ends_with("(the app's events said it was done)")),
        "{next:?}"
    );
}

#[test]
fn a_value_set_to_something_else_is_an_unexpected_effect_not_another_rung() {
    let action = Action::SetValue(ValueInput::Text(InputText::plain("abc")));
    let before = seen(field(""));
    let judging = send(start(
        &action,
        Expect::Text(InputText::plain("abc")),
        None,
        &before,
    ));
    let next = judged(
        &action,
        &judging,
        &before,
        Verdict::Missed {
            after: seen(field("ab")),
            quiet: false,
        },
    );
    assert!(
        matches!(&next, Next::Fail(e) if e.code == Code::UnexpectedEffect),
        "{next:?}"
    );
}

#[test]
fn a_number_the_app_kept_within_its_range_is_clamped() {
    let action = Action::SetValue(ValueInput::Number(42.0));
    let before = seen(slider(3.0));
    let judging = send(start(&action, Expect::Number(42.0), None, &before));
    let next = judged(
        &action,
        &judging,
        &before,
        Verdict::Missed {
            after: seen(slider(10.0)),
            quiet: false,
        },
    );
    assert!(
        matches!(&next, Next::Fail(e) if e.code == Code::ValueClamped && e.message.contains("kept 10")),
        "{next:?}"
    );
}

#[test]
fn an_unreported_selection_seen_after_all_needs_no_excuse() {
    let mut tab = Node::new(ElementId::new(":1.a", "/t"), Role::Tab);
    tab.states.set(State::Selected, false);
    let before = seen(tab.clone());
    let judging = send(start(
        &Action::Select,
        Expect::AnyChange,
        Some(NO_SELECTION_STATE),
        &before,
    ));
    let mut selected = tab.clone();
    selected.states.set(State::Selected, true);
    let next = judged(
        &Action::Select,
        &judging,
        &before,
        Verdict::Changed(seen(selected)),
    );
    assert!(
        matches!(
            next,
            Next::Report {
                effect: Effect::Confirmed,
                note: None
            }
        ),
        "{next:?}"
    );
    // Some other change: confirmed, with the excuse.
    let mut focused = tab;
    focused.states.set(State::Expanded, true);
    let next = judged(
        &Action::Select,
        &judging,
        &before,
        Verdict::Changed(seen(focused)),
    );
    assert!(
        matches!(&next, Next::Report { effect: Effect::Confirmed, note: Some(n) } if n == NO_SELECTION_STATE),
        "{next:?}"
    );
}

#[test]
fn typed_text_found_somewhere_never_confirms() {
    let expect = Expect::Contains(InputText::plain("abc"));
    assert!(!met(&expect, &seen(field("xxabcxx"))));
    assert!(!met(&expect, &seen(field("abc"))));
    assert!(met(
        &Expect::Text(InputText::plain("abc")),
        &seen(field("abc"))
    ));
}

#[test]
fn a_gone_target_meets_no_postcondition() {
    let gone = Observation {
        target: None,
        windows: Vec::new(),
        active: None,
        showing_items: Some(3),
    };
    assert!(!met(&Expect::MenuOpen, &gone));
    assert!(!met(&Expect::OnOff(false), &gone));
}

#[test]
fn a_focus_change_alone_is_no_evidence() {
    let mut before = checkbox(false);
    before.states.set(State::Focused, false);
    let mut after = before.clone();
    after.states.set(State::Focused, true);
    assert!(evidence(&seen(before.clone()), &seen(after)).is_empty());
    let mut checked = before.clone();
    checked.states.set(State::Checked, true);
    assert!(!evidence(&seen(before), &seen(checked)).is_empty());
}
