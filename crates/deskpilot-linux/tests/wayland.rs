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

/// A wlroots compositor without sway's IPC: the windows come from
/// `zwlr_foreign_toplevel_management_v1` (sway has it too), with no position. Keys still
/// reach the app and activation works (sway's focus judges it); the pointer is refused, never
/// sent at a guessed place.
#[tokio::test]
async fn without_sways_ipc_the_toplevels_serve_and_the_pointer_is_refused() {
    let desktop = VirtualDesktop::start_sway().unwrap();
    let app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let mut options = LinuxOptions::new(desktop.session_bus_address(), None);
    let mut wayland = desktop.wayland().unwrap();
    wayland.sway = None;
    options.wayland = Some(wayland);
    let engine = linux_engine(options).await.unwrap().engine;
    // The window is listed with its toplevel's id once the compositor has mapped it.
    let mut listed = Vec::new();
    for _ in 0..50 {
        listed = engine.list_apps().await.unwrap();
        let mut windows = listed.iter().flat_map(|a| &a.windows);
        if windows.any(|w| w.system_id.is_some()) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let windows = listed.iter().flat_map(|a| &a.windows);
    assert!(windows.clone().any(|w| w.system_id.is_some()), "{listed:?}");
    // Known but not placed: no bounds on the screen.
    assert!(windows.clone().all(|w| w.bounds.is_none()), "{listed:?}");
    let title: String = Fixture::Gtk3.window_title().into();
    let session = engine
        .connect(&ConnectTarget::WindowTitle(title.clone()))
        .await;
    let handle = engine.session(&session.unwrap().id).unwrap();
    let text = Action::TypeText("ünï".into());
    handle.act(&by("textbox[name=Name]"), &text).await.unwrap();
    let wait = Duration::from_secs(5);
    app.oracle
        .wait_value("name", "text", json!("ünï"), wait)
        .unwrap();
    let double = Action::Click {
        button: MouseButton::Left,
        double: true,
    };
    let refused = handle.act(&by("button[name=Count]"), &double).await;
    let refused = refused.expect_err("no position, no pointer");
    assert_eq!(refused.code, deskpilot_core::Code::Offscreen, "{refused:?}");
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    handle
        .act(&by("button[name*=\"Open dialog\"]"), &click)
        .await
        .unwrap();
    let dialog_focused = || desktop.sway_focused().is_some_and(|t| t != title);
    assert!(
        deskpilot_linux::headless::wait::until(wait, || dialog_focused().then_some(())).is_some()
    );
    let activate = deskpilot_core::act::WindowAction::Activate;
    handle.window_action(activate).await.unwrap();
    assert_eq!(desktop.sway_focused().as_deref(), Some(title.as_str()));
}
