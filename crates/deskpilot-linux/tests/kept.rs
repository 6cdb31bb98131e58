//! A GTK 3 or GTK 4 app's whole tree (and its description: windows, names, states) is kept
//! between reads: reused while it sends no event, patched where its events name something;
//! each change the app makes by itself (text, states, values, rows, cells, a scroll, a window
//! moved, which no event announces) is read as a second backend, which keeps nothing, reads
//! it.

use std::time::{Duration, Instant};

use deskpilot_core::model::{Role, Tree};
use deskpilot_core::{Backend, WalkLimits};
use deskpilot_linux::headless::wait;
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;

// Its helper for pages (`until_shows`) is kept_web.rs's.
#[allow(dead_code)]
#[path = "support/reads.rs"]
mod reads;
use reads::{assert_same, backends, read, seen, until_kept};

/// What an app's description says of its windows.
fn windows(app: &deskpilot_core::AppInfo) -> Vec<String> {
    app.windows
        .iter()
        .map(|w| format!("{:?} {:?} {:?} {:?}", w.role, w.title, w.states, w.bounds))
        .collect()
}

/// The changes both GTK fixtures make (GTK 4 cannot move its window: the test does).
fn shared_steps() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        ("set_label", json!({"text": "Kept"})),
        ("set_text", json!({"widget": "name", "text": "Ada"})),
        ("toggle_check", json!({})),
        ("set_spin", json!({"value": 42})),
        ("add_row", json!({"cells": ["Kiwi", "7", "Fruit"]})),
        ("select_tab", json!({"page": 1})),
        ("add_item", json!({})),
        ("remove_item", json!({})),
        ("reorder_list", json!({})),
        ("append_fruit", json!({"name": "Fig"})),
        ("scroll_to_end", json!({})),
        ("hide_counter", json!({})),
        ("open_dialog", json!({})),
        ("close_dialog", json!({})),
        ("move", json!({"x": 40, "y": 30})),
    ]
}

/// The shared changes, then a table's cell given new text and a tree's row expanded.
fn with_tree_view_steps() -> Vec<(&'static str, serde_json::Value)> {
    let mut steps = shared_steps();
    steps.extend([
        (
            "set_cell",
            json!({"row": 1, "column": 0, "text": "Changed cell"}),
        ),
        ("expand_row", json!({"path": "0"})),
    ]);
    steps
}

#[tokio::test]
async fn gtk3_a_kept_tree_is_reused_only_while_nothing_changed() {
    let steps = with_tree_view_steps();
    let patched = kept_reads_match_cold_ones(Fixture::Gtk3, steps).await;
    // Every change but a window moved is read as a patch of the kept tree, not a whole walk.
    assert_eq!(patched.len(), 16, "patched only after {patched:?}");
}

#[tokio::test]
async fn qt5_a_kept_tree_is_reused_only_while_nothing_changed() {
    a_qt_kept_tree_is_reused_only_while_nothing_changed(Fixture::Qt5).await;
}

#[tokio::test]
async fn qt6_a_kept_tree_is_reused_only_while_nothing_changed() {
    a_qt_kept_tree_is_reused_only_while_nothing_changed(Fixture::Qt6).await;
}

async fn a_qt_kept_tree_is_reused_only_while_nothing_changed(kind: Fixture) {
    // First its menu bar's first menu, whose items show with it unannounced.
    let mut steps = vec![("open_menu", json!({})), ("close_menu", json!({}))];
    steps.extend(with_tree_view_steps());
    let patched = kept_reads_match_cold_ones(kind, steps).await;
    // A tree its events named something in is patched while nothing it does not list shows
    // (`patch.rs`): all but a dialog opened and closed and the window moved.
    assert_eq!(patched.len(), 15, "patched only after {patched:?}");
}

/// Apps nobody tuned for: each change a person makes with keys (`type:` text, or a chord)
/// is read by the backend that keeps trees as by the one that keeps nothing, once two cold
/// reads in a row agree (the app settled). pyatspi, a second client, then sees `typed`.
async fn an_apps_kept_reads_match_cold_ones(
    program: &str,
    name: &str,
    steps: &[&str],
    typed: &str,
) {
    use deskpilot_core::InputDevice;
    let desktop = VirtualDesktop::start().unwrap();
    let _app = desktop.launch(desktop.command(program)).unwrap();
    let (warm, cold) = backends(&desktop).await;
    let root = reads::app_root(&warm, name).await;
    let input = deskpilot_x11::X11Input::connect(desktop.display()).unwrap();
    for step in steps {
        until_kept(&warm, &root).await;
        match step.strip_prefix("type:") {
            Some(text) => {
                input
                    .type_text(&deskpilot_core::InputText::plain(text))
                    .await
            }
            None => input.press(&step.parse().unwrap()).await,
        }
        .unwrap();
        reads::settled(&cold, &root, &format!("{name} after {step}")).await;
        let (warm_seen, cold_seen) = (read(&warm, &root).await, read(&cold, &root).await);
        assert_same(&warm_seen, &cold_seen, &format!("{name}, after {step}"));
    }
    assert!(
        desktop.pyatspi_shows(name, typed),
        "pyatspi does not see {typed:?}"
    );
}

