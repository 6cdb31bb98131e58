//! `cargo xtask bench snapshot`'s apps nobody tuned for, through `deskpilot mcp` (one server,
//! one session) beside pyatspi's walk of the same window in the same run (issue 49):
//! gtk4-widget-factory, KCalc, Firefox ESR and Chromium on the same form page, and LibreOffice
//! Writer right after it loads a 400-line document.
//!
//! - Repeated snapshot (the default filter, what an agent reads) once a first read is done.
//! - The same while the app changes: a key typed through XTEST every 100 ms into the focused
//!   field (KCalc: its display); the distinct texts read prove that it changed.
//! - The server's RSS after 20 snapshots and after 400 more.
//! - Writer "after load": the first read whose text shows the document's first line (the text
//!   is on the bus), then snapshots at once, while the app is still busy.
//!
//! Prints a table and writes `target/bench/apps.json`. `DESKPILOT_BENCH_ONLY=kcalc,writer`
//! runs only the apps whose names contain one of those words.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use deskpilot_linux::headless::procs::{Memory, memory_kb};
use deskpilot_testkit::{
    App, ChromiumPages, LaunchOptions, McpClient, Registration, SYSTEM_PYTHON, VirtualDesktop,
    pyatspi_walks,
};
use serde_json::{Value, json};

#[path = "common/stats.rs"]
mod stats;
use stats::{ms, p50_p95, text_of};

/// Characters typed while the app changes, one per 100 ms.
const TYPED: &str = "1234567890";

struct Subject {
    name: &'static str,
    /// What `connect` is given: a window's title, or an app's name (KCalc's window has no
    /// title).
    connect: (&'static str, &'static str),
    /// A part of the window's title, for pyatspi.
    title: &'static str,
    /// Text the first snapshot shows once the app is ready.
    ready: &'static str,
    launch: fn(&VirtualDesktop, &Path) -> App,
    /// The field focused (through the server) before keys are typed; `None`: the app takes
    /// keys as it is (KCalc).
    focus: Option<&'static str>,
}

fn subjects() -> Vec<Subject> {
    vec![
        Subject {
            name: "gtk4-widget-factory",
            connect: ("window", "Widget Factory"),
            title: "Widget Factory",
            ready: "Widget Factory",
            launch: |desktop, _| plain(desktop, "gtk4-widget-factory"),
            focus: Some("textbox:nth(0)"),
        },
        Subject {
            name: "kcalc",
            connect: ("app", "kcalc"),
            title: "",
            ready: "button",
            launch: |desktop, _| plain(desktop, "kcalc"),
            focus: None,
        },
        Subject {
            name: "firefox esr",
            connect: ("window", "deskpilot bench page"),
            title: "deskpilot bench page",
            ready: "Order form",
            launch: |desktop, inputs| desktop.launch_firefox(&page(inputs)).expect("firefox"),
            focus: Some("textbox[name=Name]"),
        },
        Subject {
            name: "chromium",
            connect: ("window", "deskpilot bench page"),
            title: "deskpilot bench page",
            ready: "Order form",
            launch: |desktop, inputs| {
                let url = page(inputs);
                desktop
                    .launch_chromium(&url, ChromiumPages::Default)
                    .expect("chromium")
            },
            focus: Some("textbox[name=Name]"),
        },
    ]
}

/// The form page's address.
fn page(inputs: &Path) -> String {
    format!("file://{}", inputs.join("bench.html").display())
}

fn plain(desktop: &VirtualDesktop, program: &str) -> App {
    let options = LaunchOptions {
        registration: Registration::Within(Duration::from_secs(60)),
    };
    let app = desktop.launch_with(desktop.command(program), options);
    app.unwrap_or_else(|e| panic!("{program}: {e}"))
}

fn server(desktop: &VirtualDesktop) -> McpClient {
    let cmd = McpClient::deskpilot_command(
        desktop,
        env!("CARGO_BIN_EXE_deskpilot"),
        &["--allow", "input"],
    );
    let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
    server.initialize();
    server
}

