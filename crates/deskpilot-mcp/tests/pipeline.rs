//! Pipelines through the MCP server in process, on the fake backend, judged by the fake's
//! own state (the oracle), not by the run's report: references, expect, retries only where
//! safe, cleanup after a failure with a verified restore, continuing a run, refusals before
//! the first step, a cancel at a step boundary, secrets kept out.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::model::State;
use deskpilot_fake::{FakeBackend, FakeInput, id};
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
    textbox "Name" path=/name value=Ada bounds=10,90,200,30
    password "PIN" path=/pin bounds=10,130,200,30
    checkbox "Stiff" path=/stiff actions=click inert bounds=10,170,80,30
"#;

type Client = rmcp::service::RunningService<rmcp::RoleClient, ()>;

async fn server(grants: Grants) -> (Arc<FakeBackend>, Arc<FakeInput>, Client) {
    let (fake, input, engine) = support::fake_desktop(APP);
    let client = support::client_for(DeskpilotServer::with_grants(Arc::new(engine), grants)).await;
    (fake, input, client)
}

async fn acting() -> (Arc<FakeBackend>, Arc<FakeInput>, Client) {
    server(Grants::parse(&["input".to_owned()], None).unwrap()).await
}

fn content(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .expect("structured content")
}

fn statuses(run: &Value, part: &str) -> Vec<String> {
    run[part]
        .as_array()
        .map(|steps| {
            steps
                .iter()
                .map(|s| {
                    format!(
                        "{}={}",
                        s["id"].as_str().unwrap(),
                        s["status"].as_str().unwrap()
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn checked(fake: &FakeBackend) -> Option<bool> {
    fake.peek(&id(":1.1", "/notify"))
        .and_then(|n| n.states.get(State::Checked))
}

const OPEN: &str = r#"{"id": "open", "tool": "connect", "args": {"app": "Editor"}}"#;

fn open() -> Value {
    serde_json::from_str(OPEN).unwrap()
}

/// A run passes step by step: references carry one step's result into the next, and an
/// expect holds after the action (the fake's checkbox is off: the oracle).
#[tokio::test]
async fn a_run_carries_results_forward_and_judges_each_step() {
    let (fake, _, client) = acting().await;
    let result = call(
        &client,
        "run_steps",
        json!({"steps": [
            open(),
            {"id": "box", "tool": "find", "args": {"session": "${open.session}", "selector": "checkbox[name=Notify]"}},
            {"id": "off", "tool": "act",
             "args": {"session": "${open.session}", "target": "${box.matches.0.ref}", "verb": "toggle", "ensure": "off"},
             "expect": {"selector": "checkbox[name=Notify]", "state": "!checked", "timeout_ms": 2000}}
        ]}),
    )
    .await;
    let run = content(&result);
    assert_eq!(result.is_error, Some(false), "{run}");
    assert_eq!(
        statuses(run, "steps"),
        ["open=passed", "box=passed", "off=passed"]
    );
    assert_eq!(run["steps"][2]["effect"], "confirmed");
    assert!(
        run["steps"][2]["expect"]
            .as_str()
            .unwrap()
            .starts_with("held")
    );
    assert!(run["run_id"].as_str().unwrap().starts_with("run"));
    assert_eq!(checked(&fake), Some(false), "the fake's checkbox");
}

/// A step that fails in the middle stops the steps after it; the state captured before an
/// earlier step is put back and read back; `finally` runs; the run's failure is the failed
/// step's, never a cleanup's.
#[tokio::test]
async fn a_failure_in_the_middle_restores_and_cleans_up() {
    let (fake, _, client) = acting().await;
    let result = call(
        &client,
        "run_steps",
        json!({
            "steps": [
                open(),
                {"id": "off", "tool": "act",
                 "args": {"session": "${open.session}", "target": "checkbox[name=Notify]", "verb": "toggle", "ensure": "off"},
                 "capture_before": {"target": "checkbox[name=Notify]", "restore": "on_failure"}},
                {"id": "dialog", "tool": "click", "args": {"session": "${open.session}", "target": "button[name=OK]"},
                 "expect": {"selector": "dialog[name=Saved]", "timeout_ms": 300}},
                {"id": "never", "tool": "act", "args": {"session": "${open.session}", "target": "button[name=OK]", "verb": "focus"}}
            ],
            "finally": [
                {"id": "missing", "tool": "find", "args": {"session": "${open.session}", "selector": "button[name=Gone"}},
                {"id": "look", "tool": "get_properties", "args": {"session": "${open.session}", "target": "checkbox[name=Notify]"}}
            ]
        }),
    )
    .await;
    let run = content(&result);
    assert_eq!(result.is_error, Some(true));
    assert_eq!(run["code"], "step_postcondition_timeout", "{run}");
    // Its verbs are tool names, as in every tool's failure (no face markers).
    let hint = run["hint"].as_str().unwrap();
    assert!(hint.contains("snapshot") && !hint.contains('`'), "{hint}");
    assert_eq!(run["retryable"], true);
    assert_eq!(run["failed_step"], "dialog");
    assert_eq!(
        statuses(run, "steps"),
        [
            "open=passed",
            "off=passed",
            "dialog=failed",
            "never=not_run"
        ]
    );
    assert_eq!(run["restores"][0]["status"], "restored", "{run}");
    assert_eq!(run["restores"][0]["verified"], true);
    assert_eq!(checked(&fake), Some(true), "the checkbox is back on");
    assert_eq!(statuses(run, "finally"), ["missing=failed", "look=passed"]);
}

/// What cannot work is refused before anything runs: a retry of a step not safe to
/// repeat, a reference to a later step, an unknown tool; `validate_steps` lists each with
/// its step.
#[tokio::test]
async fn problems_are_found_before_any_step_runs() {
    let (_, input, client) = acting().await;
    let steps = json!({"steps": [
        open(),
        {"id": "press", "tool": "click", "args": {"session": "${open.session}", "target": "button[name=OK]"}, "retry": 3},
        {"id": "early", "tool": "find", "args": {"session": "${late.session}", "selector": "button"}},
        {"id": "late", "tool": "frobnicate", "args": {}},
        {"id": "self", "tool": "run_steps", "args": {}}
    ]});
    let checked = call(&client, "validate_steps", steps.clone()).await;
    let report = content(&checked);
    assert_eq!(report["valid"], false);
    let problems: Vec<String> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{}:{}",
                p["step"].as_str().unwrap(),
                p["problem"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        problems,
        [
            "press:unsafe_retry",
            "early:dangling_reference",
            "late:unknown_tool",
            "self:not_a_step"
        ]
    );
    let ran = call(&client, "run_steps", steps).await;
    assert_eq!(content(&ran)["code"], "invalid_arguments");
    assert!(
        input.sent().is_empty(),
        "nothing was sent: {:?}",
        input.sent()
    );
    let fine = call(&client, "validate_steps", json!({"steps": [open()]})).await;
    assert_eq!(content(&fine)["valid"], true);
}

/// A read-only server runs a pipeline that only reads, and refuses one with an acting step
/// before its first step.
#[tokio::test]
async fn a_read_only_server_runs_reads_and_refuses_acts() {
    let (fake, _, client) = server(Grants::read_only()).await;
    let reads = call(
        &client,
        "run_steps",
        json!({"steps": [open(), {"id": "look", "tool": "snapshot", "args": {"session": "${open.session}"}}]}),
    )
    .await;
    assert_eq!(reads.is_error, Some(false), "{:?}", reads.content);
    let acts = call(
        &client,
        "run_steps",
        json!({"steps": [open(), {"id": "off", "tool": "act", "args": {"session": "${open.session}", "target": "checkbox[name=Notify]", "verb": "toggle"}}]}),
    )
    .await;
    assert_eq!(content(&acts)["code"], "input_not_allowed");
    assert_eq!(checked(&fake), Some(true));
}

/// A failed run goes on from its failed step once the cause is gone, with the earlier
/// steps' results (the session it opened); once its window is gone it is refused.
#[tokio::test]
async fn a_failed_run_continues_while_its_window_is_the_same() {
    let (fake, _, client) = acting().await;
    let first = call(
        &client,
        "run_steps",
        json!({"steps": [
            open(),
            {"id": "wait", "tool": "wait_for", "args": {"session": "${open.session}", "selector": "button[name=Apply]", "timeout_ms": 200}},
            {"id": "apply", "tool": "act", "args": {"session": "${open.session}", "target": "button[name=Apply]", "verb": "focus"}}
        ]}),
    )
    .await;
    let run = content(&first);
    assert_eq!(run["failed_step"], "wait", "{run}");
    let run_id = run["run_id"].as_str().unwrap().to_owned();
    fake.edit(&id(":1.1", "/ok"), |n| n.node.name = "Apply".into());
    let second = call(&client, "continue_run", json!({"run_id": run_id})).await;
    let run = content(&second);
    assert_eq!(second.is_error, Some(false), "{run}");
    assert_eq!(
        statuses(run, "steps"),
        ["open=passed", "wait=passed", "apply=passed"]
    );
    assert_eq!(
        fake.peek(&id(":1.1", "/ok"))
            .unwrap()
            .states
            .get(State::Focused),
        Some(true),
        "the continued step acted"
    );
    // Its window closed: the run cannot go on.
    let again = call(
        &client,
        "continue_run",
        json!({"run_id": run_id, "from": "apply"}),
    )
    .await;
    assert_eq!(again.is_error, Some(false));
    fake.remove(&id(":1.1", "/win"));
    let refused = call(
        &client,
        "continue_run",
        json!({"run_id": run_id, "from": "apply"}),
    )
    .await;
    assert_eq!(
        content(&refused)["code"],
        "window_changed",
        "{:?}",
        refused.content
    );
    let unknown = call(&client, "continue_run", json!({"run_id": "run99"})).await;
    assert_eq!(content(&unknown)["code"], "unknown_run");
}

/// A secret typed in a run is in no result, and the kept run does not hold it: continuing
/// through that step needs it again.
#[tokio::test]
async fn a_secret_is_never_echoed_nor_kept() {
    let (_, input, client) = acting().await;
    let result = call(
        &client,
        "run_steps",
        json!({"steps": [
            open(),
            {"id": "pin", "tool": "type_text", "args": {"session": "${open.session}", "target": "password", "text": "8642", "secret": true}},
            {"id": "wait", "tool": "wait_for", "args": {"session": "${open.session}", "selector": "button[name=Done]", "timeout_ms": 100}}
        ]}),
    )
    .await;
    let text = format!("{:?}", result);
    assert!(!text.contains("8642"), "{text}");
    let typed: Vec<String> = input
        .sent()
        .into_iter()
        .filter(|s| s.starts_with("text"))
        .collect();
    assert_eq!(typed, ["text 4 chars"], "typed once");
    let run_id = content(&result)["run_id"].as_str().unwrap().to_owned();
    let refused = call(
        &client,
        "continue_run",
        json!({"run_id": run_id, "from": "pin"}),
    )
    .await;
    let refused = content(&refused);
    assert_eq!(refused["code"], "invalid_arguments");
    assert!(
        refused["message"].as_str().unwrap().contains("secrets"),
        "{refused}"
    );
}

/// A cancelled run stops at the next step boundary and still runs `finally`: the step it
/// was in ends (it only waited), the one after never acts, the cleanup does (the fake's
/// states say so).
#[tokio::test]
async fn a_cancelled_run_stops_between_steps_and_cleans_up() {
    let (fake, _, client) = acting().await;
    let opened = call(&client, "connect", json!({"app": "Editor"})).await;
    let session = content(&opened)["session"].as_str().unwrap().to_owned();
    let params = rmcp::model::CallToolRequestParams::new("run_steps").with_arguments(
        json!({
            "steps": [
                {"id": "first", "tool": "act", "args": {"session": session, "target": "textbox[name=Name]", "verb": "focus"}},
                {"id": "slow", "tool": "wait_for", "args": {"session": session, "selector": "button[name=Later]", "timeout_ms": 5000}},
                {"id": "after", "tool": "act", "args": {"session": session, "target": "checkbox[name=Notify]", "verb": "toggle"}}
            ],
            "finally": [
                {"id": "cleanup", "tool": "act", "args": {"session": session, "target": "checkbox[name=Notify]", "verb": "focus"}}
            ]
        })
        .as_object()
        .cloned()
        .unwrap(),
    );
    let handle = client
        .send_cancellable_request(
            rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(params)),
            rmcp::service::PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let focused = |path: &str| {
        fake.peek(&id(":1.1", path))
            .and_then(|n| n.states.get(State::Focused))
            == Some(true)
    };
    let until = |path: &'static str| {
        let focused = &focused;
        async move {
            tokio::time::timeout(Duration::from_secs(5), async {
                while !focused(path) {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
            .await
        }
    };
    until("/name").await.expect("the first step acted");
    // Cancelled during the slow step; a call answered after the cancel means the server has
    // read it (messages are read in order). Then the slow step's wait ends.
    handle.cancel(None).await.unwrap();
    call(&client, "list_apps", json!({})).await;
    fake.edit(&id(":1.1", "/ok"), |n| n.node.name = "Later".into());
    until("/notify")
        .await
        .expect("finally ran after the cancel");
    assert_eq!(
        checked(&fake),
        Some(true),
        "the step after the cancel never ran"
    );
}

/// `mode: background` refuses, before its first step, a run with a step that needs the
/// foreground, naming it; a run whose actions have semantic routes runs and says it took no
/// foreground (the fake's input log: nothing sent).
#[tokio::test]
async fn a_background_run_never_takes_the_foreground() {
    let (fake, input, client) = acting().await;
    let refused = call(
        &client,
        "run_steps",
        json!({"mode": "background", "steps": [
            open(),
            {"id": "off", "tool": "act", "args": {"session": "${open.session}", "target": "checkbox[name=Notify]", "verb": "toggle"}},
            {"id": "keys", "tool": "press_key", "args": {"session": "${open.session}", "key": "Escape"}}
        ]}),
    )
    .await;
    let refused = content(&refused);
    assert_eq!(refused["code"], "invalid_arguments");
    assert!(
        refused["message"].as_str().unwrap().contains("\"keys\""),
        "{refused}"
    );
    assert_eq!(checked(&fake), Some(true), "no step ran");
    let ran = call(
        &client,
        "run_steps",
        json!({"mode": "background", "steps": [
            open(),
            {"id": "off", "tool": "act", "args": {"session": "${open.session}", "target": "checkbox[name=Notify]", "verb": "toggle"}}
        ]}),
    )
    .await;
    let run = content(&ran);
    assert_eq!(ran.is_error, Some(false), "{run}");
    assert_eq!(checked(&fake), Some(false));
    assert!(run.get("interaction").is_none(), "{run}");
    assert!(input.sent().is_empty(), "{:?}", input.sent());
}

/// In `mode: background` a step whose element answers only to the pointer is not sent: the
/// step's own action stays in the background (the fake's input log and the checkbox are the
/// oracle), and the run fails saying why.
#[tokio::test]
async fn a_background_step_takes_no_pointer_rung() {
    let (fake, input, client) = acting().await;
    let ran = call(
        &client,
        "run_steps",
        json!({"mode": "background", "steps": [
            open(),
            {"id": "on", "tool": "act", "args": {"session": "${open.session}", "target": "checkbox[name=Stiff]", "verb": "toggle", "ensure": "on"}}
        ]}),
    )
    .await;
    let run = content(&ran);
    assert_eq!(ran.is_error, Some(true), "{run}");
    assert!(run.to_string().contains("background mode"), "{run}");
    assert!(input.sent().is_empty(), "{:?}", input.sent());
    let stiff = fake.peek(&id(":1.1", "/stiff")).unwrap();
    assert_ne!(stiff.states.get(State::Checked), Some(true));
}

/// `mode: give_back`: a run whose step had to raise the window and point gives both back
/// afterwards: the window active before is active again, the pointer where it was (the
/// fake's input log and window manager are the oracle).
#[tokio::test]
async fn a_give_back_run_returns_the_foreground_and_the_pointer() {
    use deskpilot_core::platform::{InputDevice, WindowSystem};
    let (fake, input, client) = acting().await;
    let theirs = deskpilot_core::WindowId(0x999);
    input.activate_window(theirs).await.unwrap();
    input.move_pointer(700, 500).await.unwrap();
    let ran = call(
        &client,
        "run_steps",
        json!({"mode": "give_back", "steps": [
            open(),
            {"id": "on", "tool": "act", "args": {"session": "${open.session}", "target": "checkbox[name=Stiff]", "verb": "toggle", "ensure": "on"}}
        ]}),
    )
    .await;
    let run = content(&ran);
    assert_eq!(ran.is_error, Some(false), "{run}");
    assert_eq!(
        fake.peek(&id(":1.1", "/stiff"))
            .unwrap()
            .states
            .get(State::Checked),
        Some(true),
        "the pointer did it"
    );
    assert_eq!(
        run["interaction"],
        json!([
            "foreground_changed",
            "foreground_given_back",
            "pointer_given_back",
            "pointer_moved",
            "raised_window"
        ])
    );
    assert_eq!(input.active_window().await.unwrap(), Some(theirs));
    assert_eq!(input.pointer().await.unwrap(), Some((700, 500)));
}

/// One deadline for the whole run: a step still waiting when the steps' share of it ends
/// fails, and the cleanup runs in the share kept for it; a pipeline over the step limit is
/// refused; a password field's state is never captured.
#[tokio::test]
async fn the_deadline_the_limits_and_a_password_are_kept() {
    let (_, _, client) = acting().await;
    let result = call(
        &client,
        "run_steps",
        json!({"timeout_ms": 1000, "steps": [
            open(),
            {"id": "long", "tool": "wait_for", "args": {"session": "${open.session}", "selector": "dialog", "timeout_ms": 60000}},
            {"id": "pin", "tool": "get_focus", "args": {"session": "${open.session}"},
             "capture_before": {"target": "password", "restore": "always"}}
        ], "finally": [
            {"id": "look", "tool": "get_focus", "args": {"session": "${open.session}"}}
        ]}),
    )
    .await;
    let run = content(&result);
    assert_eq!(run["failed_step"], "long", "{run}");
    assert!(
        run["message"].as_str().unwrap().contains("deadline"),
        "{run}"
    );
    assert_eq!(statuses(run, "finally"), ["look=passed"]);
    // The password is never read for a restore.
    let captured = call(
        &client,
        "run_steps",
        json!({"steps": [
            open(),
            {"id": "pin", "tool": "get_focus", "args": {"session": "${open.session}"},
             "capture_before": {"target": "password", "restore": "always"}}
        ]}),
    )
    .await;
    let run = content(&captured);
    assert_eq!(run["restores"][0]["status"], "not_captured", "{run}");
    let steps: Vec<Value> = (0..51)
        .map(|n| json!({"id": format!("s{n}"), "tool": "list_apps"}))
        .collect();
    let many = call(&client, "validate_steps", json!({"steps": steps})).await;
    assert_eq!(content(&many)["problems"][0]["problem"], "too_many_steps");
}

/// A step with a `when` runs only if its condition holds: clicking the dialog's OK is
/// skipped while no dialog is open (the run still passes, nothing clicked), and done once
/// one is (the fake's dialog is gone: the oracle).
#[tokio::test]
async fn a_step_runs_only_when_its_condition_holds() {
    let (fake, _, client) = acting().await;
    let steps = |session: &str| {
        json!({"steps": [
            {"id": "confirm", "tool": "click",
             "args": {"session": session, "target": "dialog[name=Saved] >> button[name=OK]"},
             "when": {"selector": "dialog[name=Saved]", "timeout_ms": 200}},
            {"id": "after", "tool": "get_focus", "args": {"session": session}}
        ]})
    };
    let connected = call(&client, "connect", json!({"app": "Editor"})).await;
    let session = content(&connected)["session"].as_str().unwrap().to_owned();
    let skipped = call(&client, "run_steps", steps(&session)).await;
    let run = content(&skipped);
    assert_eq!(run["passed"], true, "{run}");
    assert_eq!(statuses(run, "steps"), ["confirm=skipped", "after=passed"]);
    let dialog = r#"
application "Editor" pid=42 toolkit=GTK
  dialog "Saved" path=/saved bounds=100,100,200,100
    button "OK" path=/saved-ok actions=click bounds=120,150,60,30
"#;
    let mut parsed = deskpilot_fake::parse_app(dialog, ":1.1").unwrap();
    let saved = parsed.root.children.remove(0);
    fake.edit(&id(":1.1", "/win"), |window| window.children.push(saved));
    let clicked = call(&client, "run_steps", steps(&session)).await;
    let run = content(&clicked);
    assert_eq!(
        statuses(run, "steps"),
        ["confirm=passed", "after=passed"],
        "{run}"
    );
    let performed = fake.performed();
    let ok = id(":1.1", "/saved-ok");
    assert!(performed.iter().any(|(at, _)| at == &ok), "{performed:?}");
}
