//! The AT-SPI backend against real apps on a private headless desktop.

use std::time::{Duration, Instant};

use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::model::{NodeValue, Role, State};
use deskpilot_core::{AppInfo, Backend, BackendError, Filter, WalkLimits, render};
use deskpilot_testkit::{Fixture, FixtureApp, VirtualDesktop};
use serde_json::json;

async fn backend(desktop: &VirtualDesktop) -> AtspiBackend {
    AtspiBackend::connect(ConnectOptions::new(desktop.session_bus_address()))
        .await
        .expect("connects to the desktop's AT-SPI bus")
}

fn app_of<'a>(apps: &'a [AppInfo], fixture: &FixtureApp) -> &'a AppInfo {
    apps.iter()
        .find(|a| a.pid == Some(fixture.pid()))
        .unwrap_or_else(|| panic!("fixture pid {} not among {apps:#?}", fixture.pid()))
}

#[tokio::test]
async fn lists_the_gtk3_fixture_with_its_toolkit_and_window() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let backend = backend(&desktop).await;
    let apps = backend.apps().await.unwrap();
    let app = app_of(&apps, &fixture);
    assert!(app.responding);
    assert!(app.toolkit.as_deref().unwrap().eq_ignore_ascii_case("gtk"));
    assert!(app.toolkit_version.as_deref().unwrap().starts_with("3."));
    let window = app
        .windows
        .iter()
        .find(|w| w.title == Fixture::Gtk3.window_title())
        .expect("main window listed");
    assert_eq!(window.role, Role::Window);
    let bounds = window.bounds.expect("window bounds");
    assert!(bounds.width > 800 && bounds.height > 600, "{bounds:?}");
    assert_eq!(window.is_minimized(), Some(false));
}

#[tokio::test]
async fn snapshot_reads_the_gtk3_widgets() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let backend = backend(&desktop).await;
    let apps = backend.apps().await.unwrap();
    let window = &app_of(&apps, &fixture).windows[0];
    let tree = backend
        .snapshot(&window.id, &WalkLimits::default())
        .await
        .unwrap();
    let find = |role: Role, name: &str| {
        tree.nodes
            .iter()
            .find(|n| n.node.role == role && n.node.name == name)
            .unwrap_or_else(|| panic!("no {role} {name:?} in the snapshot"))
    };
    let count = find(Role::Button, "Count");
    assert!(
        count.node.actions.iter().any(|a| a == "click"),
        "{:?}",
        count.node.actions
    );
    assert!(count.node.bounds.is_some_and(|b| !b.is_empty()));
    assert!(count.node.states.is(State::Enabled));
    let check = find(Role::Checkbox, "Enable notifications");
    assert!(check.node.states.is_not(State::Checked));
    assert!(find(Role::Radio, "Small").node.states.is(State::Checked));
    // An item of a closed menu is hidden: no bounds (toolkits answer leftovers for hidden
    // elements), but its actions are read.
    let hidden = find(Role::MenuItem, "Report.txt");
    assert!(hidden.node.states.is_not(State::Showing));
    assert_eq!(hidden.node.bounds, None);
    assert!(!hidden.node.actions.is_empty());
    find(Role::Tab, "Advanced");
    // Document order: the menu bar comes before the controls.
    let menubar = tree
        .nodes
        .iter()
        .position(|n| n.node.role == Role::MenuBar)
        .unwrap();
    let button = tree
        .nodes
        .iter()
        .position(|n| n.node.name == "Count")
        .unwrap();
    assert!(menubar < button);
    // Links are consistent.
    for (i, tn) in tree.nodes.iter().enumerate().skip(1) {
        let parent = tn.parent.expect("non-root has a parent");
        assert!(parent < i && tree.nodes[parent].children.contains(&i));
        assert_eq!(tn.depth, tree.nodes[parent].depth + 1);
    }
    let rendered = render(&tree, Filter::Interactive, &|_| None);
    assert!(
        rendered.text.contains("- button \"Count\""),
        "{}",
        rendered.text
    );
}

