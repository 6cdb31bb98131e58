//! The headless desktop's window manager handles a window the moment the desktop is up.
//!
//! Openbox 3.6 moves the X events waiting at the end of its start into a queue of its own
//! (`window_manage` -> `xqueue_exists_local`), and its main loop asks only Xlib whether
//! events wait (`obt/xqueue.c`, `x_source_prepare`): a window mapped while it starts stays
//! unmapped until some later event wakes it. Seen in the kube test: Mousepad's window was
//! never on screen, so its menus could not grab and never opened.

use std::time::Duration;

use deskpilot_linux::headless::{HeadlessDesktop, wait};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, CreateWindowAux, MapState, WindowClass};

/// Desktops started: the window lands in openbox's start in most of them without the fix.
const DESKTOPS: usize = 6;

#[test]
fn a_window_mapped_as_the_desktop_comes_up_is_shown() {
    for n in 0..DESKTOPS {
        let desktop = HeadlessDesktop::start().expect("the desktop starts");
        let (conn, screen) = x11rb::connect(Some(desktop.display())).unwrap();
        let root = conn.setup().roots[screen].root;
        let window = conn.generate_id().unwrap();
        let aux = CreateWindowAux::new();
        conn.create_window(
            0,
            window,
            root,
            0,
            0,
            200,
            100,
            0,
            WindowClass::INPUT_OUTPUT,
            0,
            &aux,
        )
        .unwrap();
        conn.map_window(window).unwrap();
        conn.flush().unwrap();
        let shown = wait::until(Duration::from_secs(10), || {
            let attributes = conn.get_window_attributes(window).ok()?.reply().ok()?;
            (attributes.map_state == MapState::VIEWABLE).then_some(())
        });
        assert!(shown.is_some(), "desktop {n}: the window was never shown");
    }
}
