//! MCP over HTTP in process, on the fake desktop, spoken as raw HTTP/1.1 so that requests no
//! SDK would send can be sent: the gate (401 without or with a wrong token, 403 for a foreign
//! Host or Origin, also with a valid token), the body limit (413) and slow clients (408, or the
//! connection closed), and sessions that belong to their client in both protocol eras, freed
//! when the client ends or idles out. The oracles: the fake app's state and input log, and the
//! engine's open sessions.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use deskpilot_fake::{FakeBackend, FakeInput, id};
use deskpilot_mcp::Grants;
use deskpilot_mcp::http::{HttpOptions, HttpServer, Tokens};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

mod support;

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" path=/win bounds=0,0,800,600
    checkbox "Notify" path=/notify actions=toggle bounds=10,50,80,30
"#;

const ALICE: &str = "alice-token-0123456789";
const BOB: &str = "bob-token-0123456789ab";

struct Served {
    addr: SocketAddr,
    fake: Arc<FakeBackend>,
    input: Arc<FakeInput>,
    engine: Arc<deskpilot_core::Engine>,
}

/// A server acting on the fake app, with Alice's and Bob's tokens and `tune`'s options.
async fn serve(tune: impl FnOnce(&mut HttpOptions)) -> Served {
    let (fake, input, engine) = support::fake_desktop(APP);
    let engine = Arc::new(engine);
    let tokens = Tokens::parse(&format!("{ALICE}\n{BOB}\n")).unwrap();
    let mut options = HttpOptions::new(
        "127.0.0.1:0".parse().unwrap(),
        Some(tokens),
        "the fake desktop".into(),
    );
    tune(&mut options);
    let grants = Grants::parse(&["input".to_owned()], None).unwrap();
    let server = HttpServer::bind(engine.clone(), grants, options)
        .await
        .unwrap();
    let addr = server.local_addr();
    tokio::spawn(server.serve());
    Served {
        addr,
        fake,
        input,
        engine,
    }
}

struct Reply {
    status: u16,
    headers: http::HeaderMap,
    body: String,
}

