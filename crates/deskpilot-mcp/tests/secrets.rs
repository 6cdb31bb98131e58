//! Secrets never leave: a password typed or set into a field that declines it, ignores it or
//! takes only part of it (typing cut short), or text sent with `secret: true` into a plain
//! field, appears in no result (text or structured), no error and no log line at any level.
//! A plain field's new value may appear: it is what the agent needs to see.

mod support;
use support::call;

use std::io::Write;
use std::sync::{Arc, Mutex};

use deskpilot_mcp::DeskpilotServer;
use rmcp::model::CallToolResult;
use serde_json::json;

const SECRET: &str = "hunter2-Zoë";

const APP: &str = r#"
application "Vault" pid=42 toolkit=GTK
  window "Login" bounds=0,0,800,600
    password "Refuser" interfaces=text,editable_text declines deaf bounds=10,10,200,30
    password "Pin" interfaces=text bounds=10,50,200,30
    textbox "Note" [editable] value=Ada interfaces=text,editable_text bounds=10,90,200,30
    textbox "Plain" [editable] value=Bea interfaces=text,editable_text bounds=10,130,200,30
"#;

/// Everything written by `tracing` at every level from deskpilot's crates (the protocol
/// libraries at warn, as the binary runs them).
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn everything(result: &CallToolResult) -> String {
    serde_json::to_string(result).unwrap()
}

#[tokio::test]
async fn secrets_appear_in_no_result_error_or_log() {
    let logs = Logs::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_env_filter("trace,rmcp=warn,zbus=warn,atspi=warn")
        .finish();
    let _default = tracing::subscriber::set_default(subscriber);

    let (_fake, input, engine) = support::fake_desktop(APP);
    let client = support::client_for(DeskpilotServer::with_input(Arc::new(engine), true)).await;
    let connected = call(&client, "connect", json!({"app": "Vault"})).await;
    let session = connected.structured_content.unwrap()["session"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut outputs = Vec::new();

    // Declined by the provider and ignored by the keyboard: set_value fails with no_effect,
    // type_text is a no-op.
    for tool in ["set_value", "type_text"] {
        let value_key = if tool == "set_value" { "value" } else { "text" };
        let result = call(
            &client,
            tool,
            json!({"session": session, "target": "password[name=Refuser]", value_key: SECRET}),
        )
        .await;
        assert_eq!(
            result.is_error,
            Some(tool == "set_value"),
            "{}",
            everything(&result)
        );
        outputs.push(everything(&result));
    }
    // Typing cut short (as a timed-out job is): input_incomplete says how much, never what.
    input.limit_typing(Some(4));
    let cut = call(
        &client,
        "type_text",
        json!({"session": session, "target": "password[name=Pin]", "text": SECRET}),
    )
    .await;
    input.limit_typing(None);
    let cut_text = everything(&cut);
    assert!(cut_text.contains("input_incomplete"), "{cut_text}");
    assert!(cut_text.contains("4 of 11"), "{cut_text}");
    outputs.push(cut_text);
    // A plain field, text kept secret on request: its value shows as a length only.
    for tool in ["set_value", "type_text"] {
        let value_key = if tool == "set_value" { "value" } else { "text" };
        let result = call(
            &client,
            tool,
            json!({"session": session, "target": "textbox[name=Note]", value_key: SECRET, "secret": true}),
        )
        .await;
        let text = everything(&result);
        assert_eq!(result.is_error, Some(false), "{text}");
        assert!(text.contains("hidden characters"), "{text}");
        assert!(!text.contains("Ada"), "the field's value showed: {text}");
        outputs.push(text);
    }
    // Finding the field shows no text, and its text cannot be probed with a value selector.
    let found = call(
        &client,
        "find",
        json!({"session": session, "selector": "textbox[name=Note]"}),
    )
    .await;
    assert_eq!(
        found.structured_content.clone().unwrap()["total"],
        1,
        "{}",
        everything(&found)
    );
    outputs.push(everything(&found));
    let probe = call(
        &client,
        "find",
        json!({"session": session, "selector": "textbox[value*=hunter2]"}),
    )
    .await;
    assert_eq!(
        probe.structured_content.clone().unwrap()["total"],
        0,
        "a value selector found the secret: {}",
        everything(&probe)
    );
    // A plain field without `secret`: its new value may appear.
    let plain = call(
        &client,
        "set_value",
        json!({"session": session, "target": "textbox[name=Plain]", "value": "Grace"}),
    )
    .await;
    assert!(
        everything(&plain).contains(r#"\"Bea\" -> \"Grace\""#),
        "{}",
        everything(&plain)
    );

    tracing::trace!("the capture works");
    let logs = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(logs.contains("the capture works"), "{logs}");
    for (i, output) in outputs.iter().enumerate() {
        assert!(
            !output.contains(SECRET),
            "result {i} carries the secret: {output}"
        );
        assert!(
            !output.contains("hunter2"),
            "result {i} carries part of it: {output}"
        );
    }
    assert!(
        !logs.contains("hunter2"),
        "a log line carries the secret:\n{logs}"
    );
}
