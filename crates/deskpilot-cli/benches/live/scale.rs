//! The live tree at scale: `find` through the server on the GTK3 fixture grown to ~5k nodes
//! (its `--extra-nodes` mode), and the server's memory once it has read ~10k.

use std::time::{Duration, Instant};

use deskpilot_testkit::{Fixture, McpClient, VirtualDesktop};
use serde_json::json;

/// A server on the GTK3 fixture with `extra` more buttons (a node each), connected.
fn big(extra: usize) -> (VirtualDesktop, McpClient, String) {
    let desktop = VirtualDesktop::start().expect("desktop");
    let count = extra.to_string();
    let fixture = desktop
        .launch_fixture_with_args(Fixture::Gtk3, &["--extra-nodes", &count])
        .expect("fixture");
    std::mem::forget(fixture.app);
    let cmd = McpClient::deskpilot_command(&desktop, env!("CARGO_BIN_EXE_deskpilot"), &[]);
    let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
    server.initialize();
    let connected = server.call("connect", json!({"window": Fixture::Gtk3.window_title()}));
    let session = connected["structuredContent"]["session"]
        .as_str()
        .unwrap_or_else(|| panic!("{connected}"))
        .to_owned();
    (desktop, server, session)
}

/// A whole snapshot with `filter` `all`; a big app's first answers can take longer than a
/// call may wait (GTK 3 makes each object when first asked), so a retryable failure is
/// retried, as an agent would. Returns the nodes read.
fn read_all(server: &mut McpClient, session: &str) -> usize {
    for _ in 0..10 {
        let all = server.call(
            "snapshot",
            json!({"session": session, "filter": "all", "max_nodes": 20000}),
        );
        if let Some(nodes) = all["structuredContent"]["nodes"].as_u64() {
            return nodes as usize;
        }
        assert_eq!(all["structuredContent"]["retryable"], true, "{all}");
    }
    panic!("no whole snapshot in 10 tries");
}

/// (nodes read, `find` ms through the server, warm, each run).
pub fn find_times(extra: usize, runs: usize) -> (usize, Vec<f64>) {
    let (_desktop, mut server, s) = big(extra);
    let all = server.call(
        "snapshot",
        json!({"session": s, "filter": "all", "max_nodes": 20000}),
    );
    let nodes = all["structuredContent"]["nodes"].as_u64().unwrap_or(0) as usize;
    let selector = format!("button[name=\"Extra {}\"]", extra - 1);
    let args = json!({"session": s, "selector": selector});
    // Checked against its output schema once; timed as the server answers (the test
    // client's schema check compiles the schema at every call). Warm: the app's events from
    // the first reads (GTK 3 announces every object it makes) are read through first.
    for _ in 0..3 {
        server.call("find", args.clone());
    }
    let times = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let found = server.request("tools/call", json!({"name": "find", "arguments": args}));
            let elapsed = started.elapsed().as_secs_f64() * 1000.0;
            assert_eq!(found["result"]["structuredContent"]["total"], 1, "{found}");
            elapsed
        })
        .collect();
    server.close(Duration::from_secs(5));
    (nodes, times)
}

/// (nodes read, the server's resident memory in MB after reading them three times).
pub fn server_rss(extra: usize) -> (usize, f64) {
    let (_desktop, mut server, s) = big(extra);
    let mut nodes = 0;
    for _ in 0..3 {
        nodes = read_all(&mut server, &s);
    }
    let memory = deskpilot_linux::headless::procs::memory_kb(
        server.pid(),
        deskpilot_linux::headless::procs::Memory::Resident,
    );
    let kb = memory.unwrap_or(0) as f64;
    server.close(Duration::from_secs(5));
    (nodes, kb / 1024.0)
}
