//! `deskpilot mcp --http` as a remote agent meets it: the official TypeScript SDK's clients
//! (npm, pinned by `cargo xtask install`) over streamable HTTP in both protocol eras, each
//! client keeping to its own sessions; and the gate's refusals, sent as raw HTTP. The oracle
//! is the GTK 3 fixture's event file: the clicks the agents made, and none from a refused
//! request.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::{Value, json};

#[path = "support/http.rs"]
mod http;
use http::{Served, call, raw, status};

const ALICE: &str = "alice-token-0123456789";
const BOB: &str = "bob-token-0123456789ab";

/// `deskpilot mcp ARGS...` over HTTP: `None` when it exits instead, with what it said.
fn serve(args: &[&str], env: &[(&str, &str)]) -> Result<Served, String> {
    http::start("mcp", args, env)
}

/// A request whose head goes first: the answer is read before the body is sent (a server
/// that waited for the body would get it, and act on it).
fn head_first(addr: SocketAddr, head: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = vec![0u8; 4096];
    let n = stream.read(&mut answer).unwrap_or(0);
    let _ = stream.write_all(body.as_bytes());
    String::from_utf8_lossy(&answer[..n]).into_owned()
}

/// The TypeScript SDK client script, run from where its packages are.
fn typescript(args: &[&str]) -> Value {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/mcp-node");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/client")
            .is_dir(),
        "the TypeScript SDKs are missing: run `cargo xtask install`"
    );
    let script = dir.join("http_client.mjs");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node/http_client.mjs"),
        &script,
    )
    .unwrap();
    let out = Command::new("node")
        .arg(&script)
        .args(args)
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{args:?}: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap()
}

#[test]
fn typescript_clients_work_over_http_and_the_gate_holds() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let tokens = desktop.dir().join("tokens");
    std::fs::write(&tokens, format!("# one per agent\n{ALICE}\n{BOB}\n")).unwrap();
    let served = serve(
        &[
            "--http",
            "127.0.0.1:0",
            "--token-file",
            tokens.to_str().unwrap(),
            "--allow",
            "input",
            "--bus",
            desktop.session_bus_address(),
            "--display",
            desktop.display(),
        ],
        &[],
    )
    .unwrap();
    let url = format!("http://{}/mcp", served.addr);
    let window = Fixture::Gtk3.window_title();

    // The gate first: nothing it refuses reaches the app.
    let health = raw(
        served.addr,
        &format!(
            "GET /healthz HTTP/1.1\r\nhost: {}\r\nconnection: close\r\n\r\n",
            served.addr
        ),
    );
    assert_eq!(status(&health), "200", "{health}");
    assert!(
        health.contains(&format!("X display {}", desktop.display())),
        "{health}"
    );
    let alice = format!("Bearer {ALICE}");
    let opened = call(
        served.addr,
        &[("authorization", &alice)],
        "connect",
        json!({"window": window}),
    );
    let session = http::session_in(&opened);
    let click = json!({"session": session, "target": "button[name=Count]"});
    let refused = [
        (
            "no token",
            call(served.addr, &[], "click", click.clone()),
            "401",
        ),
        (
            "a wrong token",
            call(
                served.addr,
                &[("authorization", "Bearer not-one-of-ours-at-all")],
                "click",
                click.clone(),
            ),
            "401",
        ),
        (
            "a foreign Origin",
            call(
                served.addr,
                &[
                    ("authorization", &alice),
                    ("origin", "http://evil.example.com"),
                ],
                "click",
                click.clone(),
            ),
            "403",
        ),
        (
            "a rebound Host",
            call(
                served.addr,
                &[("authorization", &alice), ("host", "evil.example.com")],
                "click",
                click.clone(),
            ),
            "403",
        ),
    ];
    for (what, response, expected) in &refused {
        assert_eq!(status(response), *expected, "{what}: {response}");
    }
    assert!(
        refused[0]
            .1
            .to_lowercase()
            .contains("www-authenticate: bearer")
    );
    let bob = format!("Bearer {BOB}");
    let foreign = call(
        served.addr,
        &[("authorization", &bob)],
        "click",
        click.clone(),
    );
    assert!(foreign.contains("unknown_session"), "{foreign}");
    // A real click, padded past the 4 MiB limit.
    let padded = format!(
        "{}{}",
        json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
            "params": {"name": "click", "arguments": click}}),
        " ".repeat(4 << 20)
    );
    let oversized = head_first(
        served.addr,
        &format!(
            "POST /mcp HTTP/1.1\r\nhost: {}\r\nauthorization: {alice}\r\n\
             content-type: application/json\r\naccept: application/json, text/event-stream\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n",
            served.addr,
            padded.len()
        ),
        &padded,
    );
    assert_eq!(status(&oversized), "413", "{oversized}");
    assert!(
        fixture
            .oracle
            .events()
            .unwrap()
            .iter()
            .all(|e| e.widget != "counter"),
        "a refused request reached the app"
    );

    // The TypeScript SDK's clients: v1 (2025-11-25) and v2 in both eras.
    let mut sessions = Vec::new();
    for (sdk, era, protocol) in [
        ("v1", "legacy", "2025-11-25"),
        ("v2", "legacy", "2025-11-25"),
        ("v2", "modern", "2026-07-28"),
    ] {
        let report = typescript(&[sdk, era, &url, ALICE, "task", window]);
        println!("{sdk} {era}: {report}");
        assert_eq!(report["protocol"], protocol, "{sdk} {era}: {report}");
        assert_eq!(
            report["mcp_session"].is_string(),
            era == "legacy",
            "{report}"
        );
        assert_eq!(report["clicked"], true, "{report}");
        let own = format!(
            "deskpilot://session/{}/tree",
            report["session"].as_str().unwrap()
        );
        assert!(
            report["resources"]
                .as_array()
                .unwrap()
                .contains(&json!(own)),
            "{report}"
        );
        sessions.push(report["session"].as_str().unwrap().to_owned());
    }
    fixture
        .oracle
        .wait_value("counter", "clicks", json!(3), Duration::from_secs(10))
        .unwrap();

    // Alice's stateless session is hers: not Bob's, nor an MCP session's, even her own.
    let modern = sessions.last().unwrap();
    for (sdk, era, token) in [("v2", "modern", BOB), ("v2", "legacy", ALICE)] {
        let report = typescript(&[sdk, era, &url, token, "steal", modern]);
        assert_eq!(report["code"], "unknown_session", "{sdk} {era}: {report}");
        assert_eq!(report["resources"], json!([]), "{report}");
    }
    let clicks: Vec<Value> = fixture
        .oracle
        .events()
        .unwrap()
        .into_iter()
        .filter(|e| e.is("counter", "clicks"))
        .map(|e| e.value)
        .collect();
    assert_eq!(clicks, [json!(1), json!(2), json!(3)]);
    drop(served);
    desktop.stop().unwrap();
}

