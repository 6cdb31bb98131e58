//! `deskpilot` serving MCP over HTTP, as a test meets it: started until it says where it
//! serves, raw HTTP/1.1 requests, and stateless (2026-07-28) tool calls. Included with
//! `#[path]` by the HTTP suites.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// `deskpilot COMMAND ARGS...` serving HTTP, its address, and its stderr so far.
pub struct Served {
    pub child: Child,
    pub addr: SocketAddr,
    pub stderr: Vec<String>,
}

/// Asked to stop (SIGTERM), as a supervisor would, so that `deskpilot serve` stops its desktop
/// even when a test failed; killed when it does not end within 20 s.
impl Drop for Served {
    fn drop(&mut self) {
        use nix::sys::signal::{Signal, kill};
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = kill(pid, Signal::SIGTERM);
        let ended = deskpilot_linux::headless::wait::until(Duration::from_secs(20), || {
            (!matches!(self.child.try_wait(), Ok(None))).then_some(())
        });
        if ended.is_some() {
            return;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `deskpilot COMMAND ARGS...` with `env` until it says where it serves; `Err` when
/// it exits instead, with what it said. Its later stderr lines are read and dropped.
pub fn start(command: &str, args: &[&str], env: &[(&str, &str)]) -> Result<Served, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deskpilot"))
        .arg(command)
        .args(args)
        .envs(env.iter().copied())
        .env_remove("DESKPILOT_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut stderr = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        stderr.push(line.clone());
        if let Some(url) = line.strip_prefix("deskpilot: serving MCP at http://") {
            let addr = url.trim_end_matches("/mcp").parse().unwrap();
            std::thread::spawn(move || for _ in lines {});
            return Ok(Served {
                child,
                addr,
                stderr,
            });
        }
    }
    let _ = child.wait();
    Err(stderr.join("\n"))
}

/// One raw HTTP/1.1 request (the connection closed after it); the whole response.
pub fn raw(addr: SocketAddr, request: &str) -> String {
    try_raw(addr, request).unwrap()
}

/// `raw`, or why it could not connect or send (a server not listening yet).
pub fn try_raw(addr: SocketAddr, request: &str) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    stream.write_all(request.as_bytes())?;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    Ok(String::from_utf8_lossy(&response).into_owned())
}

/// A 2026-07-28 (stateless) tools/call of `tool` with `headers` added; the raw response.
pub fn call(addr: SocketAddr, headers: &[(&str, &str)], tool: &str, args: Value) -> String {
    raw(addr, &call_request(addr, headers, tool, args))
}

/// The raw request of `call`.
pub fn call_request(addr: SocketAddr, headers: &[(&str, &str)], tool: &str, args: Value) -> String {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": tool, "arguments": args, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\n\
         mcp-method: tools/call\r\nmcp-name: {tool}\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    if !headers.iter().any(|(name, _)| *name == "host") {
        head.push_str(&format!("host: {addr}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    format!("{head}\r\n{body}")
}

/// A response's status code.
pub fn status(response: &str) -> &str {
    response.split_whitespace().nth(1).unwrap_or_default()
}

/// The session a `connect` response opened.
pub fn session_in(response: &str) -> String {
    let found = response.split("\"session\":\"").nth(1);
    let session = found.and_then(|s| s.split('"').next());
    session
        .unwrap_or_else(|| panic!("no session in {response}"))
        .to_owned()
}
