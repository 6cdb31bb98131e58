//! The server in process, on the fake backend, through rmcp's own client: every result's
//! structured content fits its tool's outputSchema (no field the schema does not declare, `ok`
//! always there), successes and failures alike.

use std::collections::HashMap;
use std::sync::Arc;

use deskpilot_core::Engine;
use deskpilot_fake::FakeBackend;
use deskpilot_mcp::DeskpilotServer;
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use serde_json::{Value, json};

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" bounds=0,0,800,600
    button "OK" id=ok actions=click bounds=10,10,80,30 [focused]
    checkbox "Notify" [checked] bounds=10,50,80,30
    textbox "Name" value=Ada bounds=10,90,200,30
    password "Secret" bounds=10,130,200,30
    table "Grid" bounds=10,170,300,100
      columnheader "Item"
      row
        cell "a"
"#;

mod support;

/// The server on `fake`, in process, and rmcp's client connected to it.
async fn client_for(fake: Arc<FakeBackend>) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    support::client_for(DeskpilotServer::new(Arc::new(Engine::new(fake)))).await
}

fn args(value: Value) -> JsonObject {
    value.as_object().cloned().unwrap()
}

/// A failure's fields, declared once in the server's instructions rather than in every
/// output schema (issue 40: the catalog's budget).
const FAILURE_FIELDS: [&str; 4] = ["code", "message", "retryable", "hint"];

/// Checks `result` against the tool's output schema: `ok` present and right, every top-level
/// field declared (a failure's own fields in the instructions, which name each).
fn fits(tool: &str, schemas: &HashMap<String, JsonObject>, result: &CallToolResult) {
    let content = result
        .structured_content
        .as_ref()
        .expect("structured content");
    let schema = &schemas[tool];
    assert_eq!(schema["type"], "object", "{tool}");
    let declared = schema["properties"].as_object().unwrap();
    let failed = result.is_error == Some(true);
    let instructions = deskpilot_mcp::instructions();
    for key in content.as_object().unwrap().keys() {
        let of_failure = failed && FAILURE_FIELDS.contains(&key.as_str());
        assert!(
            declared.contains_key(key) || (of_failure && instructions.contains(key.as_str())),
            "{tool}: field {key} is not in the outputSchema"
        );
    }
    assert_eq!(
        content["ok"],
        json!(result.is_error != Some(true)),
        "{tool}: {content}"
    );
}

#[tokio::test]
async fn every_result_fits_its_output_schema() {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(APP);
    let client = client_for(fake).await;
    let tools = client.list_all_tools().await.unwrap();
    let schemas: HashMap<String, JsonObject> = tools
        .iter()
        .map(|t| {
            (
                t.name.to_string(),
                (**t.output_schema.as_ref().unwrap()).clone(),
            )
        })
        .collect();
    let call = |name: &'static str, arguments: Value| {
        let client = &client;
        let schemas = &schemas;
        async move {
            let result = client
                .call_tool(CallToolRequestParams::new(name).with_arguments(args(arguments)))
                .await
                .unwrap();
            fits(name, schemas, &result);
            result
        }
    };
    call("list_apps", json!({})).await;
    let connected = call("connect", json!({"app": "Editor"})).await;
    let s = connected.structured_content.unwrap()["session"]
        .as_str()
        .unwrap()
        .to_owned();
    call("snapshot", json!({"session": s})).await;
    call(
        "snapshot",
        json!({"session": s, "format": "json", "max_nodes": 3}),
    )
    .await;
    call("find", json!({"session": s, "selector": "button"})).await;
    call("get_properties", json!({"session": s, "target": "[id=ok]"})).await;
    call("hit_test", json!({"session": s, "x": 20, "y": 20})).await;
    call("get_focus", json!({"session": s})).await;
    call(
        "read_text",
        json!({"session": s, "target": "textbox", "length": 2}),
    )
    .await;
    call("read_table", json!({"session": s, "target": "table"})).await;
    call(
        "wait_for",
        json!({"session": s, "selector": "checkbox", "state": "checked"}),
    )
    .await;
    // Failures, each with its code.
    for (tool, arguments, code) in [
        ("snapshot", json!({"session": "nope"}), "unknown_session"),
        (
            "find",
            json!({"session": s, "selector": "buton"}),
            "invalid_selector",
        ),
        (
            "find",
            json!({"session": s, "selector": "button", "untill": "disappears"}),
            "invalid_arguments",
        ),
        (
            "snapshot",
            json!({"session": s, "filter": "everything"}),
            "invalid_arguments",
        ),
        (
            "snapshot",
            json!({"session": s, "format": "xml"}),
            "invalid_arguments",
        ),
        (
            "get_properties",
            json!({"session": s, "target": "e999"}),
            "stale_ref",
        ),
        (
            "get_properties",
            json!({"session": s, "target": "button[name=Nope]"}),
            "not_found",
        ),
        (
            "read_text",
            json!({"session": s, "target": "password"}),
            "unsupported",
        ),
        (
            "wait_for",
            json!({"session": s, "selector": "button[name=Nope]", "timeout_ms": 100}),
            "timeout",
        ),
        // wait_for decodes its session apart from its condition: each is still checked.
        (
            "wait_for",
            json!({"session": s, "selector": "button", "until": "soon"}),
            "invalid_arguments",
        ),
        (
            "wait_for",
            json!({"session": s, "selector": "button", "untill": "disappears"}),
            "invalid_arguments",
        ),
        (
            "wait_for",
            json!({"session": 5, "selector": "button"}),
            "invalid_arguments",
        ),
        (
            "wait_for",
            json!({"selector": "button"}),
            "invalid_arguments",
        ),
        ("disconnect", json!({"session": "nope"}), "unknown_session"),
    ] {
        let result = call(tool, arguments).await;
        assert_eq!(result.is_error, Some(true), "{tool}");
        assert_eq!(result.structured_content.unwrap()["code"], code, "{tool}");
    }
    call("disconnect", json!({"session": s})).await;
    client.cancel().await.unwrap();
}