#[tokio::test]
async fn featherpads_kept_reads_match_cold_ones() {
    let steps = [
        "type:kept text",
        "alt+f",
        "Escape",
        "ctrl+f",
        "type:find",
        "Escape",
        "ctrl+End",
        "type: and more",
    ];
    an_apps_kept_reads_match_cold_ones("featherpad", "FeatherPad", &steps, "kept text and more")
        .await;
}

#[tokio::test]
async fn mousepads_kept_reads_match_cold_ones() {
    let steps = [
        "type:kept text",
        "ctrl+f",
        "type:find",
        "Escape",
        "ctrl+End",
        "type: and more",
    ];
    an_apps_kept_reads_match_cold_ones("mousepad", "mousepad", &steps, "kept text and more").await;
}

/// Makes each of `steps` in the fixture and compares the next read of a backend that keeps
/// trees with a cold one; gives the steps read as patches.
async fn kept_reads_match_cold_ones(
    kind: Fixture,
    steps: Vec<(&'static str, serde_json::Value)>,
) -> Vec<&'static str> {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(kind).unwrap();
    let (warm, cold) = backends(&desktop).await;
    let root = warm
        .apps()
        .await
        .unwrap()
        .into_iter()
        .find(|a| a.windows.iter().any(|w| w.title == kind.window_title()))
        .unwrap()
        .id;
    let limits = WalkLimits::default;

    // A read answered from the kept tree asks the app only where its windows are (and a
    // ping that flushes its events); GTK 4's, where each scrolled area's content is.
    until_kept(&warm, &root).await;
    let (calls, reuses) = (warm.calls(), warm.kept_reuses());
    let kept = warm.snapshot(&root, &limits()).await.unwrap();
    assert_eq!(warm.kept_reuses(), reuses + 1);
    let count = |role: Role| kept.nodes.iter().filter(|tn| tn.node.role == role).count() as u64;
    let placed = kept.nodes.iter().filter(|tn| tn.depth == 1).count() as u64;
    let calls = warm.calls() - calls;
    match kind {
        // Its item views' items are listed and their names asked (a cell's new text sends
        // no event); each scrolled content is asked where it is; windows' and tab lists'
        // names, menu items' states and containers' children are asked (`rebuilds.rs`,
        // `scrolls.rs`, `unannounced.rs`): one call per view, item and element asked, one
        // per ten others.
        Fixture::Qt5 | Fixture::Qt6 => {
            let views = kept.nodes.iter().filter(|tn| tn.node.role.is_item_view());
            let views: Vec<_> = views.collect();
            let items: u64 = views.iter().map(|tn| tn.children.len() as u64).sum();
            let containers = kept.nodes.iter().filter(|tn| !tn.children.is_empty());
            let containers = containers.count() as u64 - views.len() as u64;
            let asked = [Role::MenuItem, Role::TabList]
                .map(count)
                .iter()
                .sum::<u64>()
                + placed
                + containers;
            let others = kept.len() as u64 - items;
            assert!(
                calls <= views.len() as u64 + items + asked + others / 10,
                "{calls} calls, {items} items, {asked} asked, of {} nodes",
                kept.len()
            );
        }
        // GTK 4's scroll panes are asked where their content is.
        _ => {
            let panes = (kind == Fixture::Gtk4).then(|| count(Role::ScrollPane));
            let panes = panes.unwrap_or(0);
            assert!(
                calls <= 1 + placed + panes,
                "{calls} calls, {placed} windows, {panes} panes"
            );
        }
    }
    assert_eq!(
        seen(&kept),
        seen(&cold.snapshot(&root, &limits()).await.unwrap())
    );

    let window_at = |tree: &Tree| tree.nodes.get(1).and_then(|tn| tn.node.bounds);
    let mut patched = Vec::new();
    for (cmd, args) in steps {
        until_kept(&warm, &root).await;
        let window_before = match cmd {
            "move" => window_at(&cold.snapshot(&root, &limits()).await.unwrap()),
            _ => None,
        };
        match (kind, cmd) {
            (Fixture::Gtk4, "move") => move_window(&desktop),
            _ => fixture.run(cmd, args).unwrap(),
        };
        if cmd == "move" {
            // The window manager moves it a little later.
            let deadline = Instant::now() + Duration::from_secs(5);
            while window_at(&cold.snapshot(&root, &limits()).await.unwrap()) == window_before {
                assert!(
                    Instant::now() < deadline,
                    "the window did not move from {window_before:?}"
                );
            }
        }
        // Let the app finish what the change set off (layout, more events).
        warm.events()
            .quiet(&root, Duration::from_millis(150), Duration::from_secs(5))
            .await;
        let patches = warm.kept_patches();
        let warm_read = warm.snapshot(&root, &limits()).await.unwrap();
        if warm.kept_patches() > patches {
            assert_ne!(cmd, "move", "a window moved: its bounds are read afresh");
            patched.push(cmd);
        }
        let cold_read = cold.snapshot(&root, &limits()).await.unwrap();
        // The app's description (its windows) is kept on the same terms.
        let (warm_app, cold_app) = (
            warm.app(&root).await.unwrap(),
            cold.app(&root).await.unwrap(),
        );
        assert_eq!(windows(&warm_app), windows(&cold_app), "after {cmd}");
        assert_same(
            &seen(&warm_read),
            &seen(&cold_read),
            &format!("after {cmd}"),
        );
    }
    patched
}

