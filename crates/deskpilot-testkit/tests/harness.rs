//! Tests of the virtual desktop harness itself, on real Xvfb / D-Bus / AT-SPI.

use std::collections::HashSet;
use std::time::Duration;

use deskpilot_testkit::{
    DesktopError, Fixture, LaunchOptions, Registration, VirtualDesktop, procs,
};
use serde_json::json;

/// The processes of `pids` still running.
fn still_alive(pids: &[u32]) -> Vec<u32> {
    pids.iter()
        .copied()
        .filter(|&p| procs::is_alive(p))
        .collect()
}

fn process_names(pids: &[u32]) -> Vec<String> {
    pids.iter()
        .filter_map(|p| std::fs::read_to_string(format!("/proc/{p}/comm")).ok())
        .map(|s| s.trim().to_owned())
        .collect()
}

#[test]
fn desktop_runs_the_whole_stack_and_leaves_nothing_behind() {
    let desktop = VirtualDesktop::start().expect("desktop starts");
    assert!(desktop.display().starts_with(':'), "{}", desktop.display());
    assert!(desktop.session_bus_address().starts_with("unix:"));
    assert!(desktop.a11y_bus_address().starts_with("unix:"));
    let fixture = desktop.launch_fixture(Fixture::Gtk3).expect("gtk3 fixture");

    let pids = desktop.processes();
    let names = process_names(&pids);
    for expected in [
        "Xvfb",
        "dbus-daemon",
        "at-spi-bus-laun",
        "at-spi2-registr",
        "openbox",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} not among the desktop's processes: {names:?}"
        );
    }
    assert!(pids.contains(&fixture.pid()), "fixture pid among {pids:?}");
    // Two dbus-daemons: the session bus and the accessibility bus.
    assert_eq!(
        names.iter().filter(|n| *n == "dbus-daemon").count(),
        2,
        "{names:?}"
    );

    drop(fixture);
    desktop.stop().expect("no process survives stop()");
    let alive = still_alive(&pids);
    assert!(
        alive.is_empty(),
        "still alive after teardown: {alive:?} {:?}",
        process_names(&alive)
    );
}

#[test]
fn a_panicking_test_still_stops_its_desktop() {
    let handle = std::thread::spawn(|| {
        let desktop = VirtualDesktop::start().expect("desktop starts");
        let pids = desktop.processes();
        assert!(pids.len() >= 4, "{pids:?}");
        std::panic::panic_any(pids);
    });
    let pids = *handle
        .join()
        .expect_err("the thread panicked")
        .downcast::<Vec<u32>>()
        .expect("payload is the pid list");
    let alive = still_alive(&pids);
    assert!(
        alive.is_empty(),
        "survived the panic: {alive:?} {:?}",
        process_names(&alive)
    );
}

#[test]
fn two_desktops_run_side_by_side_without_seeing_each_other() {
    let start = || {
        std::thread::spawn(|| {
            let desktop = VirtualDesktop::start().expect("desktop starts");
            let fixture = desktop.launch_fixture(Fixture::Gtk3).expect("fixture");
            (desktop, fixture)
        })
    };
    let (a, b) = (start(), start());
    let (desktop_a, fixture_a) = a.join().unwrap();
    let (desktop_b, fixture_b) = b.join().unwrap();

    assert_ne!(desktop_a.display(), desktop_b.display());
    assert_ne!(
        desktop_a.session_bus_address(),
        desktop_b.session_bus_address()
    );
    assert_ne!(desktop_a.a11y_bus_address(), desktop_b.a11y_bus_address());
    let pids = |d: &VirtualDesktop| -> HashSet<u32> {
        d.registered_apps().unwrap().iter().map(|a| a.pid).collect()
    };
    let (seen_a, seen_b) = (pids(&desktop_a), pids(&desktop_b));
    assert!(seen_a.contains(&fixture_a.pid()) && !seen_a.contains(&fixture_b.pid()));
    assert!(seen_b.contains(&fixture_b.pid()) && !seen_b.contains(&fixture_a.pid()));
    let (procs_a, procs_b): (HashSet<u32>, HashSet<u32>) = (
        desktop_a.processes().into_iter().collect(),
        desktop_b.processes().into_iter().collect(),
    );
    assert!(procs_a.is_disjoint(&procs_b));
}

#[test]
fn launch_waits_for_registration_and_names_the_app() {
    let desktop = VirtualDesktop::start().expect("desktop starts");
    let fixture = desktop.launch_fixture(Fixture::Gtk3).expect("fixture");
    let registration = fixture
        .app
        .registration()
        .expect("launch waited for it")
        .clone();
    assert_eq!(registration.pid, fixture.pid());
    assert!(registration.bus_name.starts_with(':'), "{registration}");
    let apps = desktop.registered_apps().unwrap();
    assert!(apps.contains(&registration), "{apps:?}");
}

