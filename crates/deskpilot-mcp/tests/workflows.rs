//! App packs' workflows by name and their controls by name, through the MCP server in
//! process on the fake backend, judged by the fake's own state (the oracle): inputs checked
//! by their schema, the session opened on the pack's app, a contract's expect applied, a
//! failure continued, a drifted selector reported, another app's session refused.

use std::path::Path;
use std::sync::Arc;

use deskpilot_core::model::NodeValue;
use deskpilot_core::platform::LaunchError;
use deskpilot_fake::{FakeBackend, id};
use deskpilot_mcp::packs::set::Sources;
use deskpilot_mcp::{DeskpilotServer, Grants};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

mod support;
use support::call;

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" path=/win bounds=0,0,800,600
    button "OK" path=/ok actions=click bounds=10,10,80,30
    checkbox "Notify" path=/notify [checked] actions=toggle bounds=10,50,80,30
    textbox "Name" path=/name [editable] value=Ada interfaces=text,editable_text bounds=10,90,200,30
"#;

const OTHER: &str = r#"
application "Viewer" pid=43 toolkit=GTK
  window "View" path=/win bounds=0,0,400,300
    button "OK" path=/ok actions=click bounds=10,10,80,30
"#;

type Client = rmcp::service::RunningService<rmcp::RoleClient, ()>;

fn write_pack(dir: &Path) {
    let files = [
        (
            "manifest.json",
            json!({"id": "editor", "version": "1.0.0", "env": ["CARGO_PKG_NAME"]}),
        ),
        (
            "profile.json",
            json!({"main_window": {"app": "Editor", "toolkit": "gtk"},
                   "launch": {"programs": ["deskpilot-no-such-editor", "editor"]}}),
        ),
        (
            "controls.json",
            json!({"controls": {
                "main": {"selectors": ["window[name=Main]"]},
                "name": {"selectors": ["textbox[name=Gone]", "textbox[name=Name]"], "within": "main"},
                "notify": {"selectors": ["checkbox[name=Notify]"]},
                "ok": {"selectors": ["button[name=OK]"]}
            }}),
        ),
        (
            "actions.json",
            json!({"contracts": [
                {"control": "notify", "tool": "click", "safe_to_repeat": false,
                 "expect": {"selector": "@notify", "state": "!checked", "timeout_ms": 2000}},
                {"control": "ok", "tool": "click",
                 "expect": {"selector": "textbox[name=Name]", "value": "done", "timeout_ms": 200}}
            ]}),
        ),
        (
            "workflows.json",
            json!({"workflows": [
                {"id": "rename",
                 "inputs": {"type": "object", "properties": {"name": {"type": "string", "minLength": 1}},
                            "required": ["name"], "additionalProperties": false},
                 "steps": [{"id": "named", "tool": "set_value",
                            "args": {"session": "${session}", "target": "@name", "value": "${inputs.name}"}}]},
                {"id": "quiet",
                 "steps": [{"id": "off", "tool": "click", "args": {"session": "${session}", "target": "@notify"}}]},
                {"id": "confirm",
                 "steps": [{"id": "ok", "tool": "click", "args": {"session": "${session}", "target": "@ok"}}]},
                {"id": "count", "description": "Count the buttons.",
                 "inputs": {"type": "object", "properties": {"limit": {"type": "integer", "minimum": 1, "default": 5}}},
                 "steps": [{"id": "found", "tool": "find",
                            "args": {"session": "${session}", "selector": "button", "limit": "${inputs.limit}"}}]},
                {"id": "secret_name",
                 "steps": [{"id": "named", "tool": "set_value",
                            "args": {"session": "${session}", "target": "@name", "value": "${env.CARGO_PKG_NAME}", "secret": true}},
                           {"id": "ok", "tool": "click", "args": {"session": "${session}", "target": "@ok"}}]},
                {"id": "secretly", "visibility": "hidden",
                 "steps": [{"id": "look", "tool": "snapshot", "args": {"session": "${session}"}}]}
            ]}),
        ),
    ];
    std::fs::create_dir_all(dir).unwrap();
    for (name, value) in files {
        std::fs::write(dir.join(name), value.to_string()).unwrap();
    }
}

/// Starts the fake's `editor` (the Editor app, registered at once with its pid); any other
/// program is not installed.
struct Launcher(Arc<FakeBackend>);

impl deskpilot_core::platform::Launcher for Launcher {
    fn spawn(&self, argv: &[String]) -> Result<u32, LaunchError> {
        match argv[0].as_str() {
            "editor" => {
                self.0.add_app(APP);
                Ok(42)
            }
            // A program that starts another app than its name says (a wrapper, a path_env
            // pointing elsewhere).
            "viewer-as-editor" => {
                self.0.add_app(OTHER);
                Ok(43)
            }
            other => Err(LaunchError::NotFound(other.to_owned())),
        }
    }

