//! `cargo xtask bench live`: what the live tree saves and how soon a change is seen, through
//! `deskpilot mcp` (one server, one session) on the GTK3 fixture in a private headless desktop.
//!
//! - Tokens (bytes / 4 of the text an agent reads) over a 10-step task: one snapshot, then
//!   each action's result with the changes it made, versus each action's result without them
//!   plus a snapshot after every step (what an agent pays without diffs).
//! - Latency from a change in the app (the fixture's control channel; the moment is when its
//!   oracle file got the line, seen by a thread every 1 ms) to `wait_for` returning.
//! - Repeated snapshots through the server.
//!
//! Prints a table and writes `target/bench/live.json`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use deskpilot_linux::headless::procs::{Memory, memory_kb};
use deskpilot_testkit::{Fixture, McpClient, SYSTEM_PYTHON, VirtualDesktop, pyatspi_walks};

#[path = "live/scale.rs"]
mod scale;
#[path = "common/stats.rs"]
mod stats;
use serde_json::{Value, json};
use stats::{ms, p50_p95, percentile, text_of};

fn tokens(text: &str) -> f64 {
    text.len() as f64 / 4.0
}

/// An action's text without the changes it carries (what it said before the live tree).
fn without_changes(text: &str) -> &str {
    match text.find("\n# v") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// The ten steps: a form filled in, a list and a tree used, buttons pressed.
fn steps(s: &str) -> Vec<(&'static str, Value)> {
    vec![
        (
            "act",
            json!({"session": s, "target": "checkbox[name*=notif]", "verb": "check"}),
        ),
        (
            "set_value",
            json!({"session": s, "target": "textbox[name=Name]", "value": "Ada Lovelace"}),
        ),
        (
            "click",
            json!({"session": s, "target": "button[name=Count]"}),
        ),
        (
            "act",
            json!({"session": s, "target": "radio[name=Large]", "verb": "check"}),
        ),
        (
            "set_value",
            json!({"session": s, "target": "spinbutton[name=Quantity]", "value": 5}),
        ),
        (
            "click",
            json!({"session": s, "target": "button[name=\"Add item\"]"}),
        ),
        (
            "act",
            json!({"session": s, "target": "listitem[name=Cherry]", "verb": "select"}),
        ),
        (
            "act",
            json!({"session": s, "target": "toggle[name=Bold]", "verb": "toggle"}),
        ),
        (
            "click",
            json!({"session": s, "target": "button[name=\"Add item\"]"}),
        ),
        (
            "act",
            json!({"session": s, "target": "tab[name=Advanced]", "verb": "select"}),
        ),
    ]
}

struct Server {
    _desktop: VirtualDesktop,
    fixture: deskpilot_testkit::FixtureApp,
    server: McpClient,
    session: String,
}

fn server(kind: Fixture) -> Server {
    let desktop = VirtualDesktop::start().expect("desktop");
    let fixture = desktop.launch_fixture(kind).expect("fixture");
    let cmd = McpClient::deskpilot_command(
        &desktop,
        env!("CARGO_BIN_EXE_deskpilot"),
        &["--allow", "input"],
    );
    let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
    server.initialize();
    let connected = server.call("connect", json!({"window": kind.window_title()}));
    let session = connected["structuredContent"]["session"]
        .as_str()
        .unwrap_or_else(|| panic!("{connected}"))
        .to_owned();
    Server {
        _desktop: desktop,
        fixture,
        server,
        session,
    }
}

/// (tokens with the changes in results, tokens with a snapshot after every step).
fn task_tokens(rig: &mut Server) -> (f64, f64, Vec<String>) {
    let s = rig.session.clone();
    let first = text_of(&rig.server.call("snapshot", json!({"session": s})));
    let (mut with_diffs, mut with_snapshots) = (tokens(&first), tokens(&first));
    let mut failures = Vec::new();
    for (tool, args) in steps(&s) {
        let result = rig.server.call(tool, args.clone());
        let text = text_of(&result);
        if result["isError"] == json!(true) {
            failures.push(format!("{tool} {args}: {text}"));
        }
        if std::env::var_os("DESKPILOT_BENCH_SHOW").is_some() {
            eprintln!("--- {tool} {args}\n{text}");
        }
        with_diffs += tokens(&text);
        let snapshot = text_of(&rig.server.call("snapshot", json!({"session": s})));
        with_snapshots += tokens(without_changes(&text)) + tokens(&snapshot);
    }
    (with_diffs, with_snapshots, failures)
}

/// Lines in the oracle file saying the label reads `text`.
fn label_lines(path: &Path, text: &str) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains("\"delayed\"") && l.contains(&format!("\"{text}\"")))
        .count()
}

