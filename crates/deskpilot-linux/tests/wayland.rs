//! The engine on headless sway, apps native on Wayland: input through the compositor's
//! virtual keyboard and pointer, judged by the fixture's oracle.

use std::time::Duration;

use deskpilot_core::{Action, ConnectTarget, Engine, MouseButton, Rung, Selector, Target};
use deskpilot_linux::{LinuxOptions, linux_engine};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;

async fn engine_on(desktop: &VirtualDesktop) -> Engine {
    let mut options = LinuxOptions::new(desktop.session_bus_address(), None);
    options.wayland = desktop.wayland();
    linux_engine(options).await.unwrap().engine
}

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

#[tokio::test]
async fn gtk3_native_on_sway_is_typed_into_and_clicked() {
    let desktop = VirtualDesktop::start_sway().unwrap();
    let app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let engine = engine_on(&desktop).await;
    let session = engine
        .connect(&ConnectTarget::WindowTitle(
            Fixture::Gtk3.window_title().into(),
        ))
        .await
        .unwrap()
        .id;
    let handle = engine.session(&session).unwrap();
    let typed = handle
        .act(
            &by("textbox[name=Name]"),
            &Action::TypeText("héllo €✓".into()),
        )
        .await
        .unwrap();
    assert_eq!(
        typed.route.as_ref().map(|r| r.rung),
        Some(Rung::Keyboard),
        "{typed:?}"
    );
    app.oracle
        .wait_value("name", "text", json!("héllo €✓"), Duration::from_secs(5))
        .unwrap();
    // A double click has no semantic route: the pointer at the button's bounds.
    let clicked = handle
        .act(
            &by("button[name=Count]"),
            &Action::Click {
                button: MouseButton::Left,
                double: true,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        clicked.route.as_ref().map(|r| r.rung),
        Some(Rung::Pointer),
        "{clicked:?}"
    );
    app.oracle
        .wait_value("counter", "clicks", json!(2), Duration::from_secs(5))
        .unwrap();
}