    fn descends_from(&self, pid: u32, ancestor: u32) -> bool {
        pid == ancestor
    }

    fn exit_status(&self, _: u32) -> Option<deskpilot_core::platform::Exited> {
        None
    }
}

/// A server over the fake's two apps with the `editor` pack and `grants`.
async fn server(grants: &[&str]) -> (Arc<FakeBackend>, Client, tempfile::TempDir) {
    server_with(grants, |_| {}).await
}

/// `server`, the pack changed by `change` (given its directory) before the server loads it.
async fn server_with(
    grants: &[&str],
    change: impl FnOnce(&Path),
) -> (Arc<FakeBackend>, Client, tempfile::TempDir) {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(APP);
    fake.add_app(OTHER);
    let input = Arc::new(deskpilot_fake::FakeInput::new(fake.clone()));
    let wiring = deskpilot_core::Wiring {
        input: Some(input.clone()),
        windows: Some(input),
        launcher: Some(Arc::new(Launcher(fake.clone()))),
        ..deskpilot_core::Wiring::default()
    };
    let engine = deskpilot_core::Engine::wired(fake.clone(), wiring);
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("packs");
    write_pack(&root.join("editor"));
    change(&root.join("editor"));
    let grants: Vec<String> = grants.iter().map(|g| (*g).to_owned()).collect();
    let grants = Grants::parse(&grants, None).unwrap();
    let packs = Sources {
        roots: vec![root],
        user: None,
        shipped: Vec::new(),
    };
    let server = DeskpilotServer::with_packs(Arc::new(engine), grants, packs);
    (fake, support::client_for(server).await, home)
}

fn content(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .expect("structured content")
}

fn value_of(fake: &FakeBackend) -> Option<String> {
    match fake.peek(&id(":1.1", "/name"))?.value? {
        NodeValue::Text { text } => Some(text),
        _ => None,
    }
}

fn checked(fake: &FakeBackend) -> Option<bool> {
    fake.peek(&id(":1.1", "/notify"))
        .and_then(|n| n.states.get(deskpilot_core::model::State::Checked))
}

/// Run by name with no session: the run opens one on the pack's app and sets the field
/// (the fake's value is the oracle); `@name`'s first selector finds nothing, so its second
/// is used and the step says the pack has drifted.
#[tokio::test]
async fn a_workflow_runs_by_name_in_its_app() {
    let (fake, client, _home) = server(&["input"]).await;
    let args = json!({"pack": "editor", "workflow": "rename", "inputs": {"name": "Grace"}});
    let result = call(&client, "run_workflow", args).await;
    let run = content(&result);
    assert_eq!(run["passed"], true, "{run}");
    assert_eq!(run["opened"], true);
    assert!(run["session"].as_str().is_some());
    assert_eq!(value_of(&fake).as_deref(), Some("Grace"));
    let text = run["steps"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("@editor/name: found by its selector 2"),
        "{text}"
    );
    // A second run uses the session the first opened: none is opened twice.
    let args = json!({"pack": "editor", "workflow": "rename", "inputs": {"name": "Ada"}});
    let again = call(&client, "run_workflow", args).await;
    let again = content(&again);
    assert_eq!(
        (&again["session"], &again["opened"]),
        (&run["session"], &json!(false))
    );
}

/// `${env.NAME}` in a secret step is the run's value, not kept text: a continued run
/// resolves it again instead of asking the client for a secret it never knew.
#[tokio::test]
async fn an_environment_value_is_read_again_when_a_run_continues() {
    let (fake, client, _home) = server(&["input"]).await;
    let args = json!({"pack": "editor", "workflow": "secret_name"});
    let failed = call(&client, "run_workflow", args).await;
    let run = content(&failed);
    assert_eq!(run["code"], "step_postcondition_timeout", "{run}");
    assert_eq!(value_of(&fake).as_deref(), Some("deskpilot-mcp"));
    fake.edit(&id(":1.1", "/name"), |n| {
        n.node.value = Some(NodeValue::Text {
            text: "edited".into(),
        })
    });
    let args = json!({"run_id": run["run_id"], "from": "named"});
    let continued = call(&client, "continue_run", args).await;
    let run = content(&continued);
    assert_eq!(run["steps"][0]["status"], "passed", "{run}");
    assert_eq!(value_of(&fake).as_deref(), Some("deskpilot-mcp"));
}