/// The session on `target` (`connect`'s argument and its value), once a snapshot of it shows
/// `ready` (60 s).
fn session(server: &mut McpClient, target: (&str, &str), ready: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let connected = server.call("connect", json!({target.0: target.1}));
        if let Some(s) = connected["structuredContent"]["session"].as_str() {
            let snapshot = text_of(&server.call("snapshot", json!({"session": s})));
            if snapshot.contains(ready) {
                return s.to_owned();
            }
        }
        if Instant::now() > deadline {
            let apps = server.call("list_apps", json!({}));
            panic!("{target:?} never ready: {connected}\n{apps}");
        }
        // Polling an app that is starting: no event says when its window is complete.
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Milliseconds of each of `runs` snapshots, and the texts read.
fn snapshots(server: &mut McpClient, session: &str, runs: usize) -> (Vec<f64>, Vec<String>) {
    (0..runs)
        .map(|_| {
            let started = Instant::now();
            let result = server.call("snapshot", json!({"session": session}));
            (started.elapsed().as_secs_f64() * 1000.0, text_of(&result))
        })
        .unzip()
}

/// Types `TYPED` through XTEST, one key per 100 ms, until `stop`.
fn typist(display: String, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<usize> {
    use deskpilot_core::InputDevice;
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let input = deskpilot_x11::X11Input::connect(&display).unwrap();
        let mut typed = 0;
        for c in TYPED.chars().cycle() {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let text = deskpilot_core::InputText::plain(c.to_string());
            runtime.block_on(input.type_text(&text)).unwrap();
            typed += 1;
            std::thread::sleep(Duration::from_millis(100));
        }
        typed
    })
}

/// Snapshots for 5 s while a key is typed every 100 ms: (ms of each, distinct texts, keys).
fn while_typing(
    desktop: &VirtualDesktop,
    server: &mut McpClient,
    s: &str,
) -> (Vec<f64>, usize, usize) {
    let stop = Arc::new(AtomicBool::new(false));
    let typing = typist(desktop.display().to_owned(), stop.clone());
    let until = Instant::now() + Duration::from_secs(5);
    let (mut times, mut texts) = (Vec::new(), Vec::new());
    while Instant::now() < until {
        let (t, text) = snapshots(server, s, 1);
        times.extend(t);
        texts.extend(text);
    }
    stop.store(true, Ordering::Relaxed);
    let typed = typing.join().unwrap();
    if let Some(dir) = std::env::var_os("DESKPILOT_BENCH_SHOW") {
        let dir = PathBuf::from(dir);
        std::fs::write(dir.join("first.txt"), &texts[0]).unwrap();
        std::fs::write(dir.join("last.txt"), texts.last().unwrap()).unwrap();
    }
    // The last line names the tree's version, new at each read.
    let mut texts: Vec<&str> = texts
        .iter()
        .map(|t| t.rsplit_once("\n# v").map_or(t.as_str(), |(tree, _)| tree))
        .collect();
    texts.sort();
    texts.dedup();
    (times, texts.len(), typed)
}

