//! Recording (`--record DIR`), through the MCP server in process on the fake backend, judged
//! by the files written: one log per session, a header with the format's version, each call
//! with its element as a stable locator (never only a ref), pipeline steps by id, secret text
//! as a named placeholder that no file holds; the log is the session's resource; a directory
//! that cannot be written is said once and fails no call.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use deskpilot_mcp::packs::set::Sources;
use deskpilot_mcp::{DeskpilotServer, Grants};
use rmcp::model::{CallToolResult, ReadResourceRequestParams};
use serde_json::{Value, json};

mod support;
use support::call;

const APP: &str = r#"
application "Login" pid=50 toolkit=GTK
  window "Sign in" path=/win bounds=0,0,400,300
    textbox "User" path=/user [editable] value=guest interfaces=text,editable_text bounds=10,10,200,30
    password "Password" path=/pw [editable] interfaces=text,editable_text bounds=10,50,200,30
    checkbox "Remember me" path=/remember actions=toggle bounds=10,90,120,30
    button "Sign in" path=/ok actions=click bounds=10,130,80,30
"#;

const SECRET: &str = "hunter2-is-the-password";

type Client = rmcp::service::RunningService<rmcp::RoleClient, ()>;

async fn server(record: &Path) -> Client {
    server_on(record).await.1
}

/// `server`, and the fake it drives (the oracle).
async fn server_on(record: &Path) -> (Arc<deskpilot_fake::FakeBackend>, Client) {
    let (fake, _input, engine) = support::fake_desktop(APP);
    let grants = Grants::parse(&["input".to_owned()], None).unwrap();
    let server = DeskpilotServer::recording(
        Arc::new(engine),
        grants,
        Sources::shipped_only(),
        Some(record.to_owned()),
    );
    (fake, support::client_for(server).await)
}

fn structured(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .expect("structured content")
}

