//! The `--allow-input` gate and the input tools over stdio, judged by the fixture's oracle.

use std::process::{Command, Stdio};
use std::time::Duration;

use deskpilot_testkit::{Fixture, McpClient, VirtualDesktop};
use serde_json::{Value, json};

const INPUT_TOOLS: &[&str] = &[
    "click",
    "set_value",
    "type_text",
    "press_key",
    "act",
    "drag",
    "window_action",
    "launch_app",
];

fn start(desktop: &VirtualDesktop, allow_input: bool, log: &std::path::Path) -> McpClient {
    let flags: &[&str] = if allow_input { &["--allow-input"] } else { &[] };
    let mut cmd = McpClient::deskpilot_command(desktop, env!("CARGO_BIN_EXE_deskpilot"), flags);
    cmd.env("DESKPILOT_LOG", "trace")
        .stderr(Stdio::from(std::fs::File::create(log).unwrap()));
    let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
    server.initialize();
    server
}

fn session(server: &mut McpClient) -> String {
    let connected = server.call("connect", json!({"window": Fixture::Gtk3.window_title()}));
    connected["structuredContent"]["session"]
        .as_str()
        .unwrap_or_else(|| panic!("connect failed: {connected}"))
        .to_owned()
}

fn tool_names(list: &Value) -> Vec<String> {
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn without_allow_input_nothing_can_change_the_app() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let log = desktop.dir().join("mcp-readonly.log");
    let mut server = start(&desktop, false, &log);
    let names = tool_names(&server.request("tools/list", json!({})));
    for tool in INPUT_TOOLS {
        assert!(!names.iter().any(|n| n == tool), "{tool} listed: {names:?}");
    }
    let s = session(&mut server);
    for (tool, args) in [
        (
            "click",
            json!({"session": s, "target": "checkbox[name*=notif]"}),
        ),
        (
            "act",
            json!({"session": s, "target": "checkbox[name*=notif]", "verb": "check"}),
        ),
        ("type_text", json!({"session": s, "text": "x"})),
        (
            "set_value",
            json!({"session": s, "target": "textbox[name=Name]", "value": "x"}),
        ),
        ("press_key", json!({"session": s, "key": "Enter"})),
    ] {
        let result = server.call(tool, args);
        assert_eq!(result["isError"], true, "{tool}: {result}");
        assert_eq!(
            result["structuredContent"]["code"], "input_not_allowed",
            "{tool}: {result}"
        );
    }
    // Screenshots are always there; writing one to a file needs --allow-input.
    assert!(names.iter().any(|n| n == "screenshot"), "{names:?}");
    server.call("snapshot", json!({"session": s}));
    let shot = server.call("screenshot", json!({"session": s, "max_size": 640}));
    assert_eq!(shot["isError"], false, "{shot}");
    let image = shot["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "image")
        .expect("an image block");
    assert_eq!(image["mimeType"], "image/png");
    let png = base64_decode(image["data"].as_str().unwrap());
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(shot["structuredContent"]["width"].as_u64().unwrap() <= 640);
    assert!(
        shot["structuredContent"]["labels"].as_u64().unwrap() > 10,
        "{shot}"
    );
    let path = desktop.dir().join("shot.png");
    let refused = server.call(
        "screenshot",
        json!({"session": s, "path": path.to_str().unwrap()}),
    );
    assert_eq!(refused["structuredContent"]["code"], "input_not_allowed");
    assert!(!path.exists());

    let events = fixture.oracle.events().unwrap();
    assert!(
        events
            .iter()
            .all(|e| !e.is("check", "checked") && !e.is("name", "text")),
        "the app changed: {events:?}"
    );
    server.close(Duration::from_secs(5));
}

#[test]
fn with_allow_input_the_tools_act_and_report() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let log = desktop.dir().join("mcp-input.log");
    let mut server = start(&desktop, true, &log);
    let list = server.request("tools/list", json!({}));
    let names = tool_names(&list);
    let catalog = serde_json::to_string(&list["result"]).unwrap().len();
    println!(
        "tools/list with --allow-input: {} tools, {catalog} bytes",
        names.len()
    );
    // The budget with every capability: `the_catalog_stays_within_27_kib` (deskpilot-mcp).
    assert!(catalog <= 27 * 1024, "catalog is {catalog} bytes");
    for tool in list["result"]["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        // A pipeline acts when its steps do; a reload changes the packs every client sees.
        let changes = INPUT_TOOLS.contains(&name)
            || ["run_steps", "continue_run", "run_workflow", "reload_packs"].contains(&name);
        // MCP's default when the hint is absent: not read-only.
        let read_only = tool["annotations"]["readOnlyHint"]
            .as_bool()
            .unwrap_or(false);
        assert_eq!(read_only, !changes, "{name}");
        assert_eq!(tool["outputSchema"]["type"], "object", "{name}");
    }
    for tool in INPUT_TOOLS {
        assert!(names.iter().any(|n| n == tool), "{tool} not listed");
    }
    let s = session(&mut server);

    let checked = server.call(
        "act",
        json!({"session": s, "target": "checkbox[name*=notif]", "verb": "check"}),
    );
    assert_eq!(checked["isError"], false, "{checked}");
    assert_eq!(checked["structuredContent"]["effect"], "confirmed");
    fixture
        .oracle
        .wait_value("check", "checked", json!(true), Duration::from_secs(5))
        .unwrap();
    let again = server.call(
        "act",
        json!({"session": s, "target": "checkbox[name*=notif]", "verb": "check"}),
    );
    assert_eq!(again["structuredContent"]["route"], Value::Null, "{again}");

    let secret = "hunter2-секрет";
    let typed = server.call(
        "type_text",
        json!({"session": s, "target": "password", "text": secret}),
    );
    assert_eq!(typed["isError"], false, "{typed}");
    assert_eq!(typed["structuredContent"]["effect"], "confirmed", "{typed}");
    fixture
        .oracle
        .wait_value(
            "password",
            "length",
            json!(secret.chars().count()),
            Duration::from_secs(5),
        )
        .unwrap();
    assert!(!typed.to_string().contains("hunter2"), "{typed}");

    let bad_key = server.call("press_key", json!({"session": s, "key": "ctrl+Nope"}));
    assert_eq!(bad_key["structuredContent"]["code"], "invalid_arguments");
    let bad_verb = server.call(
        "act",
        json!({"session": s, "target": "checkbox[name*=notif]", "verb": "squash"}),
    );
    assert_eq!(bad_verb["structuredContent"]["code"], "invalid_arguments");

    let clamped = server.call(
        "set_value",
        json!({"session": s, "target": "spinbutton[name=Quantity]", "value": 500}),
    );
    assert_eq!(
        clamped["structuredContent"]["code"], "value_clamped",
        "{clamped}"
    );
    assert!(
        clamped["structuredContent"]["message"]
            .as_str()
            .unwrap()
            .contains("kept 100"),
        "{clamped}"
    );
    // A drag is real pointer input: across the volume slider, to a point right of it.
    let props = server.call(
        "get_properties",
        json!({"session": s, "target": "slider[name=Volume]"}),
    );
    let b = &props["structuredContent"]["bounds"];
    let (x, y, w, h) = (
        b["x"].as_i64().unwrap(),
        b["y"].as_i64().unwrap(),
        b["width"].as_i64().unwrap(),
        b["height"].as_i64().unwrap(),
    );
    let dragged = server.call(
        "drag",
        json!({"session": s, "from": {"x": x + 4, "y": y + h / 2}, "to": {"x": x + w + 40, "y": y + h / 2}}),
    );
    assert_eq!(dragged["isError"], false, "{dragged}");
    assert_eq!(dragged["structuredContent"]["route"], "pointer");
    fixture
        .oracle
        .wait_for(Duration::from_secs(5), |e| {
            e.is("volume", "value") && e.value.as_f64().is_some_and(|v| v >= 90.0)
        })
        .unwrap();

    let path = desktop.dir().join("shot.png");
    let written = server.call(
        "screenshot",
        json!({"session": s, "path": path.to_str().unwrap(), "plain": true}),
    );
    assert_eq!(written["isError"], false, "{written}");
    assert_eq!(&std::fs::read(&path).unwrap()[..4], b"\x89PNG");

    server.close(Duration::from_secs(5));
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(!logged.contains("hunter2"), "the password reached the log");
}

