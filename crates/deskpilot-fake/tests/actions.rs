//! The action ladder's rules, on fake apps whose providers can lie (`inert`: accepts a
//! request and does nothing) and ignore input (`deaf`). Every test runs twice: on the fake in
//! AT-SPI's vocabulary and in UI Automation's (`at_spi::` and `uia::`).

#[macro_use]
mod flavours;

use std::sync::Arc;

use deskpilot_core::Wiring;
use deskpilot_core::act::Key;
use deskpilot_core::model::ActionName;
use deskpilot_core::{
    Action, Backend, Chord, Code, ConnectTarget, Effect, Engine, MouseButton, NativeOp, OnOff,
    Rung, Secrecy, Selector, Target, ValueInput, WalkLimits,
};
use deskpilot_fake::{FakeBackend, FakeInput, Flavour};

const FORM: &str = r#"
application "Form" pid=7
  window "Main" bounds=0,0,400,400
    checkbox "Plain" actions=click bounds=10,10,100,20
    checkbox "Liar" actions=click inert bounds=10,40,100,20
    checkbox "Stone" actions=click inert deaf bounds=10,70,100,20
    checkbox "Hidden" actions=click inert
    checkbox "Covered" actions=click inert bounds=10,100,100,20
    label "Cover" bounds=0,95,200,40
    checkbox "Off" [!enabled] actions=click bounds=10,150,100,20
    button "Go" actions=click inert bounds=10,180,80,20
    textbox "Name" value=Ann interfaces=text,editable_text bounds=10,210,100,20
    spinbutton "Qty" range=5,0,10 interfaces=value bounds=10,240,100,20
    checkbox "Stray" actions=click inert orphan bounds=10,270,100,20
    textbox "Mangler" [editable] value= interfaces=text garbles bounds=10,300,100,20
    textbox "Fruit" [editable] [focused] value=banana interfaces=text deaf bounds=10,330,100,20
    button "Mute" deaf bounds=10,360,80,20
    checkbox "Seen" actions=click bounds=10,390,100,20
    checkbox "Lagging" [checked] actions=click lags bounds=10,420,100,20
    button "Fleeting" actions=click vanishes bounds=200,10,80,20
    checkbox "Dialog" actions=click modal bounds=200,40,100,20
"#;

struct Rig {
    backend: Arc<FakeBackend>,
    input: Arc<FakeInput>,
    engine: Engine,
    session: String,
}

async fn rig(flavour: Flavour, with_input: bool) -> Rig {
    let backend = Arc::new(FakeBackend::with_flavour(flavour));
    backend.add_app(FORM);
    let input = Arc::new(FakeInput::new(backend.clone()));
    let wiring = match with_input {
        true => Wiring {
            input: Some(input.clone()),
            windows: Some(input.clone()),
            ..Wiring::default()
        },
        false => Wiring::default(),
    };
    let engine = Engine::wired(backend.clone(), wiring);
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Main".into()))
        .await
        .unwrap()
        .id;
    Rig {
        backend,
        input,
        engine,
        session,
    }
}

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

const CHECK: Action = Action::Toggle {
    ensure: Some(OnOff::On),
};
const CLICK: Action = Action::Click {
    button: MouseButton::Left,
    double: false,
};

fn clicks(rig: &Rig) -> usize {
    rig.input
        .sent()
        .iter()
        .filter(|s| s.starts_with("click"))
        .count()
}

async fn a_semantic_action_that_works_is_confirmed_and_used_alone(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let report = handle
        .act(&by("checkbox[name=Plain]"), &CHECK)
        .await
        .unwrap();
    assert_eq!(report.effect, Effect::Confirmed);
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::Semantic);
    assert_eq!(report.changes, vec!["checked: off -> on".to_owned()]);
    assert!(rig.input.sent().is_empty(), "{:?}", rig.input.sent());

    // Already on: nothing is sent at all.
    let before = rig.backend.performed().len();
    let again = handle
        .act(&by("checkbox[name=Plain]"), &CHECK)
        .await
        .unwrap();
    assert_eq!(again.route, None);
    assert_eq!(again.effect, Effect::Confirmed);
    assert_eq!(rig.backend.performed().len(), before);
}