/// Inputs that do not match the schema are refused with their JSON paths, before any
/// step; a read-only server refuses a workflow that acts before its first step.
#[tokio::test]
async fn inputs_are_checked_by_their_schema() {
    let (fake, client, _home) = server(&["input"]).await;
    let cases = [
        (json!({}), "/: \"name\" is a required property"),
        (json!({"name": 5}), "/name: value is not of type \"string\""),
        (json!({"name": "x", "extra": 1}), "/: Additional properties"),
    ];
    for (inputs, says) in cases {
        let args = json!({"pack": "editor", "workflow": "rename", "inputs": inputs});
        let refused = call(&client, "run_workflow", args).await;
        let failure = content(&refused);
        assert_eq!(failure["code"], "workflow_input_invalid", "{failure}");
        let message = failure["message"].as_str().unwrap();
        assert!(message.contains(says), "{message}");
    }
    let unknown = call(
        &client,
        "run_workflow",
        json!({"pack": "editor", "workflow": "nope"}),
    )
    .await;
    assert_eq!(content(&unknown)["code"], "unknown_pack");
    assert_eq!(value_of(&fake).as_deref(), Some("Ada"), "nothing ran");
    let (fake, read_only, _home) = server(&[]).await;
    let args = json!({"pack": "editor", "workflow": "rename", "inputs": {"name": "Grace"}});
    let refused = call(&read_only, "run_workflow", args).await;
    assert_eq!(
        content(&refused)["code"],
        "input_not_allowed",
        "{refused:?}"
    );
    assert_eq!(value_of(&fake).as_deref(), Some("Ada"), "nothing ran");
    let none = call(&read_only, "disconnect", json!({"session": "s1"})).await;
    assert_eq!(
        content(&none)["code"],
        "unknown_session",
        "no session was opened"
    );
}

/// A step with no expect of its own gets its contract's: `quiet` holds only once the
/// checkbox is off (the fake's state), and `confirm`'s click fails its contract's expect
/// until the field says "done"; then `continue_run` finishes it.
#[tokio::test]
async fn contracts_give_expects_and_a_failed_run_continues() {
    let (fake, client, _home) = server(&["input"]).await;
    let quiet = call(
        &client,
        "run_workflow",
        json!({"pack": "editor", "workflow": "quiet"}),
    )
    .await;
    let run = content(&quiet);
    assert_eq!(run["passed"], true, "{run}");
    assert!(
        run["steps"][0]["expect"]
            .as_str()
            .unwrap()
            .starts_with("held"),
        "{run}"
    );
    assert_eq!(checked(&fake), Some(false));
    let session = run["session"].as_str().unwrap().to_owned();
    let args = json!({"pack": "editor", "workflow": "confirm", "session": session});
    let failed = call(&client, "run_workflow", args).await;
    let run = content(&failed);
    assert_eq!(run["code"], "step_postcondition_timeout", "{run}");
    assert_eq!(run["opened"], false);
    fake.edit(&id(":1.1", "/name"), |n| {
        n.node.value = Some(NodeValue::Text {
            text: "done".into(),
        })
    });
    let run_id = run["run_id"].as_str().unwrap();
    let continued = call(&client, "continue_run", json!({"run_id": run_id})).await;
    assert_eq!(content(&continued)["passed"], true, "{continued:?}");
}

/// `@pack/control` works in any tool's target in a session of the pack's app, and says
/// which selector it used; in another app's session it is refused, and so is the workflow.
#[tokio::test]
async fn controls_by_name_stay_in_their_app() {
    let (_fake, client, _home) = server(&["input"]).await;
    let session = |app: &str| json!({"app": app});
    let editor = call(&client, "connect", session("Editor")).await;
    let editor = content(&editor)["session"].as_str().unwrap().to_owned();
    let viewer = call(&client, "connect", session("Viewer")).await;
    let viewer = content(&viewer)["session"].as_str().unwrap().to_owned();
    let found = call(
        &client,
        "find",
        json!({"session": editor, "selector": "@editor/main >> @editor/ok"}),
    )
    .await;
    let found = content(&found);
    assert_eq!(
        found["total"], 1,
        "each name is replaced by its own selector: {found}"
    );
    let used = &found["controls"][0];
    assert_eq!(used["control"], "@editor/main");
    assert_eq!(
        (used["candidate"].as_u64(), used["found"].as_bool()),
        (Some(1), Some(true))
    );
    let args = json!({"session": viewer, "target": "@editor/ok"});
    let refused = call(&client, "click", args).await;
    assert_eq!(content(&refused)["code"], "pack_mismatch", "{refused:?}");
    let args = json!({"pack": "editor", "workflow": "quiet", "session": viewer});
    let refused = call(&client, "run_workflow", args).await;
    assert_eq!(content(&refused)["code"], "pack_mismatch", "{refused:?}");
    let args = json!({"session": editor, "target": "@editor/nothing"});
    let unknown = call(&client, "click", args).await;
    assert_eq!(content(&unknown)["code"], "unknown_pack", "{unknown:?}");
}

