//! `cargo xtask bench load`: many agents on one server. For 1, 8 and 32 clients at once,
//! each with its own token and its own field of one GTK 3 fixture (`--fields 32`, a window
//! of 32 fields in view), over
//! `deskpilot mcp --http` on loopback: each loops snapshot, find and type_text for `ROUNDS`
//! rounds. Throughput, p50/p99 per tool, failures by code, the server's peak memory
//! (VmHWM), and whether each field holds exactly what its client typed, in order (the
//! fixture's oracle: no input interleaved). Then 32 clients again with `--max-calls 8`: a
//! call refused `busy` is tried again after a moment, and must have done nothing (the
//! fields still hold each text once). Results go to target/bench/load.json.

#[path = "../tests/support/http.rs"]
mod http;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use deskpilot_linux::headless::procs::{Memory, memory_kb};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::{Map, Value, json};

/// Clients at once, and the server's `--max-calls`.
const LEVELS: [(usize, Option<usize>); 4] = [(1, None), (8, None), (32, None), (32, Some(8))];
const ROUNDS: usize = 10;
/// How long a client refused `busy` waits before trying again.
const BACKOFF: Duration = Duration::from_millis(20);

/// One call's tool, time and failure code.
struct Timed {
    tool: &'static str,
    ms: f64,
    code: Option<String>,
}

/// The failure code in a tool call's response, if it failed.
fn code_of(response: &str) -> Option<String> {
    if response.contains(r#""ok":true"#) {
        return None;
    }
    let code = response.split(r#""code":""#).nth(1);
    let code = code
        .and_then(|c| c.split('"').next())
        .unwrap_or("no_answer");
    Some(code.to_owned())
}

/// Client `n`'s rounds on its own field; its calls.
fn client(addr: SocketAddr, token: &str, n: usize) -> Vec<Timed> {
    let bearer = format!("Bearer {token}");
    let auth = [("authorization", bearer.as_str())];
    let window = "deskpilot GTK3 fixture fields";
    let mut timed = Vec::new();
    let mut call = |tool: &'static str, args: Value| loop {
        let started = Instant::now();
        let response = http::call(addr, &auth, tool, args.clone());
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let code = code_of(&response);
        let busy = code.as_deref() == Some("busy");
        timed.push(Timed { tool, ms, code });
        if !busy {
            return response;
        }
        std::thread::sleep(BACKOFF);
    };
    let opened = call("connect", json!({"window": window}));
    let session = http::session_in(&opened);
    let field = format!("textbox[name=\"Field {n}\"]");
    for round in 0..ROUNDS {
        call("snapshot", json!({"session": session}));
        let found = call("find", json!({"session": session, "selector": field}));
        let target = found
            .split(r#""ref":""#)
            .nth(1)
            .and_then(|r| r.split('"').next());
        let target = target.map_or_else(|| field.clone(), str::to_owned);
        let text = format!("{n}.{round};");
        call(
            "type_text",
            json!({"session": session, "target": target, "text": text}),
        );
    }
    timed
}

/// The `q` quantile of `values` (sorted here), in ms to a tenth.
fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let at = ((values.len() as f64 - 1.0) * q).round() as usize;
    (values[at] * 10.0).round() / 10.0
}

/// The server's peak resident memory, in MB.
fn peak_rss_mb(pid: u32) -> f64 {
    let kb = memory_kb(pid, Memory::PeakResident).unwrap_or(0);
    (kb as f64 / 102.4).round() / 10.0
}

/// How many fields hold exactly what their client typed, in order.
fn whole_fields(oracle: &deskpilot_testkit::Oracle, clients: usize) -> usize {
    (0..clients)
        .filter(|&n| {
            let expected: String = (0..ROUNDS).map(|round| format!("{n}.{round};")).collect();
            let last = oracle.last(&format!("field-{n}"), "text").ok().flatten();
            last == Some(json!(expected))
        })
        .count()
}

