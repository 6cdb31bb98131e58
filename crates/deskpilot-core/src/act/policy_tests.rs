//! The ladder's policy on observations built by hand: no backend, no engine.

use super::*;
use crate::act::ObservedWindow;
use crate::act::{InputText, OnOff};
use crate::model::control::Switch;
use crate::model::{ActionName, ElementId};

pub(super) fn checkbox(checked: bool) -> Node {
    let mut node = Node::new(ElementId::new(":1.a", "/c"), Role::Checkbox);
    node.name = "Wrap".into();
    node.states.set(State::Checked, checked);
    node
}

pub(super) fn field(text: &str) -> Node {
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

pub(super) fn seen(node: Node) -> Observation {
    Observation {
        target: Some(node),
        windows: Vec::new(),
        active: None,
        showing_items: None,
        shown: None,
        announced: Vec::new(),
    }
}

pub(super) fn click() -> Action {
    Action::Click {
        button: crate::act::MouseButton::Left,
        double: false,
    }
}

pub(super) fn send(judging: Start) -> Judging {
    match judging {
        Start::Send(judging) => judging,
        other => panic!("expected to send, got {other:?}"),
    }
}

pub(super) fn judged(
    action: &Action,
    judging: &Judging,
    before: &Observation,
    verdict: Verdict,
) -> Next {
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
        Expect::OnOff {
            switch: Switch::Checked,
            on: true,
        },
        None,
        &seen(checkbox(true)),
    ));
    assert_eq!(judging.expect, Expect::AnyChange);
    assert_eq!(
        judging.held_before,
        Some(Expect::OnOff {
            switch: Switch::Checked,
            on: true
        })
    );
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
        Expect::OnOff {
            switch: Switch::Checked,
            on: true,
        },
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
    // Some other change is no evidence of a selection: unverified, with the excuse.
    let mut expanded = tab;
    expanded.states.set(State::Expanded, true);
    let next = judged(
        &Action::Select,
        &judging,
        &before,
        Verdict::Changed(seen(expanded)),
    );
    assert!(
        matches!(
            &next,
            Next::Report {
                effect: Effect::Unverified,
                note: Some(_)
            }
        ),
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
        shown: None,
        announced: Vec::new(),
    };
    assert!(!met(&Expect::MenuOpen, &gone));
    assert!(!met(
        &Expect::OnOff {
            switch: Switch::Checked,
            on: false
        },
        &gone
    ));
}

#[test]
fn a_focus_change_alone_is_no_evidence() {
    let mut before = checkbox(false);
    before.states.set(State::Focused, false);
    let mut after = before.clone();
    after.states.set(State::Focused, true);
    assert!(evidence(&click(), &seen(before.clone()), &seen(after)).is_empty());
    let mut checked = before.clone();
    checked.states.set(State::Checked, true);
    assert!(!evidence(&click(), &seen(before), &seen(checked)).is_empty());
}

fn window(path: &str, role: Role, title: &str) -> ObservedWindow {
    ObservedWindow {
        id: ElementId::new(":1.a", path),
        role,
        title: title.into(),
        minimized: Some(false),
    }
}

/// An observation of the target with these windows.
fn with_windows(target: Option<Node>, windows: Vec<ObservedWindow>) -> Observation {
    Observation {
        target,
        windows,
        active: None,
        showing_items: None,
        shown: None,
        announced: Vec::new(),
    }
}

/// Each kind of change an action can be followed by, with a name for messages: made from a
/// plain button in a main window with an alert over it.
fn every_kind_of_change() -> Vec<(&'static str, Observation, Observation)> {
    let main = window("/main", Role::Window, "Untitled");
    let alert = window("/alert", Role::Alert, "Question");
    let mut button = Node::new(ElementId::new(":1.a", "/b"), Role::ListItem);
    button.name = "report.txt".into();
    button.states = crate::model::StateSet::all_known([]);
    let before = with_windows(Some(button.clone()), vec![main.clone(), alert.clone()]);
    let state = |state: State| {
        let mut node = button.clone();
        node.states.set(state, true);
        with_windows(Some(node), vec![main.clone(), alert.clone()])
    };
    let mut renamed = button.clone();
    renamed.name = "inbox".into();
    let mut valued = button.clone();
    valued.value = Some(NodeValue::Text {
        text: "typed".into(),
    });
    let mut retitled = main.clone();
    retitled.title = "*Untitled".into();
    let dialog = window("/save", Role::FileChooser, "Save As");
    vec![
        ("focus", before.clone(), state(State::Focused)),
        ("selection", before.clone(), state(State::Selected)),
        ("pressed", before.clone(), state(State::Pressed)),
        ("expanded", before.clone(), state(State::Expanded)),
        (
            "name",
            before.clone(),
            with_windows(Some(renamed), vec![main.clone(), alert.clone()]),
        ),
        (
            "value",
            before.clone(),
            with_windows(Some(valued), vec![main.clone(), alert.clone()]),
        ),
        (
            "element gone",
            before.clone(),
            with_windows(None, vec![main.clone()]),
        ),
        (
            "window closed",
            before.clone(),
            with_windows(Some(button.clone()), vec![main.clone()]),
        ),
        (
            "window opened",
            before.clone(),
            with_windows(
                Some(button.clone()),
                vec![main.clone(), alert.clone(), dialog],
            ),
        ),
        (
            "window renamed",
            before.clone(),
            with_windows(Some(button.clone()), vec![retitled, alert.clone()]),
        ),
        ("announced", before.clone(), {
            let mut after = before;
            after.announced.push(crate::act::observe::Announced {
                id: ElementId::new(":1.a", "/display"),
                role: Role::Label,
                shows: "42".into(),
            });
            after
        }),
    ]
}