async fn a_lying_semantic_action_falls_through_to_the_pointer(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let report = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .act(&by("checkbox[name=Liar]"), &CHECK)
        .await
        .unwrap();
    assert_eq!(
        report.effect,
        Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&report)
    );
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::Pointer);
    let skipped: Vec<_> = report.skipped.iter().map(|s| s.rung).collect();
    assert_eq!(skipped, vec![Rung::Semantic, Rung::Keyboard]);
    assert!(
        report.skipped[0].why.contains("no effect"),
        "{:?}",
        report.skipped
    );
    assert_eq!(clicks(&rig), 1);
    assert!(
        rig.input.sent().iter().any(|s| s.starts_with("activate")),
        "the window is raised before pointing: {:?}",
        rig.input.sent()
    );
}

/// Every action says what it did beside its element: a semantic one nothing, one that fell
/// to the pointer that it raised the window and moved the pointer. In background mode the
/// same action takes neither rung: nothing is sent (the fake's input log is the oracle) and
/// the skipped rungs say why.
async fn an_action_says_what_it_did_beside_its_element(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let plain = handle
        .act(&by("checkbox[name=Plain]"), &CHECK)
        .await
        .unwrap();
    assert!(plain.interaction.names().is_empty());
    let background = handle
        .clone()
        .in_background()
        .act(&by("checkbox[name=Liar]"), &CHECK)
        .await
        .unwrap_err();
    assert_eq!(background.code, Code::NoEffect, "{}", background.message);
    assert!(
        background.message.contains("background mode"),
        "{}",
        background.message
    );
    assert!(rig.input.sent().is_empty(), "{:?}", rig.input.sent());
    let pointed = handle
        .act(&by("checkbox[name=Liar]"), &CHECK)
        .await
        .unwrap();
    assert_eq!(
        pointed.interaction.names(),
        ["raised_window", "pointer_moved"]
    );
    let line = deskpilot_core::present::action(&pointed);
    assert!(
        line.contains("raised its window and moved the pointer"),
        "{line}"
    );
    // A failure says it too: a checkbox deaf to everything, clicked for nothing.
    let failed = handle
        .act(&by("checkbox[name=Stone]"), &CHECK)
        .await
        .unwrap_err();
    assert!(
        failed.message.contains("moved the pointer meanwhile"),
        "{}",
        failed.message
    );
}

/// An element whose window the app cannot name (its parent chain ends short) is still reached
/// through the session's window, and the hit test still guards the click.
async fn an_element_without_a_known_window_is_reached_through_the_sessions_window(
    flavour: Flavour,
) {
    let rig = rig(flavour, true).await;
    let report = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .act(&by("checkbox[name=Stray]"), &CHECK)
        .await
        .unwrap();
    assert_eq!(
        report.effect,
        Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&report)
    );
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::Pointer);
    assert_eq!(clicks(&rig), 1);
}

async fn a_plain_click_or_typing_is_never_sent_twice(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    // No postcondition for a button: unverified, and the pointer is not tried.
    let handle = rig.engine.session(&rig.session).unwrap();
    let report = handle.act(&by("button[name=Go]"), &CLICK).await.unwrap();
    assert_eq!(report.effect, Effect::Unverified);
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::Semantic);
    // A check box that did not flip: noop, and still not clicked again.
    let report = handle
        .act(&by("checkbox[name=Liar]"), &CLICK)
        .await
        .unwrap();
    assert_eq!(report.effect, Effect::Noop);
    assert_eq!(clicks(&rig), 0, "{:?}", rig.input.sent());
    assert_eq!(
        rig.backend
            .performed()
            .iter()
            .filter(|(_, op)| !matches!(op, NativeOp::Focus | NativeOp::ScrollIntoView))
            .count(),
        2,
        "one semantic press each: {:?}",
        rig.backend.performed()
    );
}

async fn when_no_route_has_an_effect_the_action_fails(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let error = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .act(&by("checkbox[name=Stone]"), &CHECK)
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::NoEffect, "{error:?}");
    assert!(error.message.contains("semantic") && error.message.contains("pointer"));
    assert_eq!(clicks(&rig), 1, "the pointer was tried once");
}