/// Never asks a password field for its text, on every toolkit (GTK 4.8 would hand out the
/// plaintext): the secret appears in no output, only its length.
async fn password_text_is_never_read(fixture_kind: Fixture) {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(fixture_kind).unwrap();
    let secret = "hunter2-секрет";
    fixture
        .command("set_text", json!({"widget": "password", "text": secret}))
        .unwrap();
    fixture
        .oracle
        .wait_value("password", "text", json!(secret), Duration::from_secs(5))
        .unwrap();
    let backend = backend(&desktop).await;
    let apps = backend.apps().await.unwrap();
    let window = &app_of(&apps, &fixture).windows[0];
    let tree = backend
        .snapshot(&window.id, &WalkLimits::default())
        .await
        .unwrap();
    let password = tree
        .nodes
        .iter()
        .find(|n| n.node.role == Role::Password)
        .expect("password field in the snapshot");
    assert_eq!(
        password.node.value,
        Some(NodeValue::Redacted {
            chars: Some(secret.chars().count() as u32)
        })
    );
    let json = serde_json::to_string(&tree).unwrap();
    let text = render(&tree, Filter::All, &|_| None).text;
    assert!(!json.contains("hunter2") && !text.contains("hunter2"));
}

#[tokio::test]
async fn gtk3_password_text_is_never_read() {
    password_text_is_never_read(Fixture::Gtk3).await;
}

#[tokio::test]
async fn gtk4_password_text_is_never_read() {
    password_text_is_never_read(Fixture::Gtk4).await;
}

#[tokio::test]
async fn qt5_password_text_is_never_read() {
    password_text_is_never_read(Fixture::Qt5).await;
}

/// GTK 4.8 reports window-relative extents and omits `enabled`/`showing`: bounds come out in
/// screen coordinates, and the missing states are unknown rather than false.
#[tokio::test]
async fn gtk4_bounds_are_on_screen_and_missing_states_unknown() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk4).unwrap();
    let x11 = deskpilot_x11::X11WindowSystem::connect(desktop.display()).unwrap();
    let backend = backend(&desktop)
        .await
        .with_window_system(std::sync::Arc::new(x11));
    let apps = backend.apps().await.unwrap();
    let window = &app_of(&apps, &fixture).windows[0];
    assert!(window.system_id.is_some(), "mapped to its X window");
    let frame = window.bounds.unwrap();
    assert!(
        frame.x > 0 || frame.y > 0,
        "openbox places it off the origin: {frame:?}"
    );
    let tree = backend
        .snapshot(&window.id, &WalkLimits::default())
        .await
        .unwrap();
    let count = tree
        .nodes
        .iter()
        .find(|n| n.node.role == Role::Button && n.node.name == "Count")
        .expect("Count button");
    let bounds = count.node.bounds.unwrap();
    assert!(
        bounds.x >= frame.x && bounds.y >= frame.y,
        "button {bounds:?} lies inside the window {frame:?}"
    );
    assert_eq!(count.node.states.get(State::Showing), None);
    // Class names are not names.
    assert!(
        tree.nodes
            .iter()
            .all(|n| !n.node.name.starts_with("GtkListItem"))
    );
}

/// The same widgets read on every toolkit, under the names a user sees.
async fn reads_the_common_widgets(fixture_kind: Fixture) {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(fixture_kind).unwrap();
    let backend = backend(&desktop).await;
    let apps = backend.apps().await.unwrap();
    let app = app_of(&apps, &fixture);
    let window = app
        .windows
        .iter()
        .find(|w| w.title == fixture_kind.window_title())
        .expect("main window");
    let tree = backend
        .snapshot(&window.id, &WalkLimits::default())
        .await
        .unwrap();
    let has = |role: Role, name: &str| {
        tree.nodes
            .iter()
            .any(|n| n.node.role == role && n.node.display_name() == name)
    };
    for (role, name) in [
        (Role::Button, "Count"),
        (Role::Checkbox, "Enable notifications"),
        (Role::Radio, "Medium"),
        (Role::TextBox, "Name"),
        (Role::Password, "Password"),
        (Role::SpinButton, "Quantity"),
        (Role::Slider, "Volume"),
        (Role::MenuItem, "File"),
    ] {
        let role = if fixture_kind == Fixture::Gtk3 && role == Role::MenuItem {
            Role::Menu // GTK3 menu bar items are menus
        } else {
            role
        };
        assert!(
            has(role, name),
            "{} fixture: no {role} {name:?}",
            fixture_kind.name()
        );
    }
    // Reading must never take the app down (Qt 5.15 segfaults on `Properties.GetAll`).
    assert!(fixture.app.is_running(), "the app died while being read");
}

#[tokio::test]
async fn gtk3_common_widgets() {
    reads_the_common_widgets(Fixture::Gtk3).await;
}