fn measure(subject: &Subject, inputs: &Path) -> Value {
    let desktop = VirtualDesktop::start().expect("desktop");
    let _app = (subject.launch)(&desktop, inputs);
    let mut server = server(&desktop);
    let s = session(&mut server, subject.connect, subject.ready);
    // Five reads first: what the first reads set off (the app's events) is over.
    snapshots(&mut server, &s, 5);
    let (quiet, texts) = snapshots(&mut server, &s, 40);
    let nodes = texts.last().map_or(0, |t| t.lines().count());
    let python = desktop.command(SYSTEM_PYTHON);
    let (py_nodes, py_ms) = pyatspi_walks(python, subject.title, 5);
    if let Some(field) = subject.focus {
        let focused = server.call(
            "act",
            json!({"session": s, "target": field, "verb": "focus"}),
        );
        assert_ne!(
            focused["isError"],
            json!(true),
            "{}: {focused}",
            subject.name
        );
    }
    let (changing, distinct, typed) = while_typing(&desktop, &mut server, &s);
    let pid = server.pid();
    let rss_before = memory_kb(pid, Memory::Resident).unwrap_or(0);
    snapshots(&mut server, &s, 400);
    let rss_after = memory_kb(pid, Memory::Resident).unwrap_or(0);
    server.close(Duration::from_secs(5));
    println!(
        "{}: {nodes} lines read; repeated snapshot {}; while typing {} ({} snapshots, {distinct} distinct, {typed} keys); pyatspi walk ({py_nodes} nodes) {}; RSS {:.1} -> {:.1} MB",
        subject.name,
        ms(&quiet),
        ms(&changing),
        changing.len(),
        ms(&py_ms),
        rss_before as f64 / 1024.0,
        rss_after as f64 / 1024.0
    );
    json!({
        "snapshot_ms": p50_p95(&quiet),
        "snapshot_lines": nodes,
        "snapshot_while_typing_ms": p50_p95(&changing),
        "while_typing": {"snapshots": changing.len(), "distinct": distinct, "keys": typed},
        "pyatspi_walk_ms": {"p50": stats::percentile(py_ms, 0.5), "nodes": py_nodes},
        "server_rss_kb": {"after_20": rss_before, "after_420": rss_after},
    })
}

/// Writer right after loading a 400-line document: the first read showing its first line
/// (ms from launch, ms of that read), then 20 snapshots at once (the app still busy).
fn writer_after_load() -> Value {
    let desktop = VirtualDesktop::start().expect("desktop");
    let doc = desktop.dir().join("load400.txt");
    let lines: String = (1..=400)
        .map(|i| format!("Line {i}: the quick brown fox jumps over the lazy dog.\n"))
        .collect();
    std::fs::write(&doc, lines).unwrap();
    let launched = Instant::now();
    let _writer = desktop
        .launch_libreoffice(&["--writer", doc.to_str().unwrap()], None)
        .expect("writer starts");
    let mut server = server(&desktop);
    let s = session(&mut server, ("window", "load400"), "Line 1:");
    let loaded_ms = launched.elapsed().as_secs_f64() * 1000.0;
    let (after, _) = snapshots(&mut server, &s, 20);
    let python = desktop.command(SYSTEM_PYTHON);
    let (py_nodes, py_ms) = pyatspi_walks(python, "load400", 3);
    server.close(Duration::from_secs(5));
    println!(
        "libreoffice writer after load ({loaded_ms:.0} ms from launch to its text read): repeated snapshot {} (target <= 60 ms); pyatspi walk ({py_nodes} nodes) {}",
        ms(&after),
        ms(&py_ms)
    );
    json!({
        "snapshot_after_load_ms": p50_p95(&after),
        "loaded_ms": loaded_ms,
        "pyatspi_walk_ms": {"p50": stats::percentile(py_ms, 0.5), "nodes": py_nodes},
    })
}

/// The form page, made by the engine benchmark's generator.
fn inputs() -> PathBuf {
    let inputs = stats::bench_dir().join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    let generator =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../deskpilot-linux/benches/make_inputs.py");
    let status = Command::new(SYSTEM_PYTHON)
        .arg(generator)
        .arg(&inputs)
        .status()
        .unwrap();
    assert!(status.success());
    inputs
}

fn main() {
    let only = std::env::var("DESKPILOT_BENCH_ONLY").ok();
    let chosen = |name: &str| {
        only.as_deref()
            .is_none_or(|o| o.split(',').any(|p| name.contains(p)))
    };
    let inputs = inputs();
    let mut report = serde_json::Map::new();
    for subject in subjects().iter().filter(|s| chosen(s.name)) {
        report.insert(subject.name.into(), measure(subject, &inputs));
    }
    if chosen("libreoffice writer") {
        report.insert("writer after load".into(), writer_after_load());
    }
    stats::write_report("apps", &Value::Object(report));
}
