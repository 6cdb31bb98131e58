//! Acting: the engine's ladder on the Windows backend, whose semantic rung calls UIA's
//! control patterns; effects judged by the fake's own state or the engine's read back.

use std::sync::Arc;

use deskpilot_core::{
    Action, Code, ConnectTarget, Effect, Engine, MouseButton, OnOff, Rung, Selector, Target,
    ValueInput,
};
use deskpilot_platform::{Backend, BackendError, NativeOp};

use super::DESKTOP;
use crate::{FakeUia, WindowsBackend};

const FORM: &str = r#"
process "form.exe" pid=8 started=1
  Window "Main" hwnd=0x4000 patterns=Window bounds=0,0,400,400
    CheckBox "Plain" patterns=Toggle toggle=off bounds=10,10,100,20
    CheckBox "Liar" patterns=Toggle toggle=off inert bounds=10,40,100,20
    Button "Go" patterns=Invoke rename=Went bounds=10,70,80,20
    Button "Dialog" patterns=Invoke blocks rename=Opened bounds=10,100,80,20
    Button "Off" patterns=Invoke disabled bounds=10,130,80,20
    Edit "Name" patterns=Value,Text value=Ann bounds=10,160,100,20
    Edit "Password" password patterns=Value value= bounds=10,190,100,20
    Slider "Volume" patterns=RangeValue range=3:0:10:1 bounds=10,220,100,20
    List "Fruits" patterns=Selection bounds=10,250,100,60
      ListItem "Apple" patterns=SelectionItem selected bounds=10,250,100,20
      ListItem "Banana" patterns=SelectionItem bounds=10,270,100,20
    TreeItem "Folder" patterns=ExpandCollapse expand=collapsed bounds=10,320,100,20
"#;

struct Rig {
    fake: Arc<FakeUia>,
    engine: Engine,
    session: String,
}

async fn rig() -> Rig {
    let fake = Arc::new(FakeUia::new(FORM));
    let backend = WindowsBackend::new(fake.clone(), std::time::Duration::from_secs(2));
    let engine = Engine::new(Arc::new(backend));
    let session = engine.connect(&ConnectTarget::Pid(8)).await.unwrap().id;
    Rig {
        fake,
        engine,
        session,
    }
}

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

/// Each verb goes through its pattern, alone, and is confirmed by what it changed.
#[tokio::test]
async fn verbs_go_through_control_patterns_and_are_confirmed() {
    let rig = rig().await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let act = |target: &'static str, action: Action| {
        let handle = &handle;
        async move { handle.act(&by(target), &action).await.unwrap() }
    };
    let check = act(
        "checkbox[name=Plain]",
        Action::Toggle {
            ensure: Some(OnOff::On),
        },
    )
    .await;
    assert_eq!(check.effect, Effect::Confirmed);
    assert_eq!(check.route.as_ref().unwrap().how, "Toggle.Toggle");
    assert_eq!(check.changes, ["checked: off -> on"]);
    let set = act(
        "textbox[name=Name]",
        Action::SetValue(ValueInput::Text("Bea".into())),
    )
    .await;
    assert_eq!(set.effect, Effect::Confirmed);
    assert_eq!(set.route.as_ref().unwrap().how, "Value.SetValue");
    assert_eq!(rig.fake.value_now("Name").as_deref(), Some("Bea"));
    let volume = act(
        "slider[name=Volume]",
        Action::SetValue(ValueInput::Number(7.0)),
    )
    .await;
    assert_eq!(volume.effect, Effect::Confirmed);
    assert_eq!(volume.route.as_ref().unwrap().how, "RangeValue.SetValue(7)");
    let pick = act("listitem[name=Banana]", Action::Select).await;
    assert_eq!(pick.effect, Effect::Confirmed);
    assert_eq!(pick.route.as_ref().unwrap().how, "SelectionItem.Select");
    let open = act("treeitem[name=Folder]", Action::Expand).await;
    assert_eq!(open.effect, Effect::Confirmed);
    assert_eq!(open.route.as_ref().unwrap().how, "ExpandCollapse.Expand");
    let calls: Vec<String> = rig
        .fake
        .performed()
        .into_iter()
        .map(|(_, how)| how)
        .collect();
    assert_eq!(
        calls,
        [
            "Toggle.Toggle",
            "Value.SetValue",
            "RangeValue.SetValue(7)",
            "SelectionItem.Select",
            "ExpandCollapse.Expand"
        ]
    );
}