/// Standard base64 (the image blocks), decoded without another dependency.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &c)| acc | (value(c) << (18 - 6 * i)));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

#[test]
fn windows_and_programs_through_the_window_manager() {
    let desktop = VirtualDesktop::start().unwrap();
    // The server runs with the desktop's environment, so what it launches is torn down with
    // the desktop.
    let cmd = McpClient::deskpilot_command(
        &desktop,
        env!("CARGO_BIN_EXE_deskpilot"),
        &["--allow-input"],
    );
    let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
    server.initialize();

    let oracle_path = desktop.dir().join("launched-oracle.jsonl");
    let script = deskpilot_testkit::Fixture::Gtk3.script();
    let launched = server.call(
        "launch_app",
        json!({"argv": ["/usr/bin/python3", script.to_str().unwrap(), "--oracle", oracle_path.to_str().unwrap()]}),
    );
    assert_eq!(launched["isError"], false, "{launched}");
    let windows = &launched["structuredContent"]["windows"];
    assert_eq!(windows[0], Fixture::Gtk3.window_title(), "{launched}");
    let oracle = deskpilot_testkit::Oracle::new(&oracle_path);
    oracle
        .wait_value("app", "ready", json!(true), Duration::from_secs(10))
        .unwrap();

    let s = session(&mut server);
    for (action, prop, value) in [
        ("maximize", "maximized", true),
        ("restore", "maximized", false),
        ("minimize", "minimized", true),
        ("restore", "minimized", false),
    ] {
        let seen = oracle.events().unwrap().len();
        let done = server.call("window_action", json!({"session": s, "action": action}));
        assert_eq!(done["isError"], false, "{action}: {done}");
        assert_eq!(done["structuredContent"]["effect"], "confirmed", "{done}");
        let wait = std::time::Instant::now() + Duration::from_secs(5);
        while !oracle.events().unwrap()[seen..]
            .iter()
            .any(|e| e.is("window", prop) && e.value == json!(value))
        {
            assert!(
                std::time::Instant::now() < wait,
                "{action}: the fixture saw no window {prop}={value}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    // Wheel input over the scrolled area is sent as real pointer input and not claimed.
    let scrolled = server.call(
        "act",
        json!({"session": s, "target": "button[name=\"Row item 1\"]", "verb": "scroll", "direction": "down", "amount": 5}),
    );
    assert_eq!(scrolled["isError"], false, "{scrolled}");
    assert_eq!(scrolled["structuredContent"]["route"], "pointer");

    let closed = server.call("window_action", json!({"session": s, "action": "close"}));
    assert_eq!(
        closed["structuredContent"]["effect"], "confirmed",
        "{closed}"
    );
    let spawned = launched["structuredContent"]["spawned_pid"]
        .as_u64()
        .unwrap();
    let wait = std::time::Instant::now() + Duration::from_secs(10);
    while std::path::Path::new(&format!("/proc/{spawned}")).exists()
        && !std::fs::read_to_string(format!("/proc/{spawned}/stat"))
            .unwrap_or_default()
            .contains(") Z")
    {
        assert!(
            std::time::Instant::now() < wait,
            "closing the window did not end the app"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // LibreOffice's `soffice` is a launcher: the process that registers is its child.
    let profile = format!(
        "-env:UserInstallation=file://{}/lo-launch",
        desktop.dir().display()
    );
    let writer = server.call(
        "launch_app",
        json!({"argv": ["soffice", "--writer", "--norestore", "--nologo", profile], "timeout_ms": 90000}),
    );
    assert_eq!(writer["isError"], false, "{writer}");
    let spawned = writer["structuredContent"]["spawned_pid"].as_u64().unwrap();
    let registered = writer["structuredContent"]["pid"].as_u64().unwrap();
    assert_ne!(
        spawned, registered,
        "soffice.bin is a child of soffice: {writer}"
    );
    assert!(
        writer["structuredContent"]["windows"][0]
            .as_str()
            .is_some_and(|t| t.contains("LibreOffice")),
        "{writer}"
    );

    let bad = server.call("launch_app", json!({"argv": ["/nonexistent/program"]}));
    assert_eq!(bad["structuredContent"]["code"], "not_found", "{bad}");
    server.close(Duration::from_secs(5));
}

#[test]
fn without_a_display_input_and_screenshots_refuse_clearly() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    // Like a Wayland session: an accessibility bus, no X11 display. The desktop's own X
    // server must not be guessed from its socket (the only one when this test runs alone).
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_deskpilot"));
    cmd.args([
        "mcp",
        "--allow-input",
        "--bus",
        desktop.session_bus_address(),
        "--display",
        "",
    ])
    .env_remove("DISPLAY")
    .stderr(Stdio::null());
    let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
    server.initialize();
    let s = session(&mut server);
    let shot = server.call("screenshot", json!({"session": s}));
    assert_eq!(
        shot["structuredContent"]["code"], "input_unavailable",
        "{shot}"
    );
    let pressed = server.call(
        "press_key",
        json!({"session": s, "target": "textbox[name=Name]", "key": "BackSpace"}),
    );
    assert_eq!(
        pressed["structuredContent"]["code"], "input_unavailable",
        "{pressed}"
    );
    // Typing falls back to the field's EditableText when no key can be sent (whole
    // characters: ATK counts the inserted length in bytes).
    let typed = server.call(
        "type_text",
        json!({"session": s, "target": "textbox[name=Name]", "text": "xý ✓"}),
    );
    assert_eq!(typed["structuredContent"]["route"], "semantic", "{typed}");
    fixture
        .oracle
        .wait_value("name", "text", json!("xý ✓"), Duration::from_secs(5))
        .unwrap();
    // The app's own semantics need no display.
    let checked = server.call(
        "act",
        json!({"session": s, "target": "checkbox[name*=notif]", "verb": "check"}),
    );
    assert_eq!(
        checked["structuredContent"]["effect"], "confirmed",
        "{checked}"
    );
    fixture
        .oracle
        .wait_value("check", "checked", json!(true), Duration::from_secs(5))
        .unwrap();
    server.close(Duration::from_secs(5));
}