/// The audit: which change is evidence of which verb, where the verb has no postcondition
/// of its own to read (or its own held before).
#[test]
fn what_each_verb_takes_for_evidence() {
    let every: Vec<&str> = every_kind_of_change().iter().map(|c| c.0).collect();
    let anything_but_focus: Vec<&str> = every.iter().copied().filter(|c| *c != "focus").collect();
    let on_target = ["selection", "pressed", "expanded", "name", "value"];
    let cases: Vec<(Action, Vec<&str>)> = vec![
        // Typed text: only its text, read back as its postcondition; nothing here.
        (Action::TypeText(InputText::plain("No thanks")), vec![]),
        (Action::Select, vec!["selection"]),
        (Action::AddToSelection, vec!["selection"]),
        (Action::Deselect, vec!["selection"]),
        (
            Action::Scroll {
                direction: crate::act::Direction::Down,
                amount: 3,
            },
            on_target.to_vec(),
        ),
        (Action::ScrollIntoView, on_target.to_vec()),
        (click(), anything_but_focus.clone()),
        (
            Action::PressKey(crate::act::Chord::plain(crate::act::Key::Named(
                crate::act::NamedKey::Escape,
            ))),
            anything_but_focus.clone(),
        ),
        (
            Action::Activate(ActionName::Named("activate".into())),
            anything_but_focus,
        ),
    ];
    for (action, expected) in cases {
        let took: Vec<&str> = every_kind_of_change()
            .iter()
            .filter(|(_, before, after)| !evidence(&action, before, after).is_empty())
            .map(|c| c.0)
            .collect();
        assert_eq!(took, expected, "{}", action.verb());
    }
}

/// No change but its text confirms typed text: a closing alert, a window opening, the
/// element gone, a title changed are reported, never credited.
#[test]
fn typed_text_is_confirmed_by_its_text_alone() {
    let action = Action::TypeText(InputText::plain("Dear diary"));
    for (kind, before, after) in every_kind_of_change() {
        let judging = send(start(&action, Expect::AnyChange, None, &before));
        for verdict in [
            Verdict::Changed(after.clone()),
            Verdict::Missed {
                after: after.clone(),
                quiet: false,
            },
        ] {
            let next = judged(&action, &judging, &before, verdict);
            assert!(
                matches!(&next, Next::Report { effect: Effect::Unverified, note: Some(n) } if n.contains("read back where it went")),
                "{kind}: {next:?}"
            );
        }
    }
    // Its text, read back where it went, does.
    let typed = Expect::Text(InputText::plain("Dear diary"));
    let judging = send(start(&action, typed.clone(), None, &seen(field(""))));
    let next = judged(
        &action,
        &judging,
        &seen(field("")),
        Verdict::Met(seen(field("Dear diary"))),
    );
    assert!(reports(&next, Effect::Confirmed), "{next:?}");
}

/// A click that opens a dialog did its work; a click that only moved the focus did not.
#[test]
fn a_window_opening_confirms_a_click() {
    let kinds = every_kind_of_change();
    let (_, before, opened) = kinds.iter().find(|c| c.0 == "window opened").unwrap();
    let judging = send(start(&click(), Expect::AnyChange, None, before));
    let next = judged(&click(), &judging, before, Verdict::Changed(opened.clone()));
    assert!(reports(&next, Effect::Confirmed), "{next:?}");
    let (_, before, focused) = kinds.iter().find(|c| c.0 == "focus").unwrap();
    let next = judged(
        &click(),
        &judging,
        before,
        Verdict::Changed(focused.clone()),
    );
    assert!(reports(&next, Effect::Unverified), "{next:?}");
}

/// Whether the decision is a report of `effect`.
fn reports(next: &Next, effect: Effect) -> bool {
    matches!(next, Next::Report { effect: e, .. } if *e == effect)
}

/// GTK 3 selects a menu bar's item before its popup grabs; a popup that could not grab
/// (its window not yet mapped) never opens, yet the item stays selected.
#[test]
fn a_selected_menu_whose_items_are_hidden_is_not_open() {
    let mut menu = Node::new(ElementId::new(":1.a", "/m"), Role::Menu);
    menu.states.set(State::Selected, true);
    let hidden = Observation {
        showing_items: Some(0),
        ..seen(menu.clone())
    };
    assert!(!met(&Expect::MenuOpen, &hidden));
    let open = Observation {
        showing_items: Some(9),
        ..seen(menu.clone())
    };
    assert!(met(&Expect::MenuOpen, &open));
    // Its items unread: its selection is what is left to go by.
    assert!(met(&Expect::MenuOpen, &seen(menu)));
}