/// With the app not running, a server without `launch` says so; one with it tries the
/// pack's programs in order (the first is not installed) and runs the workflow in the app
/// started (the fake's checkbox in the new app is the oracle).
#[tokio::test]
async fn an_app_not_running_is_started_only_with_launch() {
    for grants in [&["input"][..], &["input", "launch"][..]] {
        let (fake, client, _home) = server(grants).await;
        fake.quit(&id(":1.1", "/"));
        let args = json!({"pack": "editor", "workflow": "quiet"});
        let quiet = call(&client, "run_workflow", args).await;
        let run = content(&quiet);
        if grants.contains(&"launch") {
            assert_eq!(run["passed"], true, "{run}");
            let apps = call(&client, "list_apps", json!({})).await;
            let started = content(&apps)["apps"].as_array().unwrap().len();
            assert_eq!(started, 2, "the Viewer and the Editor started");
            let restarted = fake.peek(&id(":1.3", "/notify")).unwrap();
            let on = restarted.states.get(deskpilot_core::model::State::Checked);
            assert_eq!(on, Some(false), "the started app's checkbox");
        } else {
            assert_eq!(run["code"], "app_not_running", "{run}");
        }
    }
}

/// Each listed workflow is a prompt whose arguments are its inputs; `prompts/get` converts
/// text to the input's type (a number that does not parse is refused) and answers with the
/// message asking for `run_workflow`, which then runs as asked.
#[tokio::test]
async fn workflows_are_prompts() {
    let (_fake, client, _home) = server(&["input"]).await;
    let prompts = client.list_all_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "editor.rename",
            "editor.quiet",
            "editor.confirm",
            "editor.count",
            "editor.secret_name"
        ]
    );
    let rename = &prompts[0].arguments.as_ref().unwrap()[0];
    assert_eq!(
        (rename.name.as_str(), rename.required),
        ("name", Some(true))
    );
    let get = |arguments: Value| {
        let mut params = rmcp::model::GetPromptRequestParams::new("editor.count");
        params.arguments = arguments.as_object().cloned();
        client.get_prompt(params)
    };
    let refused = get(json!({"limit": "many"})).await.unwrap_err().to_string();
    assert!(
        refused.contains("argument limit is not an integer"),
        "{refused}"
    );
    let refused = get(json!({"limit": "0"})).await.unwrap_err().to_string();
    assert!(
        refused.contains("/limit: value is less than the minimum of 1"),
        "{refused}"
    );
    let hidden = rmcp::model::GetPromptRequestParams::new("editor.secretly");
    assert!(
        client.get_prompt(hidden).await.is_err(),
        "a hidden workflow is no prompt"
    );
    let got = get(json!({"limit": "2"})).await.unwrap();
    let rmcp::model::ContentBlock::Text(text) = &got.messages[0].content else {
        panic!("{got:?}")
    };
    let asked = r#"run_workflow with {"inputs":{"limit":2},"pack":"editor","workflow":"count"}"#;
    assert!(text.text.contains(asked), "{}", text.text);
    let args = json!({"inputs": {"limit": 2}, "pack": "editor", "workflow": "count"});
    let run = call(&client, "run_workflow", args).await;
    assert_eq!(content(&run)["passed"], true, "{run:?}");
}

/// A program that started another app than the pack's is not taken for it: the workflow
/// is refused (`pack_mismatch`) and nothing runs in the app started.
#[tokio::test]
async fn a_started_program_that_is_another_app_is_refused() {
    let profile = json!({"main_window": {"app": "Editor"},
                         "launch": {"programs": ["viewer-as-editor"]}});
    let write = |dir: &Path| std::fs::write(dir.join("profile.json"), profile.to_string()).unwrap();
    let (fake, client, _home) = server_with(&["input", "launch"], write).await;
    fake.quit(&id(":1.1", "/"));
    fake.quit(&id(":1.2", "/"));
    let args = json!({"pack": "editor", "workflow": "quiet"});
    let refused = call(&client, "run_workflow", args).await;
    assert_eq!(content(&refused)["code"], "pack_mismatch", "{refused:?}");
    assert!(
        content(&refused).get("run_id").is_none(),
        "no step ran: {refused:?}"
    );
}