fn text(result: &CallToolResult) -> String {
    result.content[0]
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

async fn connect(client: &Client) -> String {
    let opened = call(client, "connect", json!({"app": "Login"})).await;
    structured(&opened)["session"].as_str().unwrap().to_owned()
}

/// The check box's ref, found as an agent finds it.
async fn checkbox_ref(client: &Client, session: &str) -> String {
    let args = json!({"session": session, "selector": "checkbox"});
    let found = call(client, "find", args).await;
    let reference = &structured(&found)["matches"][0]["ref"];
    reference.as_str().unwrap().to_owned()
}

/// A session on the app, its check box clicked by the ref an agent found for it.
async fn remember_me(client: &Client) -> String {
    let session = connect(client).await;
    let remember = checkbox_ref(client, &session).await;
    let args = json!({"session": session, "target": remember});
    call(client, "click", args).await;
    session
}

/// A recorded session (into `dir`) whose check box was clicked and user set to `ada`.
async fn remembered_as_ada(dir: &Path) -> (Client, String) {
    let client = server(dir).await;
    let session = remember_me(&client).await;
    let typed = json!({"session": session, "target": "textbox", "value": "ada"});
    call(&client, "set_value", typed).await;
    (client, session)
}

/// The oracle: the fake's own check box is checked and its user field holds `ada`.
fn assert_remembered_as_ada(fake: &deskpilot_fake::FakeBackend) {
    let checked = fake.peek(&deskpilot_fake::id(":1.1", "/remember")).unwrap();
    assert!(checked.states.is(deskpilot_core::model::State::Checked));
    let user = fake.peek(&deskpilot_fake::id(":1.1", "/user")).unwrap();
    let ada = deskpilot_core::model::NodeValue::Text { text: "ada".into() };
    assert_eq!(user.value, Some(ada));
}

/// The files in `dir`, with their text.
fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut found: Vec<(PathBuf, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.clone(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    found.sort();
    found
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn a_session_is_kept_with_locators_and_without_its_secrets() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("recordings");
    let client = server(&dir).await;
    let session = connect(&client).await;
    let remember = checkbox_ref(&client, &session).await;
    let clicked = call(
        &client,
        "click",
        json!({"session": session, "target": remember}),
    )
    .await;
    assert_eq!(structured(&clicked)["ok"], true, "{}", text(&clicked));
    call(
        &client,
        "type_text",
        json!({"session": session, "target": "password", "text": SECRET}),
    )
    .await;
    let flagged = json!({"session": session, "target": "textbox[name=User]", "value": SECRET, "secret": true});
    call(&client, "set_value", flagged).await;

    // One log, in a directory only its owner may enter.
    let written = files(&dir);
    assert_eq!(written.len(), 1, "{written:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
    let log = lines(&written[0].1);
    assert_eq!(log[0]["kind"], "header");
    assert_eq!(log[0]["version"], 1);
    assert_eq!(log[0]["session"], session.as_str());
    assert_eq!(log[0]["app"]["name"], "Login");
    let tools: Vec<&str> = log[1..]
        .iter()
        .map(|l| l["tool"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["find", "click", "type_text", "set_value"]);
    // The click's element: given as a ref, kept as a locator a person would write.
    let element = &log[2]["elements"][0];
    assert_eq!(element["given"], remember.as_str());
    assert_eq!(element["locator"], r#"checkbox[name="Remember me"]"#);
    assert_eq!(log[2]["effect"], "confirmed");
    // What was read back, as an export keeps it.
    assert_eq!(
        log[2]["evidence"],
        json!([{"state": {"state": "checked", "on": true}}])
    );
    // Secret text is a named placeholder: a password field's, and a call's flagged secret.
    assert_eq!(log[3]["args"]["text"], "${secret.password_1}");
    assert_eq!(log[4]["args"]["value"], "${secret.secret_2}");
    for (path, text) in &written {
        assert!(
            !text.contains(SECRET),
            "{} holds the secret",
            path.display()
        );
    }

    // While the session runs, the log is its resource.
    let uri = format!("deskpilot://session/{session}/recording");
    let listed = client.list_resources(None).await.unwrap();
    assert!(listed.resources.iter().any(|r| r.uri == uri), "{listed:?}");
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri.clone()))
        .await
        .unwrap();
    let rmcp::model::ResourceContents::TextResourceContents { text, .. } = &read.contents[0] else {
        panic!("a text resource");
    };
    assert_eq!(text, &written[0].1);
    let other = ReadResourceRequestParams::new("deskpilot://session/s999/recording".to_owned());
    assert!(client.read_resource(other).await.is_err());
}

/// A pipeline's steps are kept as calls, each with its step's id.
#[tokio::test]
async fn a_pipelines_steps_are_kept_by_id() {
    let home = tempfile::tempdir().unwrap();
    let client = server(home.path()).await;
    let session = connect(&client).await;
    let steps = json!({"steps": [
        {"id": "remember", "tool": "click", "args": {"session": session, "target": "checkbox"}},
        {"id": "user", "tool": "set_value", "args": {"session": session, "target": "textbox", "value": "ada"}}
    ]});
    let ran = call(&client, "run_steps", steps).await;
    assert_eq!(structured(&ran)["ok"], true, "{}", text(&ran));
    let log = lines(&files(home.path())[0].1);
    let kept: Vec<(&str, &str)> = log[1..]
        .iter()
        .map(|l| (l["tool"].as_str().unwrap(), l["step"].as_str().unwrap()))
        .collect();
    assert_eq!(kept, [("click", "remember"), ("set_value", "user")]);
    assert_eq!(log[2]["elements"][0]["locator"], r#"textbox[name="User"]"#);
    assert_eq!(log[2]["args"]["value"], "ada");
}

/// A directory that cannot be made is said once, in the next result, and no call fails.
#[tokio::test]
async fn an_unwritable_directory_is_said_once_and_fails_no_call() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let client = server(&file.join("recordings")).await;
    let opened = call(&client, "connect", json!({"app": "Login"})).await;
    assert_eq!(structured(&opened)["ok"], true);
    assert!(
        text(&opened).starts_with("(recording stopped: "),
        "{}",
        text(&opened)
    );
    let session = structured(&opened)["session"].as_str().unwrap();
    let clicked = call(
        &client,
        "click",
        json!({"session": session, "target": "checkbox"}),
    )
    .await;
    assert_eq!(structured(&clicked)["ok"], true);
    assert!(!text(&clicked).contains("recording"), "{}", text(&clicked));
}

/// A recorded session exported as a test reads like one a person wrote: the app started,
/// each action on its locator, what was read back as an expectation, the secret from the
/// environment; the same log always gives the same file.
#[tokio::test]
async fn a_recording_exports_as_a_test() {
    use deskpilot_mcp::record::export::{Kind, export};
    let home = tempfile::tempdir().unwrap();
    let client = server(home.path()).await;
    let session = remember_me(&client).await;
    call(
        &client,
        "set_value",
        json!({"session": session, "target": "textbox", "value": "ada"}),
    )
    .await;
    call(
        &client,
        "type_text",
        json!({"session": session, "target": "password", "text": SECRET}),
    )
    .await;
    // Tried twice: the first fails (no such element), the second works.
    let wrong = json!({"session": session, "target": "button[name=\"Sign on\"]"});
    call(&client, "click", wrong).await;
    call(
        &client,
        "click",
        json!({"session": session, "target": "button"}),
    )
    .await;
    call(
        &client,
        "wait_for",
        json!({"session": session, "selector": "checkbox", "state": "checked"}),
    )
    .await;
    let log = files(home.path()).remove(0).1;
    let known = deskpilot_mcp::has_tool;
    let exported = export(&log, Kind::Test, &known).unwrap();
    assert!(!exported.text.contains(SECRET));
    assert_eq!(
        export(&log, Kind::Test, &known).unwrap(),
        exported,
        "deterministic"
    );
    insta::assert_snapshot!(exported.text);
    assert_eq!(
        exported.notes,
        ["call 5 (click) failed in the session (not_found): kept as a comment"]
    );
}

/// A recorded session exported as a pipeline runs on a fresh app and does what the session
/// did, judged by the fake's own state; each confirmed step keeps the expect it earned.
#[tokio::test]
async fn a_recording_exports_as_a_pipeline_that_replays() {
    use deskpilot_mcp::record::export::{Kind, export};
    let home = tempfile::tempdir().unwrap();
    let (client, session) = remembered_as_ada(home.path()).await;
    let log = files(home.path()).remove(0).1;
    let exported = export(&log, Kind::Pipeline, &deskpilot_mcp::has_tool).unwrap();
    insta::assert_snapshot!(exported.text);

    // A fresh app, the same steps.
    let elsewhere = tempfile::tempdir().unwrap();
    let (fake, fresh) = server_on(elsewhere.path()).await;
    let steps: Value = serde_json::from_str(&exported.text).unwrap();
    let ran = call(&fresh, "run_steps", steps).await;
    assert_eq!(structured(&ran)["ok"], true, "{}", text(&ran));
    assert_remembered_as_ada(&fake);

    // A secret cannot go into a pipeline: said, not dropped.
    let secret = json!({"session": session, "target": "password", "text": SECRET});
    call(&client, "type_text", secret).await;
    let log = files(home.path()).remove(0).1;
    let refused = export(&log, Kind::Pipeline, &deskpilot_mcp::has_tool).unwrap_err();
    assert!(
        refused.to_string().contains("a pipeline cannot hold"),
        "{refused}"
    );
}

/// A recorded session exported as a pack workflow: each element a control, each typed text
/// an input (a secret a required one). Put in a pack, it validates and runs on a fresh app
/// through `run_workflow`, judged by the fake's own state.
#[tokio::test]
async fn a_recording_exports_as_a_pack_workflow_that_runs() {
    use deskpilot_mcp::record::export::{Kind, export};
    let home = tempfile::tempdir().unwrap();
    let (client, session) = remembered_as_ada(home.path()).await;
    let secret = json!({"session": session, "target": "password", "text": SECRET});
    call(&client, "type_text", secret).await;
    let log = files(home.path()).remove(0).1;
    let exported = export(&log, Kind::Workflow, &deskpilot_mcp::has_tool).unwrap();
    assert!(!exported.text.contains(SECRET));
    insta::assert_snapshot!(exported.text);

    // The pack a person would make of it.
    let made: Value = serde_json::from_str(&exported.text).unwrap();
    let packs = tempfile::tempdir().unwrap();
    let dir = packs.path().join("login");
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        ("manifest.json", json!({"id": "login", "version": "1.0.0"})),
        ("profile.json", json!({"main_window": {"app": "Login"}})),
        ("controls.json", json!({"controls": made["controls"]})),
        ("workflows.json", json!({"workflows": [made["workflow"]]})),
    ];
    for (name, value) in files {
        std::fs::write(dir.join(name), value.to_string()).unwrap();
    }
    let (fake, _input, engine) = support::fake_desktop(APP);
    let grants = Grants::parse(&["input".to_owned()], None).unwrap();
    let sources = Sources {
        roots: vec![packs.path().to_owned()],
        user: None,
        shipped: Vec::new(),
    };
    let server = DeskpilotServer::with_packs(Arc::new(engine), grants, sources);
    let fresh = support::client_for(server).await;
    let id = made["workflow"]["id"].as_str().unwrap();
    let inputs = json!({"password_password_text": "another secret"});
    let args = json!({"pack": "login", "workflow": id, "inputs": inputs});
    let ran = call(&fresh, "run_workflow", args).await;
    assert_eq!(structured(&ran)["ok"], true, "{}", text(&ran));
    assert_remembered_as_ada(&fake);
}