/// A checklist as kdialog's, in UIA's words: a multi-selection list (its Selection pattern
/// says so; the items do not) whose items' on/off is their selection. `uncheck` and `check`
/// go through SelectionItem, judged by `selected`; a button has no on/off and is never
/// "already off". Oracle: the provider's calls.
#[tokio::test]
async fn a_multi_selection_lists_items_are_checked_by_their_selection() {
    let fake = Arc::new(FakeUia::new(
        r#"
process "pick.exe" pid=9 started=1
  Window "Pick" hwnd=0x5000 patterns=Window bounds=0,0,300,300
    List "Toppings" patterns=Selection multiselect bounds=0,0,200,100
      ListItem "Olives" patterns=SelectionItem selected bounds=0,0,200,20
      ListItem "Basil" patterns=SelectionItem bounds=0,20,200,20
    Button "Plain" patterns=Invoke bounds=0,150,80,20
"#,
    ));
    let backend = WindowsBackend::new(fake.clone(), std::time::Duration::from_secs(2));
    let engine = Engine::new(Arc::new(backend));
    let session = engine.connect(&ConnectTarget::Pid(9)).await.unwrap().id;
    let handle = engine.session(&session).unwrap();
    let act = |target: &'static str, on: OnOff| {
        let handle = &handle;
        let action = Action::Toggle { ensure: Some(on) };
        async move { handle.act(&by(target), &action).await }
    };
    let off = act("listitem[name=Olives]", OnOff::Off).await.unwrap();
    assert_eq!(off.effect, Effect::Confirmed);
    assert_eq!(off.changes, ["selected: on -> off"]);
    let again = act("listitem[name=Olives]", OnOff::Off).await.unwrap();
    assert!(again.note.unwrap().contains("already off"));
    let on = act("listitem[name=Basil]", OnOff::On).await.unwrap();
    assert_eq!(on.changes, ["selected: off -> on"]);
    let calls: Vec<String> = fake.performed().into_iter().map(|(_, how)| how).collect();
    assert_eq!(
        calls,
        [
            "SelectionItem.RemoveFromSelection",
            "SelectionItem.AddToSelection"
        ]
    );
    // No input device here: the button's Invoke is sent once, and nothing is confirmed.
    let plain = act("button[name=Plain]", OnOff::Off).await;
    assert!(
        !matches!(&plain, Ok(r) if r.effect == Effect::Confirmed),
        "{plain:?}"
    );
}

/// A provider that takes a call and does nothing is never confirmed: with no input device
/// there is no other rung, and the engine says so.
#[tokio::test]
async fn a_lying_provider_is_never_confirmed() {
    let rig = rig().await;
    let error = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .act(
            &by("checkbox[name=Liar]"),
            &Action::Toggle {
                ensure: Some(OnOff::On),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::InputUnavailable, "{error:?}");
}

/// An Invoke that opens a modal dialog does not return: the call is running, the effect is
/// read back.
#[tokio::test]
async fn an_invoke_that_opens_a_modal_dialog_is_read_back() {
    let rig = rig().await;
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    let report = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .act(&by("button[name=Dialog]"), &click)
        .await
        .unwrap();
    let route = report.route.unwrap();
    assert_eq!(route.rung, Rung::Semantic);
    assert!(route.how.starts_with("Invoke.Invoke"), "{}", route.how);
    assert!(route.how.contains("no answer yet"), "{}", route.how);
}

/// A password set through Value.SetValue never shows in the report; a disabled button is
/// refused before any call; an elevated app is denied before any call.
#[tokio::test]
async fn secrets_stay_out_and_refusals_come_first() {
    let rig = rig().await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let report = handle
        .act(
            &by("password[name=Password]"),
            &Action::SetValue(ValueInput::Text("hunter2".into())),
        )
        .await
        .unwrap();
    let text = deskpilot_core::present::action(&report);
    assert!(!text.contains("hunter2"), "{text}");
    assert_eq!(rig.fake.value_now("Password").as_deref(), Some("hunter2"));
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    let error = handle
        .act(&by("button[name=Off]"), &click)
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::Disabled, "{error:?}");
    assert!(
        rig.fake
            .performed()
            .iter()
            .all(|(_, how)| how == "Value.SetValue")
    );
    let (fake, backend) = super::backend(DESKTOP);
    let admin = super::root_of(&backend, 9).await;
    let window = crate::identity::element_id(&admin.app, &crate::raw::RuntimeKey(vec![42, 0x3000]));
    let denied = backend
        .perform(&window, &NativeOp::Press)
        .await
        .unwrap_err();
    assert!(
        matches!(denied, BackendError::AccessDenied { .. }),
        "{denied:?}"
    );
    assert!(fake.performed().is_empty());
}