fn watch(
    path: PathBuf,
    text: String,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<Option<Instant>> {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            if label_lines(&path, &text) > 0 {
                return Some(Instant::now());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        None
    })
}

/// Milliseconds from each change to `wait_for` returning, and what woke its looks.
/// Starts `wait_for` on `selector` (10 s at most) and returns the request's id.
fn send_wait_for(server: &mut McpClient, session: &str, selector: &str) -> u64 {
    server.send_request(
        "tools/call",
        json!({"name": "wait_for", "arguments": {"session": session, "selector": selector, "timeout_ms": 10000}}),
    )
}

fn wait_latencies(rig: &mut Server, rounds: usize) -> (Vec<f64>, u64, u64) {
    let s = rig.session.clone();
    let (mut by_event, mut by_poll) = (0, 0);
    let mut latencies = Vec::new();
    for round in 0..rounds {
        let text = format!("Live {round}");
        let id = send_wait_for(&mut rig.server, &s, &format!("label[name=\"{text}\"]"));
        // Let the wait read once and sleep, as it would while an agent waits.
        std::thread::sleep(Duration::from_millis(300));
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = watch(
            rig.fixture.oracle.path().to_owned(),
            text.clone(),
            stop.clone(),
        );
        rig.fixture
            .command("set_label", json!({"text": text}))
            .expect("control command");
        let reply = rig.server.reply_to(id);
        let returned = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let changed = watcher.join().unwrap().expect("the oracle saw the change");
        let out = &reply["result"]["structuredContent"];
        assert_eq!(out["element"]["name"], json!(text), "{reply}");
        by_event += out["woken_by_events"].as_u64().unwrap_or(0);
        by_poll += out["woken_by_poll"].as_u64().unwrap_or(0);
        latencies.push(returned.saturating_duration_since(changed).as_secs_f64() * 1000.0);
    }
    (latencies, by_event, by_poll)
}

/// Notifications while the app changes every 10 ms for 2 s (the pace of a progress bar,
/// through the fixture's `burst`: labels, fields, buttons, the list), nobody reading: the
/// updates are coalesced (a 30 ms trailing window, flushed at least every 100 ms). Returns
/// (notifications, seconds the changes took).
fn busy_notifications(rig: &mut Server) -> (usize, f64) {
    let s = rig.session.clone();
    let uri = format!("deskpilot://session/{s}/tree");
    rig.server.request("resources/read", json!({"uri": uri}));
    let subscribed = rig
        .server
        .request("resources/subscribe", json!({"uri": uri}));
    assert!(subscribed.get("error").is_none(), "{subscribed}");
    while rig
        .server
        .receive_within(Duration::from_millis(300))
        .is_some()
    {}
    let done = |fixture: &deskpilot_testkit::FixtureApp| {
        fixture
            .oracle
            .events()
            .unwrap()
            .iter()
            .any(|e| e.widget == "control" && e.prop == "done" && e.value == json!("burst"))
    };
    let started = Instant::now();
    rig.fixture
        .command(
            "burst",
            json!({"changes": 200, "seed": 3, "per_tick": 1, "tick_ms": 10}),
        )
        .expect("control command");
    let mut notifications = 0usize;
    let mut took = None;
    loop {
        match rig.server.receive_within(Duration::from_millis(300)) {
            Some(m) if m["method"] == "notifications/resources/updated" => notifications += 1,
            Some(_) => {}
            None if took.is_some() => break,
            None => {}
        }
        if took.is_none() && done(&rig.fixture) {
            took = Some(started.elapsed().as_secs_f64());
        }
    }
    rig.server
        .request("resources/unsubscribe", json!({"uri": uri}));
    (notifications, took.unwrap_or_default())
}