#[test]
fn a_process_that_never_registers_times_out_with_a_clear_error() {
    let desktop = VirtualDesktop::start().expect("desktop starts");
    let mut cmd = desktop.command("sleep");
    cmd.arg("30");
    let options = LaunchOptions {
        registration: Registration::Within(Duration::from_millis(700)),
    };
    match desktop.launch_with(cmd, options) {
        Err(DesktopError::NotRegistered { program, .. }) => assert_eq!(program, "sleep"),
        Err(other) => panic!("wrong error: {other}"),
        Ok(_) => panic!("sleep registered on AT-SPI?"),
    }
}

#[test]
fn a_fixture_that_crashes_at_start_is_reported_with_its_stderr() {
    let desktop = VirtualDesktop::start().expect("desktop starts");
    let error = match desktop.launch_fixture_with_args(Fixture::Gtk3, &["--crash-at-start"]) {
        Err(e) => e,
        Ok(_) => panic!("the crashing fixture came up"),
    };
    let message = error.to_string();
    assert!(matches!(error, DesktopError::Exited { .. }), "{message}");
    assert!(
        message.contains("fixture asked to crash at start"),
        "{message}"
    );
    assert!(message.contains("exit status: 1"), "{message}");
}

#[test]
fn fixture_control_commands_show_in_the_oracle() {
    let desktop = VirtualDesktop::start().expect("desktop starts");
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).expect("fixture");
    fixture
        .command("set_label", json!({"text": "from the test"}))
        .unwrap();
    fixture
        .oracle
        .wait_value(
            "delayed",
            "text",
            json!("from the test"),
            Duration::from_secs(5),
        )
        .expect("the fixture reported the label change");
    fixture.command("reorder_list", json!({})).unwrap();
    fixture
        .oracle
        .wait_value(
            "fruits",
            "order",
            json!(["Date", "Cherry", "Banana", "Apple"]),
            Duration::from_secs(5),
        )
        .expect("the fixture reordered its list");
}

#[test]
fn every_fixture_registers_and_reports_ready() {
    let desktop = VirtualDesktop::start().expect("desktop starts");
    for fixture in Fixture::ALL {
        let app = desktop
            .launch_fixture(fixture)
            .unwrap_or_else(|e| panic!("{} fixture: {e}", fixture.name()));
        let registration = app.app.registration().expect("registered");
        assert!(
            registration.name.contains(fixture.name()),
            "{} registered as {registration}",
            fixture.name()
        );
    }
}

/// Qt 5 registers only when the root window's AT_SPI_BUS property holds the bus address when
/// it starts (see `ensure_at_spi_bus_property`).
#[test]
fn the_root_window_names_the_accessibility_bus() {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt};

    let desktop = VirtualDesktop::start().expect("desktop starts");
    let (conn, screen) = x11rb::connect(Some(desktop.display())).unwrap();
    let root = conn.setup().roots[screen].root;
    let atom = conn
        .intern_atom(false, b"AT_SPI_BUS")
        .unwrap()
        .reply()
        .unwrap()
        .atom;
    let value = conn
        .get_property(false, root, atom, AtomEnum::STRING, 0, 4096)
        .unwrap()
        .reply()
        .unwrap()
        .value;
    assert_eq!(String::from_utf8_lossy(&value), desktop.a11y_bus_address());
}

/// Every fixture speaks the same control vocabulary (one dispatcher in fixturelib).
#[test]
fn every_fixture_obeys_the_shared_control_commands() {
    let desktop = VirtualDesktop::start().expect("desktop starts");
    for kind in Fixture::ALL {
        let mut fixture = desktop.launch_fixture(kind).unwrap();
        let wait = |fixture: &deskpilot_testkit::FixtureApp, widget: &str, prop: &str, value| {
            fixture
                .oracle
                .wait_value(widget, prop, value, Duration::from_secs(5))
                .unwrap_or_else(|e| panic!("{}: {e}", kind.name()))
        };
        fixture.command("reorder_list", json!({})).unwrap();
        wait(
            &fixture,
            "fruits",
            "order",
            json!(["Date", "Cherry", "Banana", "Apple"]),
        );
        fixture
            .command("set_text", json!({"widget": "name", "text": "Ada"}))
            .unwrap();
        wait(&fixture, "name", "text", json!("Ada"));
        fixture.command("open_dialog", json!({})).unwrap();
        wait(&fixture, "dialog", "open", json!(true));
        fixture.command("close_dialog", json!({})).unwrap();
        wait(&fixture, "dialog", "response", json!("cancel"));
        fixture.command("no_such_command", json!({})).unwrap();
        fixture.command("add_item", json!({})).unwrap();
        wait(&fixture, "dynamic", "count", json!(1));
    }
}
