//! The private desktop on headless GNOME Shell: the shell comes up on the desktop's bus, a
//! GTK 3 app native on its Wayland registers on the accessibility bus, and the shell's own
//! window list (its introspection interface, not deskpilot) shows its window, focused. The
//! focus needs the seat's keyboard: headless mutter has none until a remote desktop session
//! sends a first event, and the desktop holds one (`HeldSeat`).

use std::process::Command;
use std::time::Duration;

use deskpilot_core::{
    Action, ConnectTarget, Direction, Engine, Rung, Selector, SnapshotRequest, Target,
};
use deskpilot_linux::headless::wait;
use deskpilot_linux::{LinuxOptions, linux_engine};
use deskpilot_testkit::{Fixture, SYSTEM_PYTHON, VirtualDesktop, has_state, pyatspi_nodes};
use serde_json::json;

/// The shell's window list as `gdbus` prints it.
fn shell_windows(desktop: &VirtualDesktop) -> String {
    let out = Command::new("gdbus")
        .arg("call")
        .arg(format!("--address={}", desktop.session_bus_address()))
        .args([
            "--dest=org.gnome.Shell.Introspect",
            "--object-path=/org/gnome/Shell/Introspect",
        ])
        .args(["--method=org.gnome.Shell.Introspect.GetWindows"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_gtk3_app_native_on_headless_gnome_is_on_the_bus_and_in_the_shell() {
    let desktop = VirtualDesktop::start_gnome().unwrap();
    assert_eq!(desktop.wayland_display(), Some("wayland-gnome"));
    let _app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let title = Fixture::Gtk3.window_title();
    // Listed, then shown: the window is in the list, hidden, until its first frame.
    let listed = wait::until(Duration::from_secs(10), || {
        let windows = shell_windows(&desktop);
        let shown = windows.contains(title) && windows.contains("'is-hidden': <false>");
        shown.then_some(windows)
    });
    let windows = listed.unwrap_or_else(|| shell_windows(&desktop));
    assert!(windows.contains(title), "{windows}");
    assert!(windows.contains("'is-hidden': <false>"), "{windows}");
    let focused = wait::until(Duration::from_secs(10), || {
        (desktop.gnome_focused().as_deref() == Some(title)).then_some(())
    });
    assert!(focused.is_some(), "{:?}", desktop.gnome_windows());
    // GTK's own word: its window is active, which it is only with a keyboard on the seat.
    let active = wait::until(Duration::from_secs(10), || {
        let script = format!(
            "import pyatspi\nfor a in pyatspi.Registry.getDesktop(0):\n  for w in a:\n    \
             if w.name == {title:?} and w.getState().contains(pyatspi.STATE_ACTIVE): print('active')"
        );
        let out = desktop
            .command(SYSTEM_PYTHON)
            .args(["-c", &script])
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout)
            .contains("active")
            .then_some(())
    });
    assert!(active.is_some(), "GTK never reported its window active");
}

/// The engine on `desktop` (GNOME's devices), and a session on the GTK 3 fixture's window.
async fn engine_on_fixture(desktop: &VirtualDesktop) -> (Engine, String) {
    let mut options = LinuxOptions::new(desktop.session_bus_address(), None);
    options.wayland = desktop.wayland();
    let engine = linux_engine(options).await.unwrap().engine;
    let title = Fixture::Gtk3.window_title().to_owned();
    let session = engine.connect(&ConnectTarget::WindowTitle(title)).await;
    let id = session.unwrap().id;
    (engine, id)
}

/// The engine reads without a remote desktop session (GNOME shows its screen-sharing icon
/// while one runs); its first input starts one, which ends with the engine.
#[tokio::test]
async fn reading_starts_no_remote_desktop_session_and_input_starts_one() {
    let desktop = VirtualDesktop::start_gnome().unwrap();
    let app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let held = desktop.gnome_remote_sessions();
    assert_eq!(held, 1, "the desktop's seat holds one");
    let (engine, session) = engine_on_fixture(&desktop).await;
    let handle = engine.session(&session).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    assert_eq!(
        desktop.gnome_remote_sessions(),
        held,
        "a read started a session"
    );
    let name = Target::Selector(Selector::parse("textbox[name=Name]").unwrap());
    let typed = handle.act(&name, &Action::TypeText("abc".into())).await;
    assert_eq!(typed.unwrap().route.map(|r| r.rung), Some(Rung::Keyboard));
    app.oracle
        .wait_value("name", "text", json!("abc"), Duration::from_secs(5))
        .unwrap();
    assert_eq!(desktop.gnome_remote_sessions(), held + 1);
    drop(handle);
    drop(engine);
    let ended = wait::until(Duration::from_secs(5), || {
        (desktop.gnome_remote_sessions() == held).then_some(())
    });
    assert!(ended.is_some(), "the engine's session outlived it");
}

/// The fixture's vertical scroll bars' values, as pyatspi reads them.
fn vertical_scrolls(desktop: &VirtualDesktop) -> Vec<f64> {
    let nodes = pyatspi_nodes(desktop.command(SYSTEM_PYTHON), Fixture::Gtk3.app_name());
    nodes
        .iter()
        .filter(|n| n["role"] == "scroll bar" && has_state(n, "vertical"))
        .filter_map(|n| n["value"].as_f64())
        .collect()
}

/// The wheel through mutter's axis events: five steps down over the inventory table move a
/// vertical scroll bar (pyatspi reads its value).
#[tokio::test]
async fn the_wheel_scrolls_through_mutter() {
    let desktop = VirtualDesktop::start_gnome().unwrap();
    let _app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, session) = engine_on_fixture(&desktop).await;
    let handle = engine.session(&session).unwrap();
    let before = vertical_scrolls(&desktop);
    assert!(before.iter().all(|v| *v == 0.0), "{before:?}");
    let cell = Target::Selector(Selector::parse("cell[name=\"Item 003\"]").unwrap());
    let wheel = Action::Scroll {
        direction: Direction::Down,
        amount: 5,
    };
    let scrolled = handle.act(&cell, &wheel).await.unwrap();
    assert_eq!(scrolled.route.map(|r| r.rung), Some(Rung::Pointer));
    let moved = wait::until(Duration::from_secs(5), || {
        vertical_scrolls(&desktop)
            .iter()
            .any(|v| *v > 0.0)
            .then_some(())
    });
    assert!(moved.is_some(), "{:?}", vertical_scrolls(&desktop));
}
