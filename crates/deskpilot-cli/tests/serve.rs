//! `deskpilot serve` as a fleet runs it: one command brings up a private desktop, an app
//! on it and the MCP server over HTTP with a token. `/readyz` is 503 until the app is up
//! (it waits here on a FIFO the test opens), then 200. With `--max-calls 1` a second call
//! while one is in flight is `busy` at once and `/readyz` says 503 with Retry-After.
//! SIGTERM mid-call stops it whole: no process of its desktop is left (found by their
//! stamp, /proc's environments).

use std::io::Write;
use std::time::Duration;

use deskpilot_linux::headless::{procs, wait};
use serde_json::json;

#[path = "support/http.rs"]
mod http;
use http::{call, raw, status};

const TOKEN: &str = "serve-token-0123456789ab";

fn readyz(addr: std::net::SocketAddr) -> String {
    raw(
        addr,
        &format!("GET /readyz HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n"),
    )
}

/// The desktop's stamp, as `serve` said it.
fn desktop_id(stderr: &[String]) -> String {
    let said = stderr
        .iter()
        .find_map(|l| l.split("DESKPILOT_DESKTOP=").nth(1));
    let id = said.unwrap_or_else(|| panic!("no desktop said: {stderr:?}"));
    id.trim_end_matches(')').to_owned()
}

#[test]
fn serve_is_ready_once_its_app_is_up_busy_past_its_limit_and_stops_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (tokens, fifo) = (dir.path().join("tokens"), dir.path().join("go"));
    std::fs::write(&tokens, format!("{TOKEN}\n")).unwrap();
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let app = format!("sh -c 'read go < {} && exec mousepad'", fifo.display());
    let args = ["--http", "127.0.0.1:0", "--token-file"];
    let args: Vec<&str> = args.into_iter().chain([tokens.to_str().unwrap()]).collect();
    let more = ["--allow", "input", "--max-calls", "1", "--app", &app];
    let args: Vec<&str> = args.into_iter().chain(more).collect();
    let mut served = http::start("serve", &args, &[]).unwrap();
    let (addr, id) = (served.addr, desktop_id(&served.stderr));

    let starting = readyz(addr);
    assert_eq!(status(&starting), "503", "{starting}");
    assert!(starting.contains(r#""starting""#), "{starting}");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&fifo)
        .unwrap()
        .write_all(b"go\n")
        .unwrap();
    let ready = wait::until(Duration::from_secs(60), || {
        let now = readyz(addr);
        (status(&now) == "200").then_some(now)
    });
    assert!(ready.is_some(), "never ready: {}", readyz(addr));

    let bearer = format!("Bearer {TOKEN}");
    let auth = [("authorization", bearer.as_str())];
    let opened = call(addr, &auth, "connect", json!({"app": "mousepad"}));
    let session = http::session_in(&opened);
    // One call in flight: a wait for what never comes.
    let never =
        json!({"session": session, "selector": "button[name=\"Never\"]", "timeout_ms": 30000});
    let waiting = std::thread::spawn(move || {
        call(
            addr,
            &[("authorization", &format!("Bearer {TOKEN}"))],
            "wait_for",
            never,
        )
    });
    let full = wait::until(Duration::from_secs(10), || {
        let now = readyz(addr);
        now.contains(r#""busy""#).then_some(now)
    });
    let full = full.unwrap_or_else(|| panic!("never full: {}", readyz(addr)));
    assert_eq!(status(&full), "503", "{full}");
    assert!(full.to_lowercase().contains("retry-after: 1"), "{full}");
    let refused = call(addr, &auth, "list_apps", json!({}));
    let failure = r#""code":"busy","hint""#;
    assert!(refused.contains(failure), "{refused}");
    assert!(refused.contains(r#""retryable":true"#), "{refused}");

    // SIGTERM with the wait still in flight.
    let marked = procs::marked_pids(Some(&id));
    assert!(marked.len() >= 4, "the desktop's processes: {marked:?}");
    let pid = nix::unistd::Pid::from_raw(served.child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let exited = wait::until(Duration::from_secs(20), || served.child.try_wait().unwrap());
    let exited = exited.expect("serve ended after SIGTERM");
    assert!(exited.success(), "{exited:?}");
    let _ = waiting.join();
    let left = procs::marked_pids(Some(&id));
    assert!(left.is_empty(), "left behind: {left:?} of {marked:?}");
}
