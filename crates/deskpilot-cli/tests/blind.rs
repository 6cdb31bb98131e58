//! Debian's Chromium, with and without `--force-renderer-accessibility`: deskpilot sees its
//! page (not blind) and its reads leave the browser running; started with no accessibility at
//! all it is still listed (blind, with the fix). (Blindness itself is judged on
//! fake web runtimes in deskpilot-mcp's tests: this Chromium turns its page accessibility on for
//! any AT-SPI client, even with `--disable-renderer-accessibility`.)

use std::time::{Duration, Instant};

use deskpilot_testkit::{ChromiumPages, McpClient, VirtualDesktop};
use serde_json::{Value, json};

fn chromium_entry(server: &mut McpClient, desktop: &VirtualDesktop, pid: u32) -> Value {
    // Wait for Chromium's window on the display: blindness is judged on an app with windows.
    let windows = deskpilot_x11::X11Windows::connect(desktop.display()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !windows
        .client_windows()
        .unwrap_or_default()
        .iter()
        .any(|w| {
            w.title.contains("Chromium")
                && w.pid
                    .is_some_and(|p| deskpilot_testkit::procs::descends_from(p, pid))
        })
    {
        assert!(Instant::now() < deadline, "Chromium showed no window");
        std::thread::sleep(Duration::from_millis(100));
    }
    let apps = server.call("list_apps", json!({}));
    apps["structuredContent"]["apps"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| {
            a["pid"]
                .as_u64()
                .is_some_and(|p| deskpilot_testkit::procs::descends_from(p as u32, pid))
        })
        .cloned()
        .unwrap_or_else(|| panic!("Chromium (pid {pid}) is not in list_apps: {apps}"))
}

fn page_and_server(desktop: &VirtualDesktop) -> (String, McpClient) {
    let page = desktop.dir().join("page.html");
    std::fs::write(
        &page,
        "<html><body><h1>Form</h1><button>Send</button><input type=checkbox> Agree</body></html>",
    )
    .unwrap();
    let cmd = McpClient::deskpilot_command(desktop, env!("CARGO_BIN_EXE_deskpilot"), &[]);
    let mut server = McpClient::spawn(cmd).unwrap();
    server.initialize();
    (format!("file://{}", page.display()), server)
}

/// Chromium started with no accessibility variable in its environment never registers on
/// AT-SPI: list_apps still names it, from its window on the display, as blind, with how to
/// switch its accessibility on.
#[test]
fn chromium_off_the_bus_is_listed_blind_with_the_fix() {
    let desktop = VirtualDesktop::start().unwrap();
    let (url, mut server) = page_and_server(&desktop);
    let browser = desktop
        .launch_chromium(&url, ChromiumPages::OffTheBus)
        .unwrap();
    let app = chromium_entry(&mut server, &desktop, browser.pid());
    assert_eq!(app["blind"], true, "{app}");
    assert!(
        app["hint"]
            .as_str()
            .is_some_and(|h| h.contains("GNOME_ACCESSIBILITY=1")),
        "{app}"
    );
    assert!(app.get("toolkit").is_none(), "{app}");
    assert!(app["windows"][0]["window_id"].is_u64(), "{app}");
    assert_eq!(
        app["windows"][0]["window_id"],
        app["windows"][0]["x11_window"]
    );
    server.close(Duration::from_secs(5));
}

/// Chromium 156 started without any switch turns page accessibility on when deskpilot reads
/// it: not blind, its page is read, and reading it leaves it running.
#[test]
fn chromium_without_the_switch_shows_its_page_to_deskpilot() {
    sees_the_page_and_survives(ChromiumPages::Default);
}

/// Chromium is not blind, and reading its whole tree leaves it running. (A `Properties.GetAll` on the Value interface of Chromium's sliders made ATK's
/// bridge write a broken reply, and libdbus aborted the browser: deskpilot asks for values one
/// property at a time.)
#[test]
fn chromium_with_the_switch_shows_its_page_to_deskpilot() {
    sees_the_page_and_survives(ChromiumPages::Forced);
}

fn sees_the_page_and_survives(pages: ChromiumPages) {
    let desktop = VirtualDesktop::start().unwrap();
    let (url, mut server) = page_and_server(&desktop);
    let mut seeing = desktop.launch_chromium(&url, pages).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let app = chromium_entry(&mut server, &desktop, seeing.pid());
        if app["blind"] == false {
            break;
        }
        // The page's tree arrives a moment after the window.
        assert!(Instant::now() < deadline, "still blind ({pages:?}): {app}");
        std::thread::sleep(Duration::from_millis(250));
    }
    let connected = server.call("connect", json!({"window": "page.html"}));
    let session = connected["structuredContent"]["session"]
        .as_str()
        .unwrap_or_else(|| panic!("connect failed: {connected}"))
        .to_owned();
    for _ in 0..2 {
        let snapshot = server.call("snapshot", json!({"session": session, "filter": "all"}));
        assert_eq!(snapshot["isError"], false, "{snapshot}");
        let tree = snapshot["structuredContent"]["tree"].as_str().unwrap();
        assert!(tree.contains("button \"Send\""), "{tree}");
        assert!(
            tree.contains("slider"),
            "the browser's sliders were read: {tree}"
        );
    }
    assert!(seeing.is_running(), "Chromium died while deskpilot read it");
    let app = chromium_entry(&mut server, &desktop, seeing.pid());
    assert_eq!(app["blind"], false, "{app}");
    server.close(Duration::from_secs(5));
}
