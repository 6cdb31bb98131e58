//! Each tool is listed and callable exactly under its capability: read-only tools always,
//! the input tools with `input`, `launch_app` with `launch`, a screenshot's `path` with
//! `files` and only under the files directory. Judged by the tools/list a host sees and by
//! calling every tool on the fake backend.

use std::collections::BTreeSet;
use std::sync::Arc;

use deskpilot_mcp::{DeskpilotServer, Grants};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

mod support;
use support::call;

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" bounds=0,0,800,600
    button "OK" id=ok actions=click bounds=10,10,80,30
"#;

const READ: &[&str] = &[
    "connect",
    "continue_run",
    "disconnect",
    "find",
    "get_focus",
    "get_properties",
    "hit_test",
    "list_apps",
    "packs",
    "probe_app",
    "read_table",
    "read_text",
    "run_steps",
    "run_workflow",
    "screenshot",
    "snapshot",
    "validate_pack",
    "validate_steps",
    "wait_for",
];
const INPUT: &[&str] = &[
    "act",
    "click",
    "drag",
    "press_key",
    "set_value",
    "type_text",
    "window_action",
];
const LAUNCH: &[&str] = &["launch_app"];
const FILES: &[&str] = &["reload_packs"];

/// A call of each tool that gets past argument checks.
fn call_of(tool: &str) -> Value {
    let s = "s1";
    match tool {
        "list_apps" => json!({}),
        "connect" => json!({"app": "Editor"}),
        "disconnect" | "get_focus" | "snapshot" => json!({"session": s}),
        "find" => json!({"session": s, "selector": "button"}),
        "get_properties" | "read_text" | "read_table" => json!({"session": s, "target": "button"}),
        "hit_test" => json!({"session": s, "x": 20, "y": 20}),
        "wait_for" => json!({"session": s, "selector": "button", "timeout_ms": 10}),
        "screenshot" => json!({"session": s}),
        "click" => json!({"session": s, "target": "button"}),
        "set_value" => json!({"session": s, "target": "button", "value": "x"}),
        "type_text" => json!({"session": s, "text": "x"}),
        "press_key" => json!({"session": s, "key": "Escape"}),
        "act" => json!({"session": s, "target": "button", "verb": "focus"}),
        "drag" => json!({"session": s, "from": {"x": 1, "y": 1}, "to": {"x": 2, "y": 2}}),
        "window_action" => json!({"session": s, "action": "activate"}),
        "launch_app" => json!({"argv": ["/nonexistent/program"], "timeout_ms": 10}),
        "run_steps" | "validate_steps" => {
            json!({"steps": [{"id": "look", "tool": "find", "args": {"session": s, "selector": "button"}}]})
        }
        "continue_run" => json!({"run_id": "run1", "from": "look"}),
        "packs" | "reload_packs" => json!({}),
        "validate_pack" => json!({"pack": "none"}),
        "probe_app" => json!({"session": s}),
        "run_workflow" => json!({"pack": "none", "workflow": "w"}),
        other => panic!("no call for {other}"),
    }
}

async fn server_with(grants: Grants) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let (_, _, engine) = support::fake_desktop(APP);
    support::client_for(DeskpilotServer::with_grants(Arc::new(engine), grants)).await
}

fn code(result: &CallToolResult) -> Option<String> {
    let content = result.structured_content.as_ref()?;
    content["code"].as_str().map(str::to_owned)
}

/// tools/list's `tools` array, as compact JSON, with every capability: at most 27 KiB (a
/// host reads it whole, and tokens cost; 32,548 bytes before issue 40, 23,576 after). The
/// app pack tools take at most 2 KiB of it (issue 45), run_workflow 1 KiB (issue 46).
#[tokio::test]
async fn the_catalog_stays_within_27_kib() {
    let dir = std::env::temp_dir();
    let all = Grants::parse(&["all".to_owned()], Some(&dir)).unwrap();
    let client = server_with(all).await;
    let tools = client.list_all_tools().await.unwrap();
    let bytes = serde_json::to_string(&tools).unwrap().len();
    println!(
        "tools/list with every capability: {} tools, {bytes} bytes",
        tools.len()
    );
    assert!(bytes <= 27 * 1024, "the catalog is {bytes} bytes");
    let packs: usize = tools
        .iter()
        .filter(|t| ["packs", "validate_pack", "reload_packs", "probe_app"].contains(&&*t.name))
        .map(|t| serde_json::to_string(t).unwrap().len())
        .sum();
    assert!(packs <= 2 * 1024, "the app pack tools are {packs} bytes");
    let workflow = tools.iter().find(|t| t.name == "run_workflow").unwrap();
    let workflow = serde_json::to_string(workflow).unwrap().len();
    assert!(workflow <= 1024, "run_workflow is {workflow} bytes");
    client.cancel().await.unwrap();
}