#[tokio::test]
async fn gtk4_common_widgets() {
    reads_the_common_widgets(Fixture::Gtk4).await;
}

#[tokio::test]
async fn qt5_common_widgets() {
    reads_the_common_widgets(Fixture::Qt5).await;
}

#[tokio::test]
async fn a_frozen_app_fails_only_its_own_calls() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;

    let desktop = VirtualDesktop::start().unwrap();
    let frozen = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let alive = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let backend = backend(&desktop).await;
    let apps = backend.apps().await.unwrap();
    let frozen_window = app_of(&apps, &frozen).windows[0].id.clone();
    let alive_window = app_of(&apps, &alive).windows[0].id.clone();

    kill(Pid::from_raw(frozen.pid() as i32), Signal::SIGSTOP).unwrap();
    let started = Instant::now();
    let error = backend
        .snapshot(&frozen_window, &WalkLimits::default())
        .await
        .expect_err("a stopped app cannot answer");
    let took = started.elapsed();
    assert!(
        matches!(error, BackendError::AppNotResponding { .. }),
        "{error}"
    );
    assert!(error.retryable());
    // Bounded by the per-call timeout (1.5 s), not by D-Bus's 25 s default.
    assert!(took < Duration::from_secs(5), "took {took:?}");

    let tree = backend
        .snapshot(&alive_window, &WalkLimits::default())
        .await
        .expect("the other app still answers");
    assert!(tree.len() > 50);
    // Known not to answer since its call timed out: a listing waits on it no more.
    let timeouts = backend.timeouts();
    let apps = backend.apps().await.unwrap();
    assert_eq!(backend.timeouts() - timeouts, 0);
    assert!(!app_of(&apps, &frozen).responding);
    assert!(app_of(&apps, &alive).responding);
    kill(Pid::from_raw(frozen.pid() as i32), Signal::SIGCONT).unwrap();
}

/// Identities read from `Cache.GetItems` over a direct connection, and from calls through the
/// bus, describe the same tree.
#[tokio::test]
async fn the_cache_and_the_calls_read_the_same_tree() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let cached = backend(&desktop).await;
    let mut options = ConnectOptions::new(desktop.session_bus_address());
    options.use_cache = false;
    options.use_peers = false;
    let called = AtspiBackend::connect(options).await.unwrap();
    let apps = cached.apps().await.unwrap();
    let window = app_of(&apps, &fixture).windows[0].id.clone();
    let summary = |tree: &deskpilot_core::model::Tree| -> Vec<String> {
        tree.nodes
            .iter()
            .map(|n| {
                let s = &n.node;
                format!(
                    "{} {} {:?} {:?} {} {:?} {:?} {:?}",
                    n.depth,
                    s.id,
                    s.role,
                    s.name,
                    s.child_count,
                    s.states.iter_on().collect::<Vec<_>>(),
                    s.capabilities.iter().collect::<Vec<_>>(),
                    s.actions
                )
            })
            .collect()
    };
    let a = summary(
        &cached
            .snapshot(&window, &WalkLimits::default())
            .await
            .unwrap(),
    );
    let b = summary(
        &called
            .snapshot(&window, &WalkLimits::default())
            .await
            .unwrap(),
    );
    assert!(a.len() > 500, "{}", a.len());
    let diff: Vec<_> = a.iter().zip(&b).filter(|(x, y)| x != y).take(5).collect();
    assert!(
        diff.is_empty() && a.len() == b.len(),
        "{} vs {} nodes; first differences: {diff:#?}",
        a.len(),
        b.len()
    );
}

/// An app that leaves the bus leaves nothing behind: how it reports, its origin, its kept
/// identities and its direct connection are dropped when a listing no longer shows it.
#[tokio::test]
async fn a_gone_app_leaves_nothing_behind() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let backend = backend(&desktop).await;
    let apps = backend.apps().await.unwrap();
    let app = app_of(&apps, &fixture).id.clone();
    backend
        .snapshot(&app, &WalkLimits::default())
        .await
        .unwrap();
    assert!(backend.remembered_apps().contains(&app.app));
    fixture.command("quit", json!({})).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while backend.apps().await.unwrap().iter().any(|a| a.id == app) {
        assert!(
            Instant::now() < deadline,
            "the fixture did not leave the bus"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let left = backend.remembered_apps();
    assert!(!left.contains(&app.app), "{left:?}");
}
