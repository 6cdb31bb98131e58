//! deskpilot's input on headless GNOME Shell, as the shell itself sees it: a deskpilot killed
//! in the middle of a drag leaves no button down (mutter ends the remote desktop session of a
//! client that vanished, and releases what the session held).

use std::time::{Duration, Instant};

use deskpilot_testkit::{Fixture, VirtualDesktop};

/// Clutter's mask of the first button.
const BUTTON1: u64 = 0x100;

fn within(timeout: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

#[test]
fn a_deskpilot_killed_mid_drag_leaves_no_button_down() {
    let desktop = VirtualDesktop::start_gnome().unwrap();
    let _fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    assert_eq!(desktop.gnome_buttons_down(), Some(0));
    let mut drag = desktop
        .command(env!("CARGO_BIN_EXE_deskpilot"))
        .args(["--display", "", "drag"])
        .args([Fixture::Gtk3.window_title(), "500,150", "900,150"])
        .spawn()
        .unwrap();
    // The drag holds the button for over half a second (`drag_path.rs`).
    let held = within(Duration::from_secs(10), || {
        desktop.gnome_buttons_down() == Some(BUTTON1)
    });
    drag.kill().unwrap();
    let _ = drag.wait();
    assert!(held, "the shell never saw the drag's button down");
    let released = within(Duration::from_secs(5), || {
        desktop.gnome_buttons_down() == Some(0)
    });
    assert!(
        released,
        "button still down: {:?}",
        desktop.gnome_buttons_down()
    );
}