/// A value that changed, but not to what was asked, is its own outcome: not `no_effect`, and
/// no further rung on top of it (Firefox once garbled text outside the BMP this way).
async fn a_wrong_effect_is_reported_as_such(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let error = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .act(
            &by("textbox[name=Mangler]"),
            &Action::SetValue(ValueInput::Text("hello".into())),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::UnexpectedEffect, "{error:?}");
    assert!(!error.retryable());
    assert!(
        error.message.contains(r#""" -> "hell""#),
        "{}",
        error.message
    );
    let typed = rig
        .input
        .sent()
        .iter()
        .filter(|s| s.starts_with("text"))
        .count();
    assert_eq!(typed, 1, "{:?}", rig.input.sent());
}

/// `confirmed` only from the action's own effect: a deaf field that already held the typed
/// text, a button that only took the focus deskpilot gave it, a scroll whose `showing` was
/// already on. (Each was confirmed before.)
async fn a_postcondition_that_held_before_or_focus_alone_confirms_nothing(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let typed = handle
        .act(&by("textbox[name=Fruit]"), &Action::TypeText("nan".into()))
        .await
        .unwrap();
    assert_ne!(
        typed.effect,
        Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&typed)
    );

    let clicked = handle.act(&by("button[name=Mute]"), &CLICK).await.unwrap();
    assert_ne!(
        clicked.effect,
        Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&clicked)
    );

    let scrolled = handle
        .act(&by("checkbox[name=Seen]"), &Action::ScrollIntoView)
        .await
        .unwrap();
    assert_ne!(
        scrolled.effect,
        Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&scrolled)
    );
}

async fn refusals_carry_their_codes(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let error = handle
        .act(&by("checkbox[name=Off]"), &CHECK)
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::Disabled);
    assert!(
        rig.backend.performed().is_empty(),
        "nothing sent to a disabled control"
    );

    let error = handle
        .act(&by("checkbox[name=Hidden]"), &CHECK)
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::Offscreen, "{error:?}");

    let error = handle
        .act(&by("checkbox[name=Covered]"), &CHECK)
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::Obscured, "{error:?}");
    assert!(error.message.contains("Cover"), "{error:?}");
    assert_eq!(clicks(&rig), 0, "never clicked what covers the target");

    rig.input.refuse_activation(true);
    let error = handle
        .act(&by("checkbox[name=Liar]"), &CHECK)
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::WindowNotForeground, "{error:?}");
    assert_eq!(clicks(&rig), 0);

    let error = handle
        .act(
            &by("spinbutton[name=Qty]"),
            &Action::SetValue(ValueInput::Number(42.0)),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::ValueClamped);
    assert!(error.message.contains("kept 10"), "{error:?}");

    let error = handle
        .act(
            &by("button[name=Go]"),
            &Action::SetValue(ValueInput::Text("x".into())),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::NotEditable);
}

async fn without_an_input_device_input_rungs_refuse_clearly(flavour: Flavour) {
    let rig = rig(flavour, false).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let error = handle
        .act(&by("checkbox[name=Liar]"), &CHECK)
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::InputUnavailable, "{error:?}");
    // Semantic routes still work.
    let report = handle
        .act(&by("checkbox[name=Plain]"), &CHECK)
        .await
        .unwrap();
    assert_eq!(report.effect, Effect::Confirmed);
}

async fn text_is_set_outright_or_typed_at_the_end(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let report = handle
        .act(
            &by("textbox[name=Name]"),
            &Action::SetValue(ValueInput::Text("Bea".into())),
        )
        .await
        .unwrap();
    assert_eq!(report.effect, Effect::Confirmed);
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::Semantic);
    let report = handle
        .act(&by("textbox[name=Name]"), &Action::TypeText(" Cho".into()))
        .await
        .unwrap();
    assert_eq!(
        report.effect,
        Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&report)
    );
    assert!(
        report.changes.iter().any(|c| c.contains("\"Bea Cho\"")),
        "{:?}",
        report.changes
    );
    let report = handle
        .act_on_window(&Action::PressKey(Chord::plain(Key::Char('x'))))
        .await
        .unwrap();
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::Keyboard);
}

async fn window_actions_are_confirmed_by_the_window_state(flavour: Flavour) {
    use deskpilot_core::act::WindowAction;
    let rig = rig(flavour, true).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let report = handle.window_action(WindowAction::Minimize).await.unwrap();
    assert_eq!(report.effect, Effect::Confirmed);
    assert_eq!(
        report.changes,
        vec!["window: normal -> minimized".to_owned()]
    );
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::WindowManager);
    let report = handle.window_action(WindowAction::Close).await.unwrap();
    assert_eq!(
        report.changes,
        vec!["window: minimized -> closed".to_owned()]
    );
    let error = rig
        .engine
        .launch_app(&["gedit".to_owned()], std::time::Duration::from_secs(1))
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::Unsupported, "no launcher here");
}

