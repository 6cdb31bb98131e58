//! An agent for the real-app tests: one `deskpilot mcp --allow-input` server driven as an
//! agent would (list_apps, connect by name, tool calls), counting calls and bytes, with the
//! helpers those tests share. Included with `#[path]` by the task suite and the false-success
//! tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use deskpilot_testkit::{App, McpClient, VirtualDesktop};
use serde_json::{Value, json};

/// An agent: one MCP server, counting what it is asked and what it answers.
pub struct Agent {
    pub server: McpClient,
    pub session: String,
    calls: u32,
    bytes: usize,
    /// What the agent read before its first call: the instructions and tools/list's tools.
    catalog: usize,
    started: Instant,
    log: Vec<String>,
}

impl Agent {
    pub fn start(desktop: &VirtualDesktop) -> Agent {
        let cmd = McpClient::deskpilot_command(
            desktop,
            env!("CARGO_BIN_EXE_deskpilot"),
            &["--allow-input"],
        );
        let mut server = McpClient::spawn(cmd).expect("deskpilot mcp starts");
        let init = server.initialize();
        let list = server.request("tools/list", json!({}));
        let instructions = init["result"]["instructions"].as_str().map_or(0, str::len);
        Agent {
            server,
            session: String::new(),
            calls: 0,
            bytes: 0,
            catalog: instructions + list["result"]["tools"].to_string().len(),
            started: Instant::now(),
            log: Vec::new(),
        }
    }

    /// One tool call; the session is added to the arguments once there is one.
    pub fn call(&mut self, tool: &str, mut args: Value) -> Value {
        if !self.session.is_empty() && tool != "list_apps" && tool != "connect" {
            args["session"] = json!(self.session);
        }
        let result = self.server.call(tool, args.clone());
        self.calls += 1;
        self.bytes += result.to_string().len();
        self.log.push(format!(
            "> {tool} {args}\n{}",
            result["content"][0]["text"].as_str().unwrap_or_default()
        ));
        result
    }

    /// A call that must succeed.
    pub fn ok(&mut self, tool: &str, args: Value) -> Value {
        let result = self.call(tool, args);
        assert_eq!(
            result["isError"],
            false,
            "{tool} failed:\n{}",
            self.transcript()
        );
        result
    }

    /// list_apps until `name` is listed with a window, then connect by that name.
    pub fn connect(&mut self, name: &str) {
        self.wait_listed(name);
        let connected = self.ok("connect", json!({"app": name}));
        self.session = connected["structuredContent"]["session"]
            .as_str()
            .unwrap()
            .to_owned();
    }

    /// One `run_steps` call that must pass.
    pub fn run_steps(&mut self, pipeline: Value) -> Value {
        self.ok("run_steps", pipeline)
    }

    /// list_apps until `name` is listed with a window.
    pub fn wait_listed(&mut self, name: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let apps = self.ok("list_apps", json!({}));
            let listed = apps["structuredContent"]["apps"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|a| {
                    a["name"] == name && a["windows"].as_array().is_some_and(|w| !w.is_empty())
                });
            if listed {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{name} never listed:\n{}",
                self.transcript()
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// Connects to the window titled `title` (and the windows over it).
    pub fn connect_window(&mut self, title: &str) {
        let connected = self.ok("connect", json!({"window": title}));
        self.session = connected["structuredContent"]["session"]
            .as_str()
            .unwrap()
            .to_owned();
    }

    pub fn wait_for(&mut self, selector: &str, extra: Value) -> Value {
        let mut args = json!({"selector": selector, "timeout_ms": 20000});
        if let (Some(args), Some(extra)) = (args.as_object_mut(), extra.as_object()) {
            args.extend(extra.clone());
        }
        self.ok("wait_for", args)
    }

    /// In an open GTK file chooser: the file's path as its name, then Save once the chooser
    /// has looked at the name and enabled it.
    pub fn save_in_gtk_chooser(&mut self, path: &Path) {
        // "Name:" beside the file list; "Name" in the header bar GTK 3 gives dialogs on
        // Wayland.
        let name = "filechooser >> textbox[name~=/^Name:?$/]";
        let save = "filechooser >> button[name=Save]";
        self.wait_for(name, json!({}));
        self.ok(
            "set_value",
            json!({"target": name, "value": path.to_str().unwrap()}),
        );
        self.wait_for(save, json!({"state": "enabled"}));
        self.ok("click", json!({"target": save}));
    }

    /// Clicks the dialog's OK and gives what the program printed once it exited (kdialog,
    /// yad and zenity print the answer).
    pub fn answer_of(&mut self, dialog: &mut App) -> String {
        self.ok("click", json!({"target": "button[name=OK]"}));
        let exited = dialog.wait_exit(Duration::from_secs(10));
        assert!(exited.is_some(), "still running:\n{}", self.transcript());
        dialog.stdout_text().trim().to_owned()
    }

    pub fn transcript(&self) -> String {
        self.log.join("\n")
    }

    /// Writes the task's row and prints it with the transcript's length.
    pub fn finish(self, task: &str, apps: &str, covers: &str) {
        let row = json!({
            "task": task,
            "apps": apps,
            "covers": covers,
            "calls": self.calls,
            "bytes": self.bytes,
            "catalog": self.catalog,
            "wall_ms": self.started.elapsed().as_millis() as u64,
        });
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tasks");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{task}.json")), row.to_string()).unwrap();
        println!("task {task}: {row}");
    }
}

pub fn launch(desktop: &VirtualDesktop, program: &str) -> App {
    desktop
        .launch(desktop.command(program))
        .unwrap_or_else(|e| panic!("{program}: {e}"))
}

/// The file at `path` once it exists (the save may land after the dialog closed).
pub fn file_text(path: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && !text.is_empty()
        {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{} was never written",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until `done` holds, checking every 100 ms for `timeout`.
pub fn eventually(timeout: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

pub fn out_path(desktop: &VirtualDesktop, name: &str) -> PathBuf {
    desktop.dir().join(name)
}

/// The text of a tool's result.
pub fn text_of(result: &Value) -> String {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}
