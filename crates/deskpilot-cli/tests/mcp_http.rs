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

use deskpilot_linux::headless::procs::{Memory, memory_kb};
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

/// `deskpilot mcp` over HTTP on `desktop` with `args`, for ALICE and BOB.
fn serve_alice_and_bob(desktop: &VirtualDesktop, args: &[&str]) -> Served {
    let tokens = desktop.dir().join("tokens");
    std::fs::write(&tokens, format!("# one per agent\n{ALICE}\n{BOB}\n")).unwrap();
    let mut all = vec![
        "--http",
        "127.0.0.1:0",
        "--token-file",
        tokens.to_str().unwrap(),
    ];
    all.extend(["--bus", desktop.session_bus_address()]);
    all.extend(["--display", desktop.display()]);
    all.extend(args);
    serve(&all, &[]).unwrap()
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
    let served = serve_alice_and_bob(&desktop, &["--allow", "input"]);
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

/// A `subscriptions/listen` request (2026-07-28) for `uris`, as raw HTTP.
fn listen_request(addr: SocketAddr, token: &str, uris: &[String]) -> String {
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": {
        "notifications": {"resourceSubscriptions": uris}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "stalled", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string();
    format!(
        "POST /mcp HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {token}\r\n\
         content-type: application/json\r\naccept: application/json, text/event-stream\r\n\
         mcp-protocol-version: 2026-07-28\r\nmcp-method: subscriptions/listen\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// The kernel's view of a TCP connection, one end's socket (/proc/net/tcp).
struct TcpEntry {
    /// 01 established, 04 FIN_WAIT1 (closed by this end, its FIN not yet sent).
    state: String,
    /// Bytes this end holds to send.
    queued: u64,
    /// The socket's inode; 0 once no process holds it.
    inode: u64,
}

/// The socket from `local` to `remote`, as the kernel sees it.
fn tcp_entry(local: SocketAddr, remote: SocketAddr) -> Option<TcpEntry> {
    let hex = |a: SocketAddr| match a {
        SocketAddr::V4(v4) => format!(
            "{:08X}:{:04X}",
            u32::from_le_bytes(v4.ip().octets()),
            v4.port()
        ),
        SocketAddr::V6(_) => unreachable!("the test listens on IPv4"),
    };
    let (local, remote) = (hex(local), hex(remote));
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    table.lines().skip(1).find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let queues = fields[4].split(':').next().unwrap();
        (fields[1] == local && fields[2] == remote).then(|| TcpEntry {
            state: fields[3].to_owned(),
            queued: u64::from_str_radix(queues, 16).unwrap(),
            inode: fields[9].parse().unwrap(),
        })
    })
}

/// The server's resident memory, in kB.
fn rss_kb(pid: u32) -> u64 {
    memory_kb(pid, Memory::Resident).expect("the server runs")
}

/// A client that opens an event stream and never reads it, while its app changes without
/// end: the server's buffers for it are bounded (its memory stays flat), and once nothing
/// could be sent for `--send-timeout` the server drops the connection (the kernel's table
/// says the server let go of its socket), and what the client finally reads is bounded and
/// ends. Other clients are served throughout.
#[test]
fn a_client_that_never_reads_its_event_stream_is_dropped() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let served = serve_alice_and_bob(&desktop, &["--send-timeout", "2"]);
    let alice = format!("Bearer {ALICE}");
    let window = Fixture::Gtk3.window_title();
    // Many subscriptions to one busy app: the stream fills the socket's buffers quickly.
    let uris: Vec<String> = (0..32)
        .map(|_| {
            let opened = call(
                served.addr,
                &[("authorization", &alice)],
                "connect",
                json!({"window": window}),
            );
            format!("deskpilot://session/{}/tree", http::session_in(&opened))
        })
        .collect();
    fixture
        .command(
            "burst",
            json!({"changes": 1_000_000, "per_tick": 5, "tick_ms": 10}),
        )
        .unwrap();
    let mut stalled = TcpStream::connect(served.addr).unwrap();
    stalled
        .write_all(listen_request(served.addr, ALICE, &uris).as_bytes())
        .unwrap();
    let before = rss_kb(served.child.id());
    let ours = stalled.local_addr().unwrap();
    let (mut most_queued, mut accepted) = (0, false);
    // Not held before the server accepts it; not held again once the server let it go.
    let dropped = deskpilot_linux::headless::wait::until(Duration::from_secs(120), || {
        let entry = tcp_entry(served.addr, ours)?;
        most_queued = most_queued.max(entry.queued);
        accepted |= entry.inode != 0;
        (accepted && entry.inode == 0).then_some(entry)
    });
    let after = rss_kb(served.child.id());
    let server_end = dropped.expect("the server kept the stalled connection");
    // The server closed its end while the client's window was full.
    assert_eq!(server_end.state, "04", "the server's end of the connection");
    assert!(
        most_queued <= 512 << 10,
        "the kernel held {most_queued} bytes for the server to send"
    );
    assert!(
        after < before + 8 * 1024,
        "the server grew from {before} kB to {after} kB while the client did not read"
    );
    stalled
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut read = Vec::new();
    let ended = stalled.read_to_end(&mut read);
    assert!(ended.is_ok(), "the stream did not end: {ended:?}");
    assert!(
        read.len() < 4 << 20,
        "{} bytes were kept for a client that did not read",
        read.len()
    );
    let text = String::from_utf8_lossy(&read);
    assert!(text.contains("notifications/resources/updated"), "{text}");
    let bob = format!("Bearer {BOB}");
    let listed = call(
        served.addr,
        &[("authorization", &bob)],
        "list_apps",
        json!({}),
    );
    assert_eq!(status(&listed), "200", "{listed}");
    drop(served);
    desktop.stop().unwrap();
}
