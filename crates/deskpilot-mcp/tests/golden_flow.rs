//! Golden MCP transcript: a fixed agent flow on the fake backend (reading, acting, failures),
//! every tool result recorded as text and structured output. The engine refactor (issue "One
//! engine, thin faces") must leave it unchanged except for differences it lists.

mod support;

use std::sync::Arc;

use deskpilot_mcp::DeskpilotServer;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" bounds=0,0,800,600
    menubar
      menu "File" actions=click bounds=0,0,40,20
        menuitem "Open" [!showing] actions=click
    button "OK" id=ok actions=click bounds=10,30,80,30 [focused]
    checkbox "Notify" actions=click bounds=10,70,80,30
    textbox "Name" [editable] value=Ada interfaces=text,editable_text bounds=10,110,200,30
    password "Secret" [editable] interfaces=text,editable_text bounds=10,150,200,30
    slider "Volume" range=5,0,10 interfaces=value bounds=10,190,200,30
    list "Fruits" bounds=10,230,200,90
      listitem "Apple" [selectable] bounds=10,230,200,30
      listitem "Banana" [selectable] bounds=10,260,200,30
  dialog "Confirm" bounds=300,300,200,100
    button "Yes" actions=click bounds=310,360,60,30
"#;

/// `text` with the numbers of "met after 12 ms" replaced: they vary.
fn unvaried(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let timed = words.get(i + 1).is_some_and(|next| next.starts_with("ms"));
            if timed && w.parse::<u64>().is_ok() {
                "[varies]"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a result says, without what varies from run to run (elapsed times).
fn recorded(tool: &str, args: &Value, result: &rmcp::model::CallToolResult) -> Value {
    let mut structured = result.structured_content.clone().unwrap_or(Value::Null);
    if let Some(object) = structured.as_object_mut() {
        for varying in ["elapsed_ms", "polls"] {
            if object.contains_key(varying) {
                object.insert(varying.into(), json!("[varies]"));
            }
        }
        if let Some(Value::String(text)) = object.get("text") {
            let text = unvaried(text);
            object.insert("text".into(), json!(text));
        }
    }
    let text: String = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    let text = unvaried(&text);
    json!({
        "call": tool,
        "args": args,
        "is_error": result.is_error,
        "text": text,
        "structured": structured,
    })
}

#[tokio::test]
async fn a_fixed_agent_flow_reads_and_acts_as_recorded() {
    let (_, _, engine) = support::fake_desktop(APP);
    let client = support::client_for(DeskpilotServer::with_input(Arc::new(engine), true)).await;
    let mut transcript = Vec::new();
    let mut session = String::new();
    let steps: Vec<(&str, Value)> = vec![
        ("list_apps", json!({})),
        ("connect", json!({"app": "Editor"})),
        ("snapshot", json!({})),
        ("snapshot", json!({"window": "Confirm"})),
        ("find", json!({"selector": "button"})),
        ("find", json!({"selector": "menuitem"})),
        ("get_properties", json!({"target": "[id=ok]"})),
        ("read_text", json!({"target": "textbox", "length": 2})),
        ("click", json!({"target": "button[name=OK]"})),
        (
            "act",
            json!({"target": "checkbox[name=Notify]", "verb": "check"}),
        ),
        (
            "act",
            json!({"target": "checkbox[name=Notify]", "verb": "check"}),
        ),
        (
            "set_value",
            json!({"target": "textbox[name=Name]", "value": "Grace"}),
        ),
        (
            "set_value",
            json!({"target": "password", "value": "hunter2"}),
        ),
        ("set_value", json!({"target": "slider", "value": 7})),
        (
            "act",
            json!({"target": "listitem[name=Banana]", "verb": "select"}),
        ),
        (
            "type_text",
            json!({"target": "textbox[name=Name]", "text": " Hopper"}),
        ),
        ("click", json!({"target": "menuitem[name=Open]"})),
        (
            "wait_for",
            json!({"selector": "checkbox", "state": "checked"}),
        ),
        ("get_properties", json!({"target": "e999"})),
        ("find", json!({"selector": "buton"})),
        ("disconnect", json!({})),
        ("snapshot", json!({})),
    ];
    for (tool, mut args) in steps {
        if tool != "list_apps" && tool != "connect" {
            args["session"] = json!(session);
        }
        let result = client
            .call_tool(
                CallToolRequestParams::new(tool.to_owned())
                    .with_arguments(args.as_object().cloned().unwrap()),
            )
            .await
            .unwrap();
        if tool == "connect" {
            session = result.structured_content.as_ref().unwrap()["session"]
                .as_str()
                .unwrap()
                .to_owned();
        }
        transcript.push(recorded(tool, &args, &result));
    }
    insta::assert_json_snapshot!(transcript);
}
