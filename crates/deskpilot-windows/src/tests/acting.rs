//! Acting on the Windows backend where the fake's own state is the oracle. The ladder's
//! cases run here too, as data: `deskpilot-fake/tests/cases/` (its Windows rig).

use std::sync::Arc;

use deskpilot_core::{
    Action, Code, ConnectTarget, Engine, MouseButton, Selector, Target, ValueInput,
};
use deskpilot_platform::{Backend, BackendError, NativeOp};

use super::DESKTOP;
use crate::{FakeUia, WindowsBackend};

const FORM: &str = r#"
process "form.exe" pid=8 started=1
  Window "Main" hwnd=0x4000 patterns=Window bounds=0,0,400,400
    Button "Off" patterns=Invoke disabled bounds=10,130,80,20
    Edit "Password" password patterns=Value value= bounds=10,190,100,20
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