impl Reply {
    /// The JSON-RPC message in the body (plain JSON, or the data of an SSE event with an id).
    fn message(&self) -> Value {
        if let Ok(value) = serde_json::from_str(&self.body) {
            return value;
        }
        self.body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|m| m.get("id").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC reply in {:?}", self.body))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut request = http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Full::new(Bytes::from(body.to_owned())))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let body = body.collect().await.unwrap().to_bytes();
    Reply {
        status: parts.status.as_u16(),
        headers: parts.headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// A POST of a JSON-RPC message to /mcp with `extra` headers.
async fn post(addr: SocketAddr, extra: &[(&str, &str)], message: &Value) -> Reply {
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    headers.extend_from_slice(extra);
    send(addr, "POST", "/mcp", &headers, &message.to_string()).await
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A 2025-11-25 MCP session for `token`: its `Mcp-Session-Id`.
async fn initialize(addr: SocketAddr, token: &str) -> String {
    let auth = bearer(token);
    let reply = post(
        addr,
        &[("authorization", &auth)],
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}}),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let done = post(
        addr,
        &[
            ("authorization", &auth),
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(done.status, 202, "{}", done.body);
    session
}

/// Calls `tool` in the MCP session `session`; the tool's structured result.
async fn call_in(addr: SocketAddr, token: &str, session: &str, tool: &str, args: Value) -> Value {
    let auth = bearer(token);
    let reply = post(
        addr,
        &[
            ("authorization", &auth),
            ("mcp-session-id", session),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": tool, "arguments": args}}),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.message()["result"]["structuredContent"].clone()
}

/// Calls `tool` statelessly (2026-07-28) with `token`; the tool's structured result.
async fn call_stateless(addr: SocketAddr, token: &str, tool: &str, args: Value) -> Value {
    call_stateless_with(addr, token, &[], tool, args).await
}

/// `call_stateless` with `extra` headers.
async fn call_stateless_with(
    addr: SocketAddr,
    token: &str,
    extra: &[(&str, &str)],
    tool: &str,
    args: Value,
) -> Value {
    let auth = bearer(token);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let reply = post(
        addr,
        &[
            ("authorization", auth.as_str()),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", tool),
        ]
        .into_iter()
        .chain(extra.iter().copied())
        .collect::<Vec<_>>(),
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": tool, "arguments": args, "_meta": meta}}),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let message = reply.message();
    assert!(message["result"].is_object(), "{message}");
    message["result"]["structuredContent"].clone()
}

/// Connects to the Editor in the MCP session `mcp` and snapshots it: the deskpilot session
/// and the Notify checkbox's ref.
async fn open_editor(addr: SocketAddr, token: &str, mcp: &str) -> (String, String) {
    let connected = call_in(addr, token, mcp, "connect", json!({"app": "Editor"})).await;
    let session = connected["session"].as_str().unwrap().to_owned();
    let snapshot = call_in(addr, token, mcp, "snapshot", json!({"session": session})).await;
    (session, notify_ref(&snapshot))
}

/// The Notify checkbox's ref in a snapshot's result.
fn notify_ref(snapshot: &Value) -> String {
    snapshot["tree"]
        .as_str()
        .unwrap_or_else(|| panic!("no tree in {snapshot}"))
        .lines()
        .find(|l| l.contains("Notify"))
        .and_then(|l| l.split("[ref=").nth(1))
        .map(|r| r.trim_end_matches(']').to_owned())
        .unwrap()
}

fn notify_checked(fake: &FakeBackend) -> bool {
    fake.peek(&id(":1.1", "/notify"))
        .and_then(|n| n.states.get(deskpilot_core::model::State::Checked))
        .unwrap_or(false)
}

#[tokio::test]
async fn health_answers_without_a_token_and_mcp_asks_for_one() {
    let served = serve(|_| {}).await;
    let health = send(served.addr, "GET", "/healthz", &[], "").await;
    assert_eq!(health.status, 200);
    let health: Value = serde_json::from_str(&health.body).unwrap();
    assert_eq!(health["ok"], true);
    assert_eq!(health["desktop"], "the fake desktop");

    let toggle = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "list_apps", "arguments": {}}});
    let none = post(served.addr, &[], &toggle).await;
    assert_eq!(none.status, 401);
    assert_eq!(
        none.header("www-authenticate"),
        Some("Bearer realm=\"deskpilot\"")
    );
    let wrong = post(
        served.addr,
        &[("authorization", "Bearer not-a-token-of-ours")],
        &toggle,
    )
    .await;
    assert_eq!(wrong.status, 401);
    assert!(
        wrong
            .header("www-authenticate")
            .unwrap()
            .contains("invalid_token")
    );
    let elsewhere = send(served.addr, "GET", "/other", &[], "").await;
    assert_eq!(elsewhere.status, 404);
}

#[tokio::test]
async fn a_foreign_origin_or_host_is_refused_even_with_a_valid_token() {
    let served = serve(|_| {}).await;
    let session = initialize(served.addr, ALICE).await;
    let (s, notify) = open_editor(served.addr, ALICE, &session).await;
    let auth = bearer(ALICE);
    let toggle = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "act", "arguments": {"session": s, "target": notify, "verb": "toggle"}}});
    let base = [
        ("authorization", auth.as_str()),
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let mut foreign = base.to_vec();
    foreign.push(("origin", "http://evil.example.com"));
    let reply = post(served.addr, &foreign, &toggle).await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert!(reply.header("access-control-allow-origin").is_none());

    // A rebound name in Host: the request never reaches MCP.
    let stream = TcpStream::connect(served.addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut request = http::Request::post("/mcp").header("host", "evil.example.com:8931");
    for (name, value) in base {
        request = request.header(name, value);
    }
    let request = request
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(Full::new(Bytes::from(toggle.to_string())))
        .unwrap();
    assert_eq!(sender.send_request(request).await.unwrap().status(), 403);

    // The oracle: nothing reached the app.
    assert!(!notify_checked(&served.fake));
    assert!(served.input.sent().is_empty());
}

#[tokio::test]
async fn a_configured_origin_gets_cors_and_others_none() {
    let served = serve(|o| o.origins = vec!["https://console.example.com".into()]).await;
    let preflight = send(
        served.addr,
        "OPTIONS",
        "/mcp",
        &[
            ("origin", "https://console.example.com"),
            ("access-control-request-method", "POST"),
        ],
        "",
    )
    .await;
    assert_eq!(preflight.status, 204);
    assert_eq!(
        preflight.header("access-control-allow-origin"),
        Some("https://console.example.com")
    );
    assert!(
        preflight
            .header("access-control-allow-headers")
            .unwrap()
            .contains("authorization")
    );
    let own = send(
        served.addr,
        "OPTIONS",
        "/mcp",
        &[("origin", &format!("http://{}", served.addr))],
        "",
    )
    .await;
    assert_eq!(own.status, 405);
    assert!(own.header("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn an_oversized_body_is_refused_before_it_is_read_whole() {
    let served = serve(|o| o.body_limit = 64 << 10).await;
    let auth = bearer(ALICE);
    // Declared too large: refused before a byte of the body is sent.
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {}\r\nauthorization: {auth}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
        served.addr,
        64 << 20
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 1024];
    let n = stream.read(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");

    // Chunked, with no length said: refused once the limit is passed.
    let mut stream = TcpStream::connect(served.addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {}\r\nauthorization: {auth}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
        served.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = format!("{:x}\r\n{}\r\n", 16 << 10, "x".repeat(16 << 10));
    let mut answer = Vec::new();
    for _ in 0..8 {
        if stream.write_all(chunk.as_bytes()).await.is_err() {
            break;
        }
    }
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
}

#[tokio::test]
async fn slow_clients_are_cut_off() {
    let served = serve(|o| o.read_timeout = Duration::from_millis(300)).await;
    // Headers that never end: the connection is closed.
    let mut loris = TcpStream::connect(served.addr).await.unwrap();
    loris
        .write_all(format!("POST /mcp HTTP/1.1\r\nhost: {}\r\nx-slow: 1", served.addr).as_bytes())
        .await
        .unwrap();
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(60), loris.read_to_end(&mut rest)).await;
    assert!(
        read.is_ok(),
        "the server kept a slow client's connection open"
    );

    // A body that never comes: 408.
    let auth = bearer(ALICE);
    let mut slow = TcpStream::connect(served.addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {}\r\nauthorization: {auth}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{{",
        served.addr
    );
    slow.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(60), slow.read(&mut answer))
        .await
        .expect("no answer to a stalled body")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

#[tokio::test]
async fn a_session_belongs_to_the_mcp_session_that_opened_it() {
    let served = serve(|_| {}).await;
    let alice = initialize(served.addr, ALICE).await;
    let bob = initialize(served.addr, BOB).await;
    let (s, notify) = open_editor(served.addr, ALICE, &alice).await;

    // Bob, in his own MCP session, cannot use it nor see its tree.
    let refused = call_in(
        served.addr,
        BOB,
        &bob,
        "act",
        json!({"session": s, "target": notify, "verb": "toggle"}),
    )
    .await;
    assert_eq!(refused["code"], "unknown_session", "{refused}");
    let auth = bearer(BOB);
    let headers = [
        ("authorization", auth.as_str()),
        ("mcp-session-id", bob.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let listed = post(
        served.addr,
        &headers,
        &json!({"jsonrpc": "2.0", "id": 4, "method": "resources/list", "params": {}}),
    )
    .await
    .message();
    assert_eq!(listed["result"]["resources"], json!([]), "{listed}");
    let read = post(
        served.addr,
        &headers,
        &json!({"jsonrpc": "2.0", "id": 5, "method": "resources/read",
            "params": {"uri": format!("deskpilot://session/{s}/tree")}}),
    )
    .await
    .message();
    assert!(read["error"].is_object(), "{read}");
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

/// Waits for `done` (the server's sweeper runs on its own time), failing after a minute.
async fn wait_until(done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "never happened");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
