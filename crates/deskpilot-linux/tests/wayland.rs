//! The engine on headless sway: input through the compositor's virtual keyboard and pointer,
//! judged by the fixture's oracle, for an app native on Wayland and one through XWayland.

use std::time::Duration;

use deskpilot_core::{Action, ConnectTarget, Engine, MouseButton, Rung, Selector, Target};
use deskpilot_linux::{LinuxOptions, linux_engine};
use deskpilot_testkit::{
    Fixture, LaunchOptions, Oracle, Registration, SYSTEM_PYTHON, VirtualDesktop,
};
use serde_json::json;

async fn engine_on(desktop: &VirtualDesktop) -> Engine {
    let mut options = LinuxOptions::new(desktop.session_bus_address(), None);
    options.wayland = desktop.wayland();
    linux_engine(options).await.unwrap().engine
}

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

/// Types Unicode into the fixture's name field and double-clicks its Count button (no
/// semantic route: the pointer at the button's bounds), each judged by the oracle.
async fn type_and_double_click(desktop: &VirtualDesktop, oracle: &Oracle) {
    let engine = engine_on(desktop).await;
    let title = Fixture::Gtk3.window_title().into();
    let session = engine.connect(&ConnectTarget::WindowTitle(title)).await;
    let session = session.unwrap().id;
    let handle = engine.session(&session).unwrap();
    let text = Action::TypeText("héllo €✓".into());
    let typed = handle.act(&by("textbox[name=Name]"), &text).await.unwrap();
    let rung = |r: &deskpilot_core::ActionReport| r.route.as_ref().map(|r| r.rung);
    assert_eq!(rung(&typed), Some(Rung::Keyboard), "{typed:?}");
    let wait = Duration::from_secs(5);
    oracle
        .wait_value("name", "text", json!("héllo €✓"), wait)
        .unwrap();
    let double = Action::Click {
        button: MouseButton::Left,
        double: true,
    };
    let clicked = handle.act(&by("button[name=Count]"), &double).await;
    let clicked = clicked.unwrap();
    assert_eq!(rung(&clicked), Some(Rung::Pointer), "{clicked:?}");
    oracle
        .wait_value("counter", "clicks", json!(2), wait)
        .unwrap();
}

#[tokio::test]
async fn gtk3_native_on_sway_is_typed_into_and_clicked() {
    let desktop = VirtualDesktop::start_sway().unwrap();
    let app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    type_and_double_click(&desktop, &app.oracle).await;
}

/// An X11 app on sway (`GDK_BACKEND=x11`, through XWayland): the compositor's devices reach
/// it, and its bounds are its own screen coordinates (sway's tree says it knows its place).
#[tokio::test]
async fn gtk3_through_xwayland_on_sway_is_typed_into_and_clicked() {
    let desktop = VirtualDesktop::start_sway().unwrap();
    assert!(desktop.xwayland_display().is_some());
    let oracle = Oracle::new(desktop.log_path("oracle-gtk3-x11", "jsonl"));
    let mut cmd = desktop.command(SYSTEM_PYTHON);
    cmd.arg(Fixture::Gtk3.script())
        .arg("--oracle")
        .arg(oracle.path())
        .env("GDK_BACKEND", "x11");
    let registration = Registration::Within(Duration::from_secs(30));
    let _app = desktop
        .launch_with(cmd, LaunchOptions { registration })
        .unwrap();
    oracle
        .wait_value("app", "ready", json!(true), Duration::from_secs(10))
        .unwrap();
    type_and_double_click(&desktop, &oracle).await;
}