/// Milliseconds from each change to `notifications/resources/updated` for the session's tree
/// (subscribed with `resources/subscribe`), and the notifications per change.
fn notification_latencies(rig: &mut Server, rounds: usize) -> (Vec<f64>, f64) {
    let s = rig.session.clone();
    let uri = format!("deskpilot://session/{s}/tree");
    rig.server.request("resources/read", json!({"uri": uri}));
    let subscribed = rig
        .server
        .request("resources/subscribe", json!({"uri": uri}));
    assert!(subscribed.get("error").is_none(), "{subscribed}");
    let mut latencies = Vec::new();
    let mut notifications = 0usize;
    for round in 0..rounds {
        let text = format!("Note {round}");
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = watch(
            rig.fixture.oracle.path().to_owned(),
            text.clone(),
            stop.clone(),
        );
        rig.fixture
            .command("set_label", json!({"text": text}))
            .expect("control command");
        let message = rig
            .server
            .receive_within(Duration::from_secs(5))
            .expect("a notification within 5 s");
        let received = Instant::now();
        assert_eq!(
            message["method"], "notifications/resources/updated",
            "{message}"
        );
        notifications += 1;
        stop.store(true, Ordering::Relaxed);
        let changed = watcher.join().unwrap().expect("the oracle saw the change");
        latencies.push(received.saturating_duration_since(changed).as_secs_f64() * 1000.0);
        // Any more for this change (none expected once the app is quiet).
        while rig
            .server
            .receive_within(Duration::from_millis(300))
            .is_some()
        {
            notifications += 1;
        }
        rig.server.request("resources/read", json!({"uri": uri}));
    }
    rig.server
        .request("resources/unsubscribe", json!({"uri": uri}));
    (latencies, notifications as f64 / rounds as f64)
}

