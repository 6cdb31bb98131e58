//! The private desktop on headless GNOME Shell (issue 52's ground): the shell comes up on the
//! desktop's bus, a GTK 3 app native on its Wayland registers on the accessibility bus, and
//! the shell's own window list (its introspection interface, not deskpilot) shows its window.
//! Not yet asserted: focus. The fixture's window stayed unfocused for 10 s (a small probe
//! window was focused at once); activation is issue 52's to do.

use std::process::Command;
use std::time::Duration;

use deskpilot_linux::headless::wait;
use deskpilot_testkit::{Fixture, VirtualDesktop};

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
    let listed = wait::until(Duration::from_secs(10), || {
        let windows = shell_windows(&desktop);
        windows.contains(title).then_some(windows)
    });
    let windows = listed.unwrap_or_else(|| shell_windows(&desktop));
    assert!(windows.contains(title), "{windows}");
    assert!(windows.contains("'is-hidden': <false>"), "{windows}");
}
