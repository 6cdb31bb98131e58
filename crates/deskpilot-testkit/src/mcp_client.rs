//! A minimal MCP client over a child's stdio, one JSON-RPC message per line: what tests and
//! the demo use to speak to `deskpilot mcp` as an MCP host would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use deskpilot_linux::headless::wait;

/// How long any reply may take.
const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

pub struct McpClient {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
    /// Each tool's outputSchema, once fetched.
    output_schemas: Option<std::collections::HashMap<String, Value>>,
}

/// The Python of the venv `cargo xtask test` makes with the official MCP Python SDK (PyPI
/// `mcp`); a test that needs it fails saying how to make it.
pub fn sdk_python() -> std::path::PathBuf {
    let python =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/mcp-venv/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run `cargo xtask test` (it creates the venv with the MCP Python SDK)",
        python.display()
    );
    python
}

impl McpClient {
    /// `binary mcp [flags] --bus ... --display ...` for `desktop`: the desktop's environment
    /// (whatever the server launches is torn down with the desktop), stderr discarded.
    pub fn deskpilot_command(
        desktop: &crate::VirtualDesktop,
        binary: &str,
        flags: &[&str],
    ) -> Command {
        let mut cmd = desktop.command(binary);
        cmd.arg("mcp")
            .args(flags)
            .args(["--bus", desktop.session_bus_address()])
            .args(["--display", desktop.display()])
            .stderr(Stdio::null());
        cmd
    }

    /// Starts `cmd` (e.g. `deskpilot mcp --bus ...`) with piped stdio.
    pub fn spawn(mut cmd: Command) -> std::io::Result<McpClient> {
        let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn()?;
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(McpClient {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 1,
            output_schemas: None,
        })
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one raw line (for robustness tests).
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(line.as_bytes())
            .expect("server reads stdin");
        stdin.write_all(b"\n").expect("server reads stdin");
        stdin.flush().expect("server reads stdin");
    }

    /// The next line the server wrote. Panics unless it is JSON-RPC 2.0: nothing else may
    /// reach stdout.
    pub fn receive(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(REPLY_TIMEOUT)
            .expect("the server answers within 60 s");
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not JSON on stdout: {line:?}: {e}"));
        assert_eq!(value["jsonrpc"], "2.0", "not JSON-RPC 2.0: {line}");
        value
    }

    /// The next line within `timeout`, if one comes (checked as in `receive`).
    pub fn receive_within(&mut self, timeout: Duration) -> Option<Value> {
        let line = self.lines.recv_timeout(timeout).ok()?;
        let value: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not JSON on stdout: {line:?}: {e}"));
        assert_eq!(value["jsonrpc"], "2.0", "not JSON-RPC 2.0: {line}");
        Some(value)
    }

    /// Sends a request and returns its reply (notifications in between are skipped).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.reply_to(id)
    }

    /// Sends a request without waiting for its reply; returns its id (for `reply_to`).
    pub fn send_request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send_line(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        id
    }

    /// The reply to request `id` (other messages before it are skipped).
    pub fn reply_to(&mut self, id: u64) -> Value {
        loop {
            let reply = self.receive();
            if reply["id"] == json!(id) {
                return reply;
            }
        }
    }

    /// `initialize` (protocol 2025-11-25) and `notifications/initialized`.
    pub fn initialize(&mut self) -> Value {
        let reply = self.request(
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "deskpilot-testkit", "version": "0"}
            }),
        );
        self.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        reply
    }

    /// Calls a tool and returns its `result` (a tool failure is a result with `isError`).
    /// Every structured result is validated against the tool's outputSchema (fetched once
    /// with tools/list): a result that does not fit its schema fails the test.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let reply = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert!(
            reply.get("error").is_none(),
            "protocol error calling {tool}: {reply}"
        );
        let result = reply["result"].clone();
        if let Some(structured) = result.get("structuredContent") {
            self.check_output(tool, structured);
        }
        result
    }

    fn check_output(&mut self, tool: &str, structured: &Value) {
        if self.output_schemas.is_none() {
            let list = self.request("tools/list", json!({}));
            let schemas = list["result"]["tools"]
                .as_array()
                .map(|tools| {
                    tools
                        .iter()
                        .filter_map(|t| {
                            Some((
                                t["name"].as_str()?.to_owned(),
                                t.get("outputSchema")?.clone(),
                            ))
                        })
                        .collect()
                })
                .unwrap_or_default();
            self.output_schemas = Some(schemas);
        }
        let Some(schema) = self.output_schemas.as_ref().and_then(|s| s.get(tool)) else {
            return;
        };
        let validator = jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{tool}: its outputSchema is not a valid schema: {e}"));
        let errors: Vec<String> = validator
            .iter_errors(structured)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{tool}: result does not fit its outputSchema: {errors:?}\n{structured}"
        );
    }

    /// Closes stdin and waits up to `timeout` for the server to exit.
    pub fn close(&mut self, timeout: Duration) -> Option<ExitStatus> {
        self.stdin = None;
        let deadline = Instant::now() + timeout;
        wait::until(deadline.saturating_duration_since(Instant::now()), || {
            self.child.try_wait().ok().flatten()
        })
    }
}

impl Drop for McpClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
