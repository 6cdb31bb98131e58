//! The HTTP tests' client side: a server on the fake desktop with Alice's and Bob's tokens,
//! raw HTTP/1.1 requests, and the MCP calls built on them (both protocol eras).
#![allow(dead_code)] // each test file uses some

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
use tokio::net::TcpStream;

pub const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" path=/win bounds=0,0,800,600
    checkbox "Notify" path=/notify actions=toggle bounds=10,50,80,30
"#;

pub const ALICE: &str = "alice-token-0123456789";
pub const BOB: &str = "bob-token-0123456789ab";

pub struct Served {
    pub addr: SocketAddr,
    pub fake: Arc<FakeBackend>,
    pub input: Arc<FakeInput>,
    pub engine: Arc<deskpilot_core::Engine>,
}

/// A server acting on the fake app, with Alice's and Bob's tokens and `tune`'s options.
pub async fn serve(tune: impl FnOnce(&mut HttpOptions)) -> Served {
    let (fake, input, engine) = super::support::fake_desktop(APP);
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

pub struct Reply {
    pub status: u16,
    pub headers: http::HeaderMap,
    pub body: String,
}

impl Reply {
    /// The JSON-RPC message in the body (plain JSON, or the data of an SSE event with an id).
    pub fn message(&self) -> Value {
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

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

pub async fn send(
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
pub async fn post(addr: SocketAddr, extra: &[(&str, &str)], message: &Value) -> Reply {
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    headers.extend_from_slice(extra);
    send(addr, "POST", "/mcp", &headers, &message.to_string()).await
}

pub fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A 2025-11-25 MCP session for `token`: its `Mcp-Session-Id`.
pub async fn initialize(addr: SocketAddr, token: &str) -> String {
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
pub async fn call_in(
    addr: SocketAddr,
    token: &str,
    session: &str,
    tool: &str,
    args: Value,
) -> Value {
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
pub async fn call_stateless(addr: SocketAddr, token: &str, tool: &str, args: Value) -> Value {
    call_stateless_with(addr, token, &[], tool, args).await
}

/// `call_stateless` with `extra` headers.
pub async fn call_stateless_with(
    addr: SocketAddr,
    token: &str,
    extra: &[(&str, &str)],
    tool: &str,
    args: Value,
) -> Value {
    let params = json!({"name": tool, "arguments": args});
    let reply = stateless(addr, token, ("tools/call", Some(tool)), extra, params).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let message = reply.message();
    assert!(message["result"].is_object(), "{message}");
    message["result"]["structuredContent"].clone()
}

/// A 2026-07-28 request: `method` (and the `Mcp-Name` it names) with `params`, its `_meta`
/// added, and `extra` headers.
pub async fn stateless(
    addr: SocketAddr,
    token: &str,
    (method, name): (&str, Option<&str>),
    extra: &[(&str, &str)],
    mut params: Value,
) -> Reply {
    let auth = bearer(token);
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let mut headers = vec![
        ("authorization", auth.as_str()),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
    ];
    headers.extend(name.map(|name| ("mcp-name", name)));
    headers.extend_from_slice(extra);
    let message = json!({"jsonrpc": "2.0", "id": 3, "method": method, "params": params});
    post(addr, &headers, &message).await
}

/// Connects to the Editor in the MCP session `mcp` and snapshots it: the deskpilot session
/// and the Notify checkbox's ref.
pub async fn open_editor(addr: SocketAddr, token: &str, mcp: &str) -> (String, String) {
    let connected = call_in(addr, token, mcp, "connect", json!({"app": "Editor"})).await;
    let session = connected["session"].as_str().unwrap().to_owned();
    let snapshot = call_in(addr, token, mcp, "snapshot", json!({"session": session})).await;
    (session, notify_ref(&snapshot))
}

/// The Notify checkbox's ref in a snapshot's result.
pub fn notify_ref(snapshot: &Value) -> String {
    snapshot["tree"]
        .as_str()
        .unwrap_or_else(|| panic!("no tree in {snapshot}"))
        .lines()
        .find(|l| l.contains("Notify"))
        .and_then(|l| l.split("[ref=").nth(1))
        .map(|r| r.trim_end_matches(']').to_owned())
        .unwrap()
}

pub fn notify_checked(fake: &FakeBackend) -> bool {
    fake.peek(&id(":1.1", "/notify"))
        .and_then(|n| n.states.get(deskpilot_core::model::State::Checked))
        .unwrap_or(false)
}

/// Waits for `done` (the server's sweeper runs on its own time), failing after a minute.
pub async fn wait_until(done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "never happened");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A stateless request for `method` (2026-07-28): its HTTP status and JSON-RPC reply.
pub async fn call_stateless_reply(addr: SocketAddr, token: &str, method: &str) -> (u16, Value) {
    let reply = stateless(addr, token, (method, None), &[], json!({})).await;
    (reply.status, reply.message())
}
