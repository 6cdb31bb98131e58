//! A browser started without accessibility shows its own window controls but no page:
//! list_apps flags it blind with the switch that fixes it; started with the switch, it is not
//! blind.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use deskpilot_desktop::{McpClient, VirtualDesktop};
use serde_json::{Value, json};

fn chromium_entry(server: &mut McpClient, pid: u32) -> Value {
    // Chromium registers its browser process; wait until list_apps shows it with a window.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let apps = server.call("list_apps", json!({}));
        let found = apps["structuredContent"]["apps"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|a| {
                a["name"]
                    .as_str()
                    .is_some_and(|n| n.to_lowercase().contains("chrom"))
                    && a["windows"].as_array().is_some_and(|w| !w.is_empty())
                    && a["pid"].as_u64().is_some_and(|p| p as u32 == pid)
            })
            .cloned();
        if let Some(app) = found {
            return app;
        }
        assert!(
            Instant::now() < deadline,
            "Chromium did not show a window: {apps}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn chromium_without_accessibility_is_flagged_blind_with_the_fix() {
    let desktop = VirtualDesktop::start().unwrap();
    let page = desktop.dir().join("page.html");
    std::fs::write(
        &page,
        "<html><body><h1>Form</h1><button>Send</button><input type=checkbox> Agree</body></html>",
    )
    .unwrap();
    let url = format!("file://{}", page.display());
    let blind = desktop.launch_chromium(&url, false).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_deskpilot"));
    cmd.args([
        "mcp",
        "--bus",
        desktop.session_bus_address(),
        "--display",
        desktop.display(),
    ])
    .stderr(Stdio::null());
    let mut server = McpClient::spawn(cmd).unwrap();
    server.initialize();

    let app = chromium_entry(&mut server, blind.pid());
    assert_eq!(app["blind"], true, "{app}");
    assert!(
        app["hint"]
            .as_str()
            .is_some_and(|h| h.contains("--force-renderer-accessibility")),
        "{app}"
    );
    drop(blind);

    let seeing = desktop.launch_chromium(&url, true).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let app = chromium_entry(&mut server, seeing.pid());
        if app["blind"] == false {
            break;
        }
        // The page's tree arrives a moment after the window.
        assert!(
            Instant::now() < deadline,
            "still blind with the switch: {app}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    server.close(Duration::from_secs(5));
}