fn snapshot_times(rig: &mut Server, runs: usize) -> Vec<f64> {
    let s = rig.session.clone();
    (0..runs)
        .map(|_| {
            let started = Instant::now();
            rig.server.call("snapshot", json!({"session": s}));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect()
}

/// Repeated snapshots through the server while the fixture makes one change every 100 ms
/// (its `burst`: a label's text, a field's text, buttons added and removed, a list
/// rebuilt), for the 10 s the changes last.
fn snapshots_while_changing(rig: &mut Server) -> Vec<f64> {
    // Bursts run before (the busy notifications) said done too: this one's is the next.
    let bursts_done = |fixture: &deskpilot_testkit::FixtureApp| {
        let events = fixture.oracle.events().unwrap();
        let burst = json!("burst");
        let done = events.iter();
        done.filter(|e| e.widget == "control" && e.prop == "done" && e.value == burst)
            .count()
    };
    let before = bursts_done(&rig.fixture);
    let burst = json!({"changes": 100, "seed": 3, "per_tick": 1, "tick_ms": 100});
    rig.fixture.command("burst", burst).unwrap();
    let mut times = Vec::new();
    while bursts_done(&rig.fixture) == before {
        times.extend(snapshot_times(rig, 1));
    }
    times
}

/// The server's resident memory (kB) after 20 snapshots and after 400 more.
fn memory_over_snapshots(rig: &mut Server) -> (u64, u64) {
    let pid = rig.server.pid();
    snapshot_times(rig, 20);
    let before = memory_kb(pid, Memory::Resident).unwrap_or(0);
    snapshot_times(rig, 400);
    (before, memory_kb(pid, Memory::Resident).unwrap_or(0))
}

/// Repeated snapshots through the server of LibreOffice Writer with a 400-line document and
/// the caret in it: (interactive filter ms, `all` ms, bytes of each).
fn writer_snapshots() -> (Vec<f64>, Vec<f64>, usize, usize, Vec<f64>) {
    let desktop = VirtualDesktop::start().expect("desktop");
    let doc = desktop.dir().join("writer400.txt");
    let lines: String = (1..=400)
        .map(|i| format!("Line {i}: the quick brown fox jumps over the lazy dog.\n"))
        .collect();
    std::fs::write(&doc, lines).unwrap();
    let _writer = desktop
        .launch_libreoffice(&["--writer", doc.to_str().unwrap()], None)
        .expect("writer starts");
    let cmd = McpClient::deskpilot_command(
        &desktop,
        env!("CARGO_BIN_EXE_deskpilot"),
        &["--allow", "input"],
    );
    let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
    server.initialize();
    // The document's window comes after LibreOffice registers.
    let deadline = Instant::now() + Duration::from_secs(60);
    let connected = loop {
        let connected = server.call("connect", json!({"window": "writer400"}));
        if connected["isError"] != json!(true) || Instant::now() > deadline {
            break connected;
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    let s = connected["structuredContent"]["session"]
        .as_str()
        .unwrap_or_else(|| panic!("{connected}"))
        .to_owned();
    // The caret in the document, a few lines down.
    for key in ["ctrl+Home", "Down", "Down", "End"] {
        server.call("press_key", json!({"session": s, "key": key}));
    }
    let mut time = |filter: &str, runs: usize| {
        let mut bytes = 0;
        let times = (0..runs)
            .map(|_| {
                let started = Instant::now();
                let result = server.call("snapshot", json!({"session": s, "filter": filter}));
                let elapsed = started.elapsed().as_secs_f64() * 1000.0;
                bytes = text_of(&result).len();
                elapsed
            })
            .collect::<Vec<f64>>();
        (times, bytes)
    };
    let (interactive, interactive_bytes) = time("interactive", 20);
    let (all, all_bytes) = time("all", 10);
    let app = connected["structuredContent"]["app"]
        .as_str()
        .unwrap_or("soffice")
        .to_owned();

    let idle = idle_notifications(&mut server, &s, Duration::from_secs(3));
    println!(
        "libreoffice writer: {idle} tree notifications in 3 s with the caret blinking in the document"
    );
    let waits = writer_wait_latencies(&desktop, &mut server, &s, &app, 10);
    server.close(Duration::from_secs(5));
    (interactive, all, interactive_bytes, all_bytes, waits)
}

/// Milliseconds from a change a second AT-SPI client makes in the document (pyatspi inserts
/// a marker at the start of a paragraph) to `wait_for` on it returning: both on the
/// monotonic clock, pyatspi's read as its insertion returns.
fn writer_wait_latencies(
    desktop: &VirtualDesktop,
    server: &mut McpClient,
    session: &str,
    app: &str,
    rounds: usize,
) -> Vec<f64> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut client = desktop
        .command(deskpilot_testkit::SYSTEM_PYTHON)
        .arg(deskpilot_testkit::fixtures_dir().join("pyatspi_insert.py"))
        .args([app, "--each-line"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = client.stdin.take().unwrap();
    let mut lines = BufReader::new(client.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "ready");
    let monotonic_ns = || {
        let now = nix::time::clock_gettime(nix::time::ClockId::CLOCK_MONOTONIC).unwrap();
        now.tv_sec() as i128 * 1_000_000_000 + now.tv_nsec() as i128
    };
    let mut latencies = Vec::new();
    for round in 0..rounds {
        let marker = format!("Marker{round}x ");
        let selector = format!("paragraph[value*=\"Marker{round}x\"]");
        let id = send_wait_for(server, session, &selector);
        // Let the wait read once and sleep, as it would while an agent waits.
        std::thread::sleep(Duration::from_millis(300));
        writeln!(stdin, "{marker}").unwrap();
        let reply = server.reply_to(id);
        let returned = monotonic_ns();
        let changed: i128 = lines.next().unwrap().unwrap().trim().parse().unwrap();
        let found = reply["result"]["structuredContent"]["element"].clone();
        assert!(found.is_object(), "{reply}");
        latencies.push((returned - changed) as f64 / 1e6);
    }
    drop(stdin);
    let _ = client.wait();
    latencies
}

/// Notifications of the session's tree while nobody changes the app (a caret blinks).
fn idle_notifications(server: &mut McpClient, session: &str, for_: Duration) -> usize {
    let uri = format!("deskpilot://session/{session}/tree");
    server.request("resources/subscribe", json!({"uri": uri}));
    let until = Instant::now() + for_;
    let mut count = 0;
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        if let Some(message) = server.receive_within(left)
            && message["method"] == "notifications/resources/updated"
        {
            count += 1;
        }
    }
    server.request("resources/unsubscribe", json!({"uri": uri}));
    count
}

fn main() {
    let mut report = serde_json::Map::new();
    println!("live tree, through deskpilot mcp (one server, one session per fixture)");
    // DESKPILOT_BENCH_ONLY=fixtures,scale,writer runs only those parts.
    let only = std::env::var("DESKPILOT_BENCH_ONLY").ok();
    let part = |name: &str| {
        only.as_deref()
            .is_none_or(|o| o.split(',').any(|p| p == name))
    };
    for kind in [Fixture::Gtk3, Fixture::Gtk4, Fixture::Qt5] {
        if !part("fixtures") {
            break;
        }
        let mut rig = server(kind);
        let name = kind.name();
        let mut out = serde_json::Map::new();
        if kind == Fixture::Gtk3 {
            let (with_diffs, with_snapshots, failures) = task_tokens(&mut rig);
            assert!(failures.is_empty(), "steps failed: {failures:#?}");
            let ratio = with_snapshots / with_diffs;
            println!(
                "{name}: 10-step task tokens: {with_diffs:.0} with changes in results, {with_snapshots:.0} with a snapshot after every step ({ratio:.1}x fewer; target >= 5x)"
            );
            out.insert(
                "task_tokens".into(),
                json!({"with_changes": with_diffs, "with_snapshots": with_snapshots, "ratio": ratio}),
            );
        }
        let (latencies, by_event, by_poll) = wait_latencies(&mut rig, 20);
        println!(
            "{name}: change -> wait_for returned: {} (targets p50 <= 50, p95 <= 150 on GTK 3); looks woken by events {by_event}, by the poll {by_poll}",
            ms(&latencies)
        );
        let (notified, per_change) = notification_latencies(&mut rig, 10);
        println!(
            "{name}: change -> resources/updated: {} ({per_change:.1} notifications per change)",
            ms(&notified)
        );
        let (busy, busy_secs) = busy_notifications(&mut rig);
        println!(
            "{name}: {busy} tree notifications while the app changed every 10 ms for {busy_secs:.1} s (coalesced: at most one per 100 ms)"
        );
        out.insert(
            "busy_notifications".into(),
            json!({"notifications": busy, "seconds": busy_secs}),
        );
        // A caret blinking in a focused field changes nothing in the tree.
        rig.server.call(
            "act",
            json!({"session": rig.session, "target": "textbox[name=Name]", "verb": "focus"}),
        );
        let idle = idle_notifications(
            &mut rig.server,
            &rig.session.clone(),
            Duration::from_secs(3),
        );
        println!("{name}: {idle} tree notifications in 3 s with the caret blinking in a field");
        out.insert("idle_caret_notifications_3s".into(), json!(idle));
        let snapshots = snapshot_times(&mut rig, 20);
        println!(
            "{name}: repeated snapshot through the server: {}",
            ms(&snapshots)
        );
        // pyatspi's walk of the same window, five times after a warm-up.
        let python = rig._desktop.command(SYSTEM_PYTHON);
        let (py_nodes, py_ms) = pyatspi_walks(python, kind.window_title(), 5);
        println!(
            "{name}: pyatspi walk of the window ({py_nodes} nodes): {}",
            ms(&py_ms)
        );
        out.insert(
            "pyatspi_walk_ms".into(),
            json!({"p50": percentile(py_ms.clone(), 0.5), "nodes": py_nodes}),
        );
        let changing = snapshots_while_changing(&mut rig);
        println!(
            "{name}: repeated snapshot through the server while the app changes every 100 ms: {} ({} snapshots)",
            ms(&changing),
            changing.len()
        );
        let (rss_before, rss_after) = memory_over_snapshots(&mut rig);
        println!(
            "{name}: server RSS {:.1} MB after 20 snapshots, {:.1} MB after 400 more",
            rss_before as f64 / 1024.0,
            rss_after as f64 / 1024.0
        );
        out.insert(
            "snapshot_while_changing_ms".into(),
            json!({"p50": percentile(changing.clone(), 0.5), "p95": percentile(changing.clone(), 0.95), "snapshots": changing.len()}),
        );
        out.insert(
            "server_rss_kb".into(),
            json!({"after_20": rss_before, "after_420": rss_after}),
        );
        out.insert("wait_ms".into(), json!({"p50": percentile(latencies.clone(), 0.5), "p95": percentile(latencies.clone(), 0.95), "all": latencies, "woken_by_events": by_event, "woken_by_poll": by_poll}));
        out.insert("notification_ms".into(), json!({"p50": percentile(notified.clone(), 0.5), "p95": percentile(notified.clone(), 0.95), "per_change": per_change}));
        out.insert(
            "snapshot_ms".into(),
            json!({"p50": percentile(snapshots.clone(), 0.5), "p95": percentile(snapshots, 0.95)}),
        );
        report.insert(name.into(), serde_json::Value::Object(out));
        rig.server.close(Duration::from_secs(5));
    }
    if part("scale") {
        scale_part(&mut report);
    }
    if part("writer") {
        writer_part(&mut report);
    }
    stats::write_report("live", &serde_json::Value::Object(report));
}

fn scale_part(report: &mut serde_json::Map<String, serde_json::Value>) {
    let (nodes, finds) = scale::find_times(4250, 30);
    println!(
        "gtk3 fixture grown to {nodes} nodes: find through the server {} (target <= 2 ms on a warm event-kept cache)",
        ms(&finds)
    );
    let (rss_nodes, rss) = scale::server_rss(9200);
    println!(
        "server RSS after reading {rss_nodes} nodes three times: {rss:.1} MB (target <= 60 MB)"
    );
    report.insert(
        "scale".into(),
        json!({"find_nodes": nodes, "find_ms": {"p50": percentile(finds.clone(), 0.5), "p95": percentile(finds, 0.95)}, "rss_nodes": rss_nodes, "rss_mb": rss}),
    );
}

fn writer_part(report: &mut serde_json::Map<String, serde_json::Value>) {
    let (interactive, all, interactive_bytes, all_bytes, waits) = writer_snapshots();
    println!(
        "libreoffice writer: change (pyatspi inserts text) -> wait_for returned: {}",
        ms(&waits)
    );
    println!(
        "libreoffice writer, 400-line document, caret in it: repeated snapshot through the server: interactive {} ({interactive_bytes} bytes), all {} ({all_bytes} bytes) (target <= 80 ms)",
        ms(&interactive),
        ms(&all)
    );
    report.insert(
        "writer".into(),
        json!({"interactive_ms": p50_p95(&interactive), "all_ms": p50_p95(&all), "interactive_bytes": interactive_bytes, "all_bytes": all_bytes, "wait_ms": p50_p95(&waits)}),
    );
}