#[tokio::test]
async fn gtk4_a_kept_tree_is_reused_only_while_nothing_changed() {
    let patched = kept_reads_match_cold_ones(Fixture::Gtk4, shared_steps()).await;
    // Every change but a dialog opened (a new window, placed by a walk) and the window moved
    // (its bounds relative to itself stay: nothing to patch) is a patch.
    assert_eq!(patched.len(), 13, "patched only after {patched:?}");
}

/// Moves the GTK 4 fixture's window through the window manager, as a person dragging it
/// would (GTK 4 has no call that moves a window): where openbox first put it varies.
fn move_window(desktop: &VirtualDesktop) {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConfigureWindowAux, ConnectionExt};
    let (conn, screen) = x11rb::connect(Some(desktop.display())).unwrap();
    let root = conn.setup().roots[screen].root;
    let window = fixture_window(&conn, root).expect("the fixture's window is managed");
    let origin = || {
        let at = conn.translate_coordinates(window, root, 0, 0).unwrap();
        let at = at.reply().unwrap();
        (at.dst_x, at.dst_y)
    };
    let before = origin();
    // Openbox keeps a window a client moves on the screen: to the corner, or away from it.
    let away = |now: i16| if now > 20 { 0 } else { 40 };
    let place = ConfigureWindowAux::new()
        .x(away(before.0))
        .y(away(before.1));
    conn.configure_window(window, &place).unwrap();
    conn.flush().unwrap();
    // The window manager's part, judged apart from deskpilot's reads: the X server moved it.
    let moved = wait::until(Duration::from_secs(5), || {
        (origin() != before).then_some(())
    });
    if moved.is_none() {
        panic!("{}", not_moved(desktop, &conn, root, window, before));
    }
}

/// The GTK 4 fixture's top-level X window, found by its title in the manager's client list.
fn fixture_window(conn: &impl x11rb::connection::Connection, root: u32) -> Option<u32> {
    use x11rb::protocol::xproto::{AtomEnum, ConnectionExt};
    let atom = |name: &[u8]| conn.intern_atom(false, name).unwrap().reply().unwrap().atom;
    let (clients, name) = (atom(b"_NET_CLIENT_LIST"), atom(b"_NET_WM_NAME"));
    let utf8 = atom(b"UTF8_STRING");
    let listed = conn.get_property(false, root, clients, AtomEnum::WINDOW, 0, 1024);
    let listed = listed.unwrap().reply().unwrap();
    listed.value32()?.find(|&w| {
        let title = conn.get_property(false, w, name, utf8, 0, 256);
        title.unwrap().reply().unwrap().value == Fixture::Gtk4.window_title().as_bytes()
    })
}

/// What the X server and openbox show when a move was not made: whether openbox still runs
/// and whether an event of its own wakes it (openbox 3.6 can leave events in a queue of its
/// own, see `desktop.rs`), then its log.
fn not_moved(
    desktop: &VirtualDesktop,
    conn: &impl x11rb::connection::Connection,
    root: u32,
    window: u32,
    before: (i16, i16),
) -> String {
    use x11rb::protocol::xproto::{ConnectionExt, PropMode};
    let openbox = desktop.processes().into_iter().any(|pid| {
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm"));
        comm.is_ok_and(|c| c.trim_end() == "openbox")
    });
    // Openbox watches the root window's properties: its loop wakes for the event.
    let wake = conn.intern_atom(false, b"DESKPILOT_TEST_WAKE").unwrap();
    let wake = wake.reply().unwrap().atom;
    let utf8 = conn.intern_atom(false, b"UTF8_STRING").unwrap();
    let utf8 = utf8.reply().unwrap().atom;
    conn.change_property(PropMode::APPEND, root, wake, utf8, 8, 0, &[])
        .unwrap();
    conn.flush().unwrap();
    let origin = || {
        let at = conn.translate_coordinates(window, root, 0, 0).unwrap();
        let at = at.reply().unwrap();
        (at.dst_x, at.dst_y)
    };
    let after = wait::until(Duration::from_secs(2), || {
        Some(origin()).filter(|&o| o != before)
    });
    let logs = std::fs::read_dir(desktop.dir())
        .into_iter()
        .flatten()
        .flatten();
    let log = logs
        .filter(|e| e.file_name().to_string_lossy().starts_with("openbox"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect::<String>();
    format!(
        "openbox did not move window {window:#x} from {before:?} within 5 s; \
         openbox runs: {openbox}; still listed: {}; moved once an event \
         woke it: {after:?}; openbox's log:\n{log}",
        fixture_window(conn, root) == Some(window)
    )
}
