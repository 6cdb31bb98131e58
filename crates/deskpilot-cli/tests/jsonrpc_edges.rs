//! `deskpilot mcp` on stdio meets what no well-behaved host sends, with no desktop at all:
//! invalid UTF-8, 100,000-deep nesting, a batch, bare values, an unknown method, and
//! notifications that expect no answer. Each gets its JSON-RPC error (or, for a
//! notification, nothing), and the server keeps serving.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

#[test]
fn stdio_answers_every_malformed_message_and_keeps_serving() {
    let home = std::env::temp_dir().join(format!("deskpilot-edges-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_deskpilot"))
        .arg("mcp")
        .env_remove("DISPLAY")
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env("XDG_RUNTIME_DIR", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let (lines, replies) = mpsc::channel::<Value>();
    let stdout = BufReader::new(server.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            let _ = lines.send(serde_json::from_str(&line).expect("only JSON on stdout"));
        }
    });
    let mut send = |bytes: &[u8]| {
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    let next = || {
        replies
            .recv_timeout(Duration::from_secs(30))
            .expect("an answer")
    };
    send(
        &serde_json::to_vec(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "edges", "version": "0"}}}),
        )
        .unwrap(),
    );
    assert_eq!(next()["id"], 1);
    send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    let cases: [(&str, Vec<u8>, i64); 6] = [
        ("invalid UTF-8", b"\xff\xfe{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}".to_vec(), -32700),
        ("deep nesting", [vec![b'['; 100_000], vec![b']'; 100_000]].concat(), -32700),
        (
            "a batch",
            br#"[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"ping"}]"#.to_vec(),
            -32600,
        ),
        ("a bare number", b"42".to_vec(), -32600),
        ("a bare string", br#""ping""#.to_vec(), -32600),
        ("an empty batch", b"[]".to_vec(), -32600),
    ];
    for (what, bytes, code) in cases {
        send(&bytes);
        let reply = next();
        assert_eq!(reply["error"]["code"], code, "{what}: {reply}");
        assert!(
            reply.get("id").is_some_and(Value::is_null),
            "{what}: the id member: {reply}"
        );
    }
    send(br#"{"jsonrpc":"2.0","id":5,"method":"no/such/method"}"#);
    let reply = next();
    assert_eq!(
        (reply["id"].clone(), reply["error"]["code"].clone()),
        (json!(5), json!(-32601))
    );

    // Notifications get no answer: the next message is the ping's.
    send(br#"{"jsonrpc":"2.0","method":"notifications/no_such_thing"}"#);
    send(br#"{"jsonrpc":"2.0","method":"no/such/notification","params":{"x":[1,2]}}"#);
    send(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}"#);
    send(br#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#);
    let reply = next();
    assert_eq!(reply["id"], 6, "something answered a notification: {reply}");
    assert_eq!(reply["result"], json!({}));

    // Closing stdin ends the server.
    drop(stdin);
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&home);
}