/// Every property of every tool's schemas is itself an object schema, never `true`: MCP's
/// schema (2025-11-25) says so, and the conformance suite refused `packs` for it.
#[tokio::test]
async fn every_schema_property_is_an_object() {
    let dir = std::env::temp_dir();
    let all = Grants::parse(&["all".to_owned()], Some(&dir)).unwrap();
    let client = server_with(all).await;
    for tool in client.list_all_tools().await.unwrap() {
        let schemas = [
            Some(tool.input_schema.as_ref().clone()),
            tool.output_schema.as_deref().cloned(),
        ];
        for schema in schemas.into_iter().flatten() {
            let properties = schema.get("properties").and_then(Value::as_object);
            for (name, property) in properties.into_iter().flatten() {
                assert!(property.is_object(), "{}: {name} is {property}", tool.name);
            }
        }
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn each_tool_is_listed_and_callable_exactly_under_its_capability() {
    let dir = std::env::temp_dir();
    let words = |w: &str| vec![w.to_owned()];
    let cases: Vec<(&str, Grants, Vec<&[&str]>)> = vec![
        ("read-only", Grants::read_only(), vec![READ]),
        (
            "input",
            Grants::parse(&words("input"), None).unwrap(),
            vec![READ, INPUT],
        ),
        (
            "launch",
            Grants::parse(&words("launch"), None).unwrap(),
            vec![READ, LAUNCH],
        ),
        (
            "files",
            Grants::parse(&words("files"), Some(&dir)).unwrap(),
            vec![READ, FILES],
        ),
        (
            "all",
            Grants::parse(&words("all"), Some(&dir)).unwrap(),
            vec![READ, INPUT, LAUNCH, FILES],
        ),
        (
            "--allow-input",
            Grants::legacy_allow_input(),
            vec![READ, INPUT, LAUNCH, FILES],
        ),
    ];
    let every: BTreeSet<&str> = [READ, INPUT, LAUNCH, FILES].concat().into_iter().collect();
    for (name, grants, groups) in cases {
        let client = server_with(grants).await;
        let listed: BTreeSet<String> = client
            .list_all_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name.to_string())
            .collect();
        let expected: BTreeSet<String> = groups.concat().into_iter().map(str::to_owned).collect();
        assert_eq!(listed, expected, "{name}: tools/list");
        let connected = call(&client, "connect", call_of("connect")).await;
        assert_eq!(code(&connected), None, "{name}: {connected:?}");
        for tool in &every {
            let result = call(&client, tool, call_of(tool)).await;
            let refused = code(&result).as_deref() == Some("input_not_allowed");
            assert_eq!(
                refused,
                !expected.contains(*tool),
                "{name}: {tool} refused={refused}: {:?}",
                result.content
            );
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_screenshot_path_needs_files_and_stays_in_its_directory() {
    let root = std::env::temp_dir().join(format!("deskpilot-files-{}", std::process::id()));
    let inside = root.join("shots");
    std::fs::create_dir_all(&inside).unwrap();
    let shot = |path: &str| json!({"session": "s1", "path": path});
    // Read-only and input-only servers write nothing.
    for grants in [
        Grants::read_only(),
        Grants::parse(&["input".into()], None).unwrap(),
    ] {
        let client = server_with(grants).await;
        call(&client, "connect", call_of("connect")).await;
        let path = inside.join("a.png");
        let result = call(&client, "screenshot", shot(path.to_str().unwrap())).await;
        assert_eq!(code(&result).as_deref(), Some("input_not_allowed"));
        client.cancel().await.unwrap();
    }
    let grants = Grants::parse(&["files".into()], Some(&inside)).unwrap();
    let client = server_with(grants).await;
    call(&client, "connect", call_of("connect")).await;
    for outside in [
        root.join("b.png").to_str().unwrap().to_owned(),
        "../c.png".to_owned(),
        "/tmp/d.png".to_owned(),
    ] {
        let result = call(&client, "screenshot", shot(&outside)).await;
        assert_eq!(
            code(&result).as_deref(),
            Some("input_not_allowed"),
            "{outside}: {:?}",
            result.content
        );
    }
    // Inside the directory the capability lets it through (the fake has no pixels: the
    // capture itself is what fails then).
    let result = call(&client, "screenshot", shot("e.png")).await;
    assert_eq!(
        code(&result).as_deref(),
        Some("input_unavailable"),
        "{result:?}"
    );
    client.cancel().await.unwrap();
    let _ = std::fs::remove_dir_all(&root);
}

#[tokio::test]
async fn sessions_open_only_on_the_apps_allowed() {
    let grants = Grants::read_only().only_apps(vec!["Notes".into()]);
    let client = server_with(grants).await;
    let refused = call(&client, "connect", json!({"app": "Editor"})).await;
    assert_eq!(
        code(&refused).as_deref(),
        Some("input_not_allowed"),
        "{refused:?}"
    );
    // Nothing was left open: the refused session's id is unknown.
    let snapshot = call(&client, "snapshot", json!({"session": "s1"})).await;
    assert_eq!(code(&snapshot).as_deref(), Some("unknown_session"));
    client.cancel().await.unwrap();
    let grants = Grants::parse(&["input".into()], None).unwrap();
    let client = server_with(grants.only_apps(vec!["editor".into()])).await;
    let allowed = call(&client, "connect", json!({"app": "Editor"})).await;
    assert_eq!(code(&allowed), None, "{allowed:?}");
    // Nothing beyond the session's windows: not the whole screen, not a bare point.
    let screen = call(
        &client,
        "screenshot",
        json!({"session": "s1", "screen": true}),
    )
    .await;
    assert_eq!(
        code(&screen).as_deref(),
        Some("input_not_allowed"),
        "{screen:?}"
    );
    let drag = call(
        &client,
        "drag",
        json!({"session": "s1", "from": "button", "to": {"x": 5, "y": 5}}),
    )
    .await;
    assert_eq!(
        code(&drag).as_deref(),
        Some("input_not_allowed"),
        "{drag:?}"
    );
    client.cancel().await.unwrap();
}
