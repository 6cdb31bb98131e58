//! Sessions over HTTP belong to their client, in process on the fake desktop: an MCP session
//! (2025-11-25) or a token (2026-07-28), through tools, pipelines and resources; freed when
//! the client ends or idles out. The oracles: the fake app's state, the engine's sessions.

use std::time::Duration;

use serde_json::{Value, json};

#[path = "support/http.rs"]
mod http_support;
mod support;
use http_support::*;

/// A resources/ request (`method` with `params`) in the 2025-11-25 MCP session `session`
/// opened with `token`; the answer.
async fn resources(
    addr: std::net::SocketAddr,
    token: &str,
    session: &str,
    method: &str,
    params: Value,
) -> Value {
    let auth = bearer(token);
    let headers = [
        ("authorization", auth.as_str()),
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let request = json!({"jsonrpc": "2.0", "id": 4, "method": method, "params": params});
    post(addr, &headers, &request).await.message()
}

#[tokio::test]
async fn a_session_belongs_to_the_mcp_session_that_opened_it() {
    let record = tempfile::tempdir().unwrap();
    let served = serve(|o| o.record = Some(record.path().to_owned())).await;
    let alice = initialize(served.addr, ALICE).await;
    let bob = initialize(served.addr, BOB).await;
    let (s, notify) = open_editor(served.addr, ALICE, &alice).await;

    // Bob, in his own MCP session, cannot use it nor see its tree or its recording.
    let refused = call_in(
        served.addr,
        BOB,
        &bob,
        "act",
        json!({"session": s, "target": notify, "verb": "toggle"}),
    )
    .await;
    assert_eq!(refused["code"], "unknown_session", "{refused}");
    let listed = resources(served.addr, BOB, &bob, "resources/list", json!({})).await;
    assert_eq!(listed["result"]["resources"], json!([]), "{listed}");
    let tree = json!({"uri": format!("deskpilot://session/{s}/tree")});
    let read = resources(served.addr, BOB, &bob, "resources/read", tree).await;
    assert!(read["error"].is_object(), "{read}");
    let recording = json!({"uri": format!("deskpilot://session/{s}/recording")});
    let read = resources(served.addr, BOB, &bob, "resources/read", recording.clone()).await;
    assert!(read["error"].is_object(), "{read}");
    // Alice reads hers.
    let read = resources(served.addr, ALICE, &alice, "resources/read", recording).await;
    let text = read["result"]["contents"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.starts_with(r#"{"kind":"header""#), "{read}");
    // Nor through a pipeline: its capture is not read, its restore not done.
    let run = call_in(
        served.addr,
        BOB,
        &bob,
        "run_steps",
        json!({"steps": [{"id": "off", "tool": "act",
            "args": {"session": s, "target": notify, "verb": "toggle"},
            "capture_before": {"target": "checkbox[name=Notify]", "restore": "on_failure"}}]}),
    )
    .await;
    assert_eq!(run["restores"][0]["status"], "not_captured", "{run}");
    assert_eq!(run["restores"][0]["code"], "unknown_session", "{run}");
    assert_eq!(run["steps"][0]["code"], "unknown_session", "{run}");
    // Even Alice's token in another MCP session is another client.
    let alice_again = initialize(served.addr, ALICE).await;
    let refused = call_in(
        served.addr,
        ALICE,
        &alice_again,
        "snapshot",
        json!({"session": s}),
    )
    .await;
    assert_eq!(refused["code"], "unknown_session");
    assert!(!notify_checked(&served.fake));

    // An MCP session is its opener's: Bob's token cannot use Alice's, nor end it.
    let auth = bearer(BOB);
    let hijack = [
        ("authorization", auth.as_str()),
        ("mcp-session-id", alice.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let list = json!({"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": {}});
    assert_eq!(post(served.addr, &hijack, &list).await.status, 404);
    assert_eq!(
        send(served.addr, "DELETE", "/mcp", &hijack, "")
            .await
            .status,
        404
    );
    let still = call_in(
        served.addr,
        ALICE,
        &alice,
        "snapshot",
        json!({"session": s}),
    )
    .await;
    assert!(still["tree"].is_string(), "{still}");

    // Ending Alice's MCP session closes her deskpilot session.
    let auth = bearer(ALICE);
    let ended = send(
        served.addr,
        "DELETE",
        "/mcp",
        &[("authorization", &auth), ("mcp-session-id", &alice)],
        "",
    )
    .await;
    assert!(ended.status < 300, "{}", ended.status);
    wait_until(|| served.engine.sessions_open().is_empty()).await;
}

#[tokio::test]
async fn stateless_sessions_belong_to_their_token_and_idle_out() {
    let served = serve(|o| o.idle = Duration::from_secs(2)).await;
    // A stale MCP session header does not make a stateless request another client's.
    let connected = call_stateless_with(
        served.addr,
        ALICE,
        &[("mcp-session-id", "stale")],
        "connect",
        json!({"app": "Editor"}),
    )
    .await;
    let s = connected["session"].as_str().unwrap().to_owned();
    let snapshot = call_stateless(served.addr, ALICE, "snapshot", json!({"session": s})).await;
    let notify = notify_ref(&snapshot);
    let refused = call_stateless(
        served.addr,
        BOB,
        "act",
        json!({"session": s, "target": notify, "verb": "toggle"}),
    )
    .await;
    assert_eq!(refused["code"], "unknown_session", "{refused}");
    assert!(!notify_checked(&served.fake));
    let toggled = call_stateless(
        served.addr,
        ALICE,
        "act",
        json!({"session": s, "target": notify, "verb": "toggle"}),
    )
    .await;
    assert_eq!(toggled["ok"], true, "{toggled}");
    assert!(notify_checked(&served.fake));
    assert_eq!(
        served.engine.sessions_open().len(),
        1,
        "closed before its time"
    );

    // Alice goes quiet: her sessions are closed.
    wait_until(|| served.engine.sessions_open().is_empty()).await;
}
