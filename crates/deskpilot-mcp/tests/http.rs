//! MCP over HTTP in process, on the fake desktop, spoken as raw HTTP/1.1 so that requests no
//! SDK would send can be sent: the gate (401 without or with a wrong token, 403 for a foreign
//! Host or Origin, also with a valid token), the body limit (413), slow clients (408, or the
//! connection closed) and JSON-RPC's edges. The oracles: the fake app's state and input log.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[path = "support/http.rs"]
mod http_support;
mod support;
use http_support::*;

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

/// What no well-behaved client sends, each answered with JSON-RPC's error and a 4xx; an
/// unknown method is -32601; a notification gets 202 and no body.
#[tokio::test]
async fn json_rpc_edges_are_answered_over_http() {
    let served = serve(|_| {}).await;
    let auth = bearer(ALICE);
    for (what, body, code) in [
        ("invalid UTF-8", b"\xff\xfe{}".to_vec(), -32700),
        (
            "deep nesting",
            [vec![b'['; 100_000], vec![b']'; 100_000]].concat(),
            -32700,
        ),
        (
            "a batch",
            br#"[{"jsonrpc":"2.0","id":3,"method":"ping"}]"#.to_vec(),
            -32600,
        ),
        ("a bare number", b"42".to_vec(), -32600),
        ("no JSON", b"{this is not json".to_vec(), -32700),
        ("no method", br#"{"jsonrpc":"2.0","id":9}"#.to_vec(), -32600),
    ] {
        let mut stream = TcpStream::connect(served.addr).await.unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nhost: {}\r\nauthorization: {auth}\r\n\
             content-type: application/json\r\naccept: application/json, text/event-stream\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n",
            served.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(&body).await.unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "{what}: {answer}");
        let json = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
        let reply: Value =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{what}: {e}: {answer}"));
        assert_eq!(reply["error"]["code"], code, "{what}: {reply}");
        assert!(reply.get("id").is_some(), "{what}: {reply}");
    }
    let unknown = call_stateless_reply(served.addr, ALICE, "no/such/method").await;
    assert_eq!(unknown.0, 404, "{:?}", unknown);
    assert_eq!(unknown.1["error"]["code"], -32601);
    let session = initialize(served.addr, ALICE).await;
    let notified = post(
        served.addr,
        &[
            ("authorization", &auth),
            ("mcp-session-id", &session),
            ("mcp-protocol-version", "2025-11-25"),
        ],
        &json!({"jsonrpc": "2.0", "method": "notifications/no_such_thing"}),
    )
    .await;
    assert_eq!((notified.status, notified.body.as_str()), (202, ""));
}