/// An app with a nearly empty tree is flagged blind, and so is a web runtime that shows its
/// own controls but no page; both with the switch that helps. One with a page is not.
#[tokio::test]
async fn a_nearly_empty_app_is_flagged_blind_with_a_hint() {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(APP);
    fake.add_app(
        "application \"Chromium\" pid=77 toolkit=Chromium\n  window \"Page - Chromium\"\n    generic\n      generic\n",
    );
    let browser = |name: &str, page: &str| {
        let mut app = format!(
            "application \"{name}\" pid=78 toolkit=Electron\n  window \"{name}\"\n    toolbar\n"
        );
        for i in 0..12 {
            app.push_str(&format!("      button \"Tool {i}\"\n"));
        }
        app.push_str(page);
        app
    };
    fake.add_app(&browser("Chat", ""));
    fake.add_app(&browser(
        "Notes",
        "    document \"Notes\"\n      button \"Save\"\n",
    ));
    let client = client_for(fake).await;
    let result = client
        .call_tool(CallToolRequestParams::new("list_apps").with_arguments(args(json!({}))))
        .await
        .unwrap();
    let apps = result.structured_content.unwrap()["apps"].clone();
    let by_name = |name: &str| {
        apps.as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(by_name("Editor")["blind"], false);
    assert_eq!(by_name("Chat")["blind"], true);
    assert!(by_name("Chat")["hint"].as_str().is_some());
    assert_eq!(by_name("Notes")["blind"], false);
    let chromium = by_name("Chromium");
    assert_eq!(chromium["blind"], true);
    assert!(
        chromium["hint"]
            .as_str()
            .unwrap()
            .contains("--force-renderer-accessibility")
    );
    assert!(
        result.content[0]
            .as_text()
            .unwrap()
            .text
            .contains("Chromium (pid 77, Chromium) [blind]")
    );
    client.cancel().await.unwrap();
}

/// A window is named by its window system's id, `window_id`, on every platform; `x11_window`
/// is its old name and still works, alone.
#[tokio::test]
async fn connect_takes_a_window_id_and_its_old_name() {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(APP);
    let client = client_for(fake).await;
    let listed = support::call(&client, "list_apps", json!({})).await;
    let window = listed.structured_content.unwrap()["apps"][0]["windows"][0].clone();
    let id = window["window_id"].as_u64().expect("a window_id");
    assert_eq!(
        window["x11_window"],
        json!(id),
        "the old name says the same"
    );
    for given in [json!({"window_id": id}), json!({"x11_window": id})] {
        let connected = support::call(&client, "connect", given.clone()).await;
        assert_ne!(connected.is_error, Some(true), "{given}: {connected:?}");
    }
    let both = support::call(
        &client,
        "connect",
        json!({"window_id": id, "x11_window": id}),
    )
    .await;
    assert_eq!(both.is_error, Some(true));
    assert_eq!(
        both.structured_content.unwrap()["code"],
        "invalid_arguments"
    );
}
