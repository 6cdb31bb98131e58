//! The action ladder on the real GTK 3 fixture, every effect judged by the fixture's oracle.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::{
    Action, Code, ConnectTarget, Effect, Engine, MouseButton, OnOff, Rung, Selector, Target,
    ValueInput,
};
use deskpilot_desktop::{Fixture, VirtualDesktop};
use serde_json::json;

const ORACLE_WAIT: Duration = Duration::from_secs(5);

async fn engine_on(desktop: &VirtualDesktop, fixture: Fixture) -> (Engine, String) {
    let x11 = Arc::new(deskpilot_x11::X11Windows::connect(desktop.display()).unwrap());
    let backend = AtspiBackend::connect(ConnectOptions::new(desktop.session_bus_address()))
        .await
        .unwrap()
        .with_window_system(x11);
    let input = Arc::new(deskpilot_x11::X11Input::connect(desktop.display()).unwrap());
    let engine = Engine::new(Arc::new(backend)).with_input(input);
    let session = engine
        .connect(&ConnectTarget::WindowTitle(fixture.window_title().into()))
        .await
        .unwrap()
        .id;
    (engine, session)
}

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

#[tokio::test]
async fn gtk3_actions_land_and_are_confirmed() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let oracle = &fixture.oracle;

    let report = engine
        .act(
            &s,
            &by("checkbox[name=\"Enable notifications\"]"),
            &Action::Toggle {
                ensure: Some(OnOff::On),
            },
        )
        .await
        .unwrap();
    eprintln!("{}", report.summary());
    assert_eq!(report.effect, Effect::Confirmed);
    oracle
        .wait_value("check", "checked", json!(true), ORACLE_WAIT)
        .unwrap();

    let report = engine
        .act(
            &s,
            &by("button[name=\"Count\"]"),
            &Action::Click {
                button: MouseButton::Left,
                double: false,
            },
        )
        .await
        .unwrap();
    eprintln!("{}", report.summary());
    oracle
        .wait_value("counter", "clicks", json!(1), ORACLE_WAIT)
        .unwrap();

    let report = engine
        .act(
            &s,
            &by("textbox[name=\"Name\"]"),
            &Action::SetValue(ValueInput::Text("Ada".into())),
        )
        .await
        .unwrap();
    eprintln!("{}", report.summary());
    assert_eq!(report.effect, Effect::Confirmed);
    oracle
        .wait_value("name", "text", json!("Ada"), ORACLE_WAIT)
        .unwrap();

    let report = engine
        .act(
            &s,
            &by("textbox[name=\"Name\"]"),
            &Action::TypeText(" Lovelace é€".into()),
        )
        .await
        .unwrap();
    eprintln!("{}", report.summary());
    assert_eq!(report.route.as_ref().unwrap().rung, Rung::Keyboard);
    oracle
        .wait_value("name", "text", json!("Ada Lovelace é€"), ORACLE_WAIT)
        .unwrap();

    let report = engine
        .act(&s, &by("password"), &Action::TypeText("s3cret".into()))
        .await
        .unwrap();
    eprintln!("{}", report.summary());
    assert!(!report.summary().contains("s3cret"));
    assert_eq!(report.effect, Effect::Confirmed);
    oracle
        .wait_value("password", "length", json!(6), ORACLE_WAIT)
        .unwrap();

    let error = engine
        .act(
            &s,
            &by("spinbutton[name=\"Quantity\"]"),
            &Action::SetValue(ValueInput::Number(150.0)),
        )
        .await
        .unwrap_err();
    eprintln!("{error:?}");
    assert_eq!(error.code, Code::ValueClamped);

    let report = engine
        .act(&s, &by("listitem[name=\"Cherry\"]"), &Action::Select)
        .await
        .unwrap();
    eprintln!("{}", report.summary());
    oracle
        .wait_value("fruits", "selected", json!("Cherry"), ORACLE_WAIT)
        .unwrap();

    let report = engine
        .act(
            &s,
            &by("button[name=\"Count\"]"),
            &Action::Click {
                button: MouseButton::Right,
                double: false,
            },
        )
        .await
        .unwrap();
    eprintln!("{}", report.summary());

    let report = engine
        .act(
            &s,
            &by("menu[name=\"File\"]"),
            &Action::Click {
                button: MouseButton::Left,
                double: false,
            },
        )
        .await
        .unwrap();
    eprintln!("{}", report.summary());
    assert_eq!(report.effect, Effect::Confirmed);
    let report = engine
        .act(
            &s,
            &by("menuitem[name=\"Open\"]"),
            &Action::Click {
                button: MouseButton::Left,
                double: false,
            },
        )
        .await
        .unwrap();
    eprintln!("{}", report.summary());
    oracle
        .wait_value("menu.file.open", "activated", json!(true), ORACLE_WAIT)
        .unwrap();
}