fn level(clients: usize, max_calls: Option<usize>) -> Value {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = desktop
        .launch_fixture_with_args(Fixture::Gtk3, &["--fields", "32"])
        .unwrap();
    let tokens: Vec<String> = (0..clients)
        .map(|n| format!("load-token-{n:04}-abcdefghij"))
        .collect();
    let file = desktop.dir().join("tokens");
    std::fs::write(&file, tokens.join("\n")).unwrap();
    let args = ["--http", "127.0.0.1:0", "--allow", "input", "--token-file"];
    let mut args: Vec<&str> = args.to_vec();
    args.extend([
        file.to_str().unwrap(),
        "--bus",
        desktop.session_bus_address(),
    ]);
    args.extend(["--display", desktop.display()]);
    let max = max_calls.map(|n| n.to_string());
    if let Some(max) = &max {
        args.extend(["--max-calls", max]);
    }
    let served = http::start("mcp", &args, &[]).unwrap();
    let started = Instant::now();
    let threads: Vec<_> = tokens
        .iter()
        .enumerate()
        .map(|(n, token)| {
            let (addr, token) = (served.addr, token.clone());
            std::thread::spawn(move || client(addr, &token, n))
        })
        .collect();
    let calls: Vec<Timed> = threads
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    let seconds = started.elapsed().as_secs_f64();
    // The last keys are in the fixture's oracle within a moment of their confirmation.
    let _ = fixture.oracle.wait_for(Duration::from_secs(5), |e| {
        e.widget == format!("field-{}", clients - 1)
            && e.value == json!(format!("{}.{};", clients - 1, ROUNDS - 1))
    });
    let measured = Measured {
        calls: &calls,
        seconds,
        rss: peak_rss_mb(served.child.id()),
        whole: whole_fields(&fixture.oracle, clients),
    };
    summary(clients, max_calls, measured)
}

/// What one level measured.
struct Measured<'c> {
    calls: &'c [Timed],
    seconds: f64,
    rss: f64,
    whole: usize,
}

fn summary(clients: usize, max_calls: Option<usize>, measured: Measured) -> Value {
    let Measured {
        calls,
        seconds,
        rss,
        whole,
    } = measured;
    let mut per_tool = Map::new();
    for tool in ["snapshot", "find", "type_text"] {
        let mut ms: Vec<f64> = calls
            .iter()
            .filter(|c| c.tool == tool && c.code.as_deref() != Some("busy"))
            .map(|c| c.ms)
            .collect();
        per_tool.insert(
            tool.to_owned(),
            json!({"p50_ms": quantile(&mut ms, 0.5), "p99_ms": quantile(&mut ms, 0.99)}),
        );
    }
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    for code in calls.iter().filter_map(|c| c.code.clone()) {
        *failures.entry(code).or_default() += 1;
    }
    // Refused calls are counted apart: the rest are the work done.
    let busy = failures.remove("busy").unwrap_or(0);
    let done = calls.len() - busy;
    let line = json!({
        "clients": clients,
        "max_calls": max_calls,
        "busy": busy,
        "calls": done,
        "seconds": (seconds * 10.0).round() / 10.0,
        "calls_per_s": (done as f64 / seconds * 10.0).round() / 10.0,
        "tools": per_tool,
        "failed_calls": failures.values().sum::<usize>(),
        "failures": failures,
        "server_peak_rss_mb": rss,
        "fields_whole": whole,
    });
    println!("{line}");
    line
}

fn main() {
    let mut results = Map::new();
    for (clients, max_calls) in LEVELS {
        let key = match max_calls {
            None => format!("clients_{clients}"),
            Some(max) => format!("clients_{clients}_max_calls_{max}"),
        };
        results.insert(key, level(clients, max_calls));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    std::fs::create_dir_all(&dir).unwrap();
    let text = serde_json::to_string_pretty(&Value::Object(results)).unwrap();
    std::fs::write(dir.join("load.json"), text).unwrap();
}