#[test]
fn without_a_token_one_is_made_and_remote_serving_asks_more() {
    let runtime = std::env::temp_dir().join(format!("deskpilot-http-{}", std::process::id()));
    std::fs::create_dir_all(&runtime).unwrap();
    let runtime_dir = runtime.to_str().unwrap();
    let served = serve(
        &["--http", "127.0.0.1:0"],
        &[("XDG_RUNTIME_DIR", runtime_dir)],
    )
    .unwrap();
    let said = served.stderr.join("\n");
    let path = said
        .split("one is in ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no token file named: {said}"));
    assert!(path.starts_with(runtime_dir), "{path}");
    let token = std::fs::read_to_string(path).unwrap().trim().to_owned();
    assert!(!said.contains(&token), "the token was printed");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let list = |headers: &[(&str, &str)]| call(served.addr, headers, "list_apps", json!({}));
    assert_eq!(status(&list(&[])), "401");
    let bearer = format!("Bearer {token}");
    let listed = list(&[("authorization", &bearer)]);
    assert_eq!(status(&listed), "200", "{listed}");
    drop(served);

    let tokens = runtime.join("tokens");
    std::fs::write(&tokens, format!("{ALICE}\n")).unwrap();
    let token_file = tokens.to_str().unwrap();
    let refused = serve(&["--http", "0.0.0.0:0"], &[]).err().unwrap();
    assert!(refused.contains("not a loopback address"), "{refused}");
    let refused = serve(&["--http", "0.0.0.0:0", "--no-token"], &[])
        .err()
        .unwrap();
    assert!(refused.contains("loopback only"), "{refused}");
    let refused = serve(
        &[
            "--http",
            "0.0.0.0:0",
            "--token-file",
            token_file,
            "--allow",
            "launch",
        ],
        &[],
    )
    .err()
    .unwrap();
    assert!(refused.contains("--allow-remote-launch"), "{refused}");
    let remote = serve(
        &[
            "--http",
            "0.0.0.0:0",
            "--token-file",
            token_file,
            "--allow",
            "launch,input",
            "--allow-remote-launch",
        ],
        &[],
    );
    assert!(remote.is_ok(), "{:?}", remote.err());
    drop(remote);
    std::fs::remove_dir_all(&runtime).unwrap();
}