/// An ensure is judged on the element read afresh, not on the walk that found it (a kept
/// identity may lag an event behind): checked already, nothing is sent.
async fn an_ensure_is_judged_on_a_fresh_read(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let report = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .act(&by("checkbox[name=Lagging]"), &CHECK)
        .await
        .unwrap();
    assert!(
        report.route.is_none(),
        "{}",
        deskpilot_core::present::action(&report)
    );
    assert!(
        rig.backend.performed().is_empty(),
        "{:?}",
        rig.backend.performed()
    );
    assert!(rig.input.sent().is_empty(), "{:?}", rig.input.sent());
}

/// A drag whose source only took focus (as a press gives it) did not drag anything.
async fn drags_and_wheels_are_pointer_input_never_claimed_without_a_change(flavour: Flavour) {
    use deskpilot_core::act::{Direction, DragEnd};
    let rig = rig(flavour, true).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let report = handle
        .drag(
            &DragEnd::Element(by("button[name=Go]")),
            &DragEnd::Point { x: 300, y: 300 },
        )
        .await
        .unwrap();
    assert_eq!(report.effect, Effect::Unverified);
    assert!(
        rig.input
            .sent()
            .iter()
            .any(|s| s == "drag 50,190 -> 300,300"),
        "{:?}",
        rig.input.sent()
    );
    let report = handle
        .act(
            &by("button[name=Go]"),
            &Action::Scroll {
                direction: Direction::Down,
                amount: 2,
            },
        )
        .await
        .unwrap();
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::Pointer);
    assert_eq!(report.effect, Effect::Unverified);
}

/// An element re-created between calls (UIA gives it a new RuntimeId) leaves its ref naming
/// nothing: the ref is refused, never matched to the twin, and nothing is sent.
async fn a_ref_whose_element_vanished_is_refused_never_rematched(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let selector = Selector::parse("button[name=Fleeting]").unwrap();
    let handle = rig.engine.session(&rig.session).unwrap();
    let found = handle.find(&selector, None, 5).await;
    let reference = found.unwrap().matches[0].reference.clone();
    let error = handle
        .act(&Target::Ref(reference), &CLICK)
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::StaleRef, "{error:?}");
    assert!(
        rig.backend.performed().is_empty(),
        "{:?}",
        rig.backend.performed()
    );
    assert_eq!(clicks(&rig), 0);
}

/// An operation the app runs in a modal loop answers late (GTK's gtk_dialog_run, UIA's Invoke
/// on a button opening a modal dialog): the backend says it is running, and the effect read
/// back confirms it.
async fn an_operation_running_in_a_modal_loop_is_read_back(flavour: Flavour) {
    let rig = rig(flavour, true).await;
    let report = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .act(&by("checkbox[name=Dialog]"), &CHECK)
        .await
        .unwrap();
    assert_eq!(report.effect, Effect::Confirmed);
    let route = report.route.unwrap();
    assert_eq!(route.rung, Rung::Semantic);
    assert!(
        route
            .how
            .ends_with("(no answer yet: it opened a modal dialog)"),
        "{}",
        route.how
    );
}

/// The routes the fake took for a few verbs, as reports show them.
async fn routes_taken(flavour: Flavour) -> Vec<String> {
    let rig = rig(flavour, true).await;
    let actions = [
        ("checkbox[name=Plain]", CHECK),
        ("button[name=Go]", CLICK),
        (
            "textbox[name=Name]",
            Action::SetValue(ValueInput::Text("Bea".into())),
        ),
        (
            "spinbutton[name=Qty]",
            Action::SetValue(ValueInput::Number(7.0)),
        ),
        ("checkbox[name=Seen]", Action::Activate(ActionName::Default)),
    ];
    let mut routes = Vec::new();
    for (target, action) in actions {
        let report = rig
            .engine
            .session(&rig.session)
            .unwrap()
            .act(&by(target), &action)
            .await;
        let report = report.unwrap_or_else(|e| panic!("{flavour:?} {target}: {e:?}"));
        routes.push(report.route.expect("a route was taken").how);
    }
    routes
}

/// The UI Automation flavour cannot pass by speaking AT-SPI: it lists no named action, none
/// of AT-SPI's own interfaces, and no route text of the AT-SPI flavour's.
#[tokio::test]
async fn the_uia_flavour_speaks_no_atspi() {
    const ATSPI_ONLY: &[&str] = &[
        "Action",
        "Component",
        "EditableText",
        "TableCell",
        "Hypertext",
        "Hyperlink",
        "Collection",
    ];
    let rig = rig(Flavour::Uia, true).await;
    let root = rig.backend.apps().await.unwrap()[0].id.clone();
    let tree = rig
        .backend
        .snapshot(&root, &WalkLimits::default())
        .await
        .unwrap();
    for tn in &tree.nodes {
        // What vanished since the walk has no properties left.
        let Ok(node) = rig.backend.properties(&tn.node.id, Secrecy::Plain).await else {
            continue;
        };
        assert!(node.actions.is_empty(), "{:?} names actions", node.name);
        assert!(
            !node
                .platform_interfaces
                .iter()
                .any(|p| ATSPI_ONLY.contains(&p.as_str())),
            "{:?}: {:?}",
            node.name,
            node.platform_interfaces
        );
    }
    let uia = routes_taken(Flavour::Uia).await;
    let atspi = routes_taken(Flavour::AtSpi).await;
    for how in &uia {
        assert!(!atspi.contains(how), "both flavours say {how:?}");
    }
    assert!(uia.iter().any(|h| h.starts_with("Toggle.")), "{uia:?}");
    assert!(atspi.iter().any(|h| h.starts_with("action ")), "{atspi:?}");
}

/// kdialog's checklist, on both flavours: an item of a multi-selection list is on when
/// selected (AT-SPI's item says nothing of its list; UIA's SelectionItem neither), and a
/// control with no on/off is never "already off" nor confirmed.
const CHECKLIST: &str = r#"
application "Checklist" pid=8
  window "Pick" bounds=0,0,300,300
    list "Toppings" [multiselectable] interfaces=selection bounds=0,0,200,100
      listitem "Olives" [selectable] [selected] bounds=0,0,200,20
      listitem "Basil" [selectable] bounds=0,20,200,20
    button "Plain" actions=click bounds=0,150,80,20
"#;

async fn a_checklist_item_is_judged_by_its_selection(flavour: Flavour) {
    let backend = Arc::new(FakeBackend::with_flavour(flavour));
    backend.add_app(CHECKLIST);
    let input = Arc::new(FakeInput::new(backend.clone()));
    let engine = Engine::wired(
        backend.clone(),
        Wiring {
            input: Some(input.clone()),
            windows: Some(input.clone()),
            ..Wiring::default()
        },
    );
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Pick".into()))
        .await
        .unwrap()
        .id;
    let act = |selector: &'static str, on: OnOff| {
        let engine = &engine;
        let session = &session;
        async move {
            let action = Action::Toggle { ensure: Some(on) };
            engine
                .session(session)
                .unwrap()
                .act(&by(selector), &action)
                .await
                .unwrap()
        }
    };
    let off = act("listitem[name=Olives]", OnOff::Off).await;
    assert_eq!(off.effect, Effect::Confirmed);
    assert_eq!(off.changes, vec!["selected: on -> off".to_owned()]);
    let again = act("listitem[name=Olives]", OnOff::Off).await;
    assert_eq!(again.route, None);
    assert!(again.note.as_deref().unwrap().contains("already off"));
    let on = act("listitem[name=Basil]", OnOff::On).await;
    assert_eq!(on.changes, vec!["selected: off -> on".to_owned()]);
    // A button has no on/off: never "already off", never confirmed.
    for want in [OnOff::Off, OnOff::On] {
        let plain = act("button[name=Plain]", want).await;
        assert_eq!(plain.effect, Effect::Unverified, "{plain:?}");
        assert!(plain.route.is_some(), "{plain:?}");
    }
}

on_both_flavours!(
    a_semantic_action_that_works_is_confirmed_and_used_alone,
    a_lying_semantic_action_falls_through_to_the_pointer,
    an_action_says_what_it_did_beside_its_element,
    an_element_without_a_known_window_is_reached_through_the_sessions_window,
    a_plain_click_or_typing_is_never_sent_twice,
    when_no_route_has_an_effect_the_action_fails,
    a_wrong_effect_is_reported_as_such,
    a_postcondition_that_held_before_or_focus_alone_confirms_nothing,
    refusals_carry_their_codes,
    without_an_input_device_input_rungs_refuse_clearly,
    text_is_set_outright_or_typed_at_the_end,
    window_actions_are_confirmed_by_the_window_state,
    an_ensure_is_judged_on_a_fresh_read,
    drags_and_wheels_are_pointer_input_never_claimed_without_a_change,
    a_ref_whose_element_vanished_is_refused_never_rematched,
    an_operation_running_in_a_modal_loop_is_read_back,
    a_checklist_item_is_judged_by_its_selection,
);
