//! Live tests on a real Windows desktop (the Windows runner: `cargo test -p deskpilot-windows
//! --features live -- --test-threads=1`). Effects are judged by Win32 itself (the edit
//! control's own text, `WM_GETTEXT`), never by deskpilot's report.

#![cfg(all(windows, feature = "live"))]
#![allow(unsafe_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use deskpilot_core::act::WindowAction;
use deskpilot_core::{Action, ConnectTarget, Engine, InputText, Selector, Target};
use windows::Win32::Foundation::{HWND, LPARAM, WPARAM};
use windows::Win32::UI::WindowsAndMessaging::{
    FindWindowExW, GetForegroundWindow, SendMessageW, WM_GETTEXT,
};
use windows::core::w;

use serde_json::{Value, json};

fn engine() -> Engine {
    let desktop = deskpilot_windows::session_desktop().expect("UI Automation starts");
    let wiring = deskpilot_core::Wiring {
        windows: Some(desktop.windows),
        input: Some(desktop.input),
        capture: Some(desktop.capture),
        launcher: Some(desktop.launcher),
        ..deskpilot_core::Wiring::default()
    };
    Engine::wired(desktop.backend, wiring)
}

/// Starts `argv` until it shows a window, opens a session on it and prints its tree.
async fn started(engine: &Engine, argv: &[String]) -> (deskpilot_core::launch::Launched, String) {
    let launched = engine
        .launch_app(argv, Duration::from_secs(20))
        .await
        .expect("the program starts and shows a window");
    let pid = launched.app.pid.expect("a pid");
    let session = engine.connect(&ConnectTarget::Pid(pid)).await.unwrap().id;
    let snapshot = engine
        .session(&session)
        .unwrap()
        .snapshot(&Default::default())
        .await
        .unwrap();
    eprintln!("{}", snapshot.rendered.text);
    (launched, session)
}

/// The text of Notepad's edit control, read by Win32 (classic Notepad's `Edit`, or the
/// packaged one's `RichEditD2DPT`).
fn notepad_text(window: u64) -> Option<String> {
    // SAFETY: window queries and one WM_GETTEXT into a buffer of the size given.
    unsafe {
        let parent = HWND(window as usize as *mut _);
        let edit = FindWindowExW(Some(parent), None, w!("Edit"), None)
            .or_else(|_| FindWindowExW(Some(parent), None, w!("RichEditD2DPT"), None))
            .ok()?;
        let mut buffer = vec![0u16; 4096];
        let n = SendMessageW(
            edit,
            WM_GETTEXT,
            Some(WPARAM(buffer.len())),
            Some(LPARAM(buffer.as_mut_ptr() as isize)),
        );
        Some(String::from_utf16_lossy(&buffer[..n.0.max(0) as usize]))
    }
}

/// A process a test started, killed when the test ends well; a failed test leaves it open,
/// so the runner's screenshot shows the desktop as it failed.
struct Running(u32);

impl Drop for Running {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = Command::new("taskkill")
                .args(["/F", "/PID", &self.0.to_string()])
                .status();
        }
    }
}

/// The window in the foreground, as Win32 says.
fn foreground() -> u64 {
    // SAFETY: a query with no argument.
    unsafe { GetForegroundWindow().0 as u64 }
}

fn fixture_path() -> String {
    std::env::var("DESKPILOT_WINFIXTURE")
        .expect("DESKPILOT_WINFIXTURE names the built deskpilot-winfixture.exe")
}

/// Notepad starts and reads as an app with a window. The fixture is then brought to the
/// front as deskpilot activates a window (this test's process is not the foreground one:
/// the runner's console is, and Windows' foreground lock refuses a plain request). Typing
/// into Notepad takes the foreground back the same way; Win32 says which window is in front
/// each time, and Notepad's own edit control holds the text.
#[tokio::test(flavor = "multi_thread")]
async fn notepad_is_read_and_typed_into() {
    let engine = engine();
    let (launched, session) = started(&engine, &["notepad.exe".to_owned()]).await;
    let _notepad = Running(launched.app.pid.expect("a pid"));
    let window = launched.app.windows[0]
        .system_id
        .expect("its window has a handle");
    let (other, other_session) = started(&engine, &[fixture_path()]).await;
    let _fixture = Running(other.app.pid.expect("a pid"));
    let activated = engine
        .session(&other_session)
        .unwrap()
        .window_action(WindowAction::Activate)
        .await
        .unwrap();
    eprintln!("{}", deskpilot_core::present::action(&activated));
    let fixture_window = other.app.windows[0].system_id.expect("a handle");
    assert_eq!(foreground(), fixture_window.0, "the fixture is in front");
    let editor = Target::Selector(Selector::parse("*[capability=text]").unwrap());
    let report = engine
        .session(&session)
        .unwrap()
        .act(
            &editor,
            &Action::TypeText(InputText::plain("hello from deskpilot")),
        )
        .await
        .unwrap();
    eprintln!("{}", deskpilot_core::present::action(&report));
    assert_eq!(foreground(), window.0, "Notepad is back in front");
    let text = notepad_text(window.0).expect("Notepad's edit control");
    assert!(text.contains("hello from deskpilot"), "{text:?}");
}

/// The AccessKit fixture (its path in `DESKPILOT_WINFIXTURE`): each verb goes through UI
/// Automation and the fixture's own record says it happened; a password never shows.
#[tokio::test(flavor = "multi_thread")]
async fn the_fixture_is_read_and_acted_on() {
    let fixture = fixture_path();
    let oracle = std::env::temp_dir().join(format!("deskpilot-oracle-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&oracle);
    let engine = engine();
    let argv = [fixture, "--oracle".to_owned(), oracle.display().to_string()];
    let (launched, session) = started(&engine, &argv).await;
    let pid = launched.app.pid.expect("a pid");
    let by = |s: &str| Target::Selector(Selector::parse(s).unwrap());
    let steps = [
        (
            "button[name=\"Press me\"]",
            Action::Click {
                button: deskpilot_core::MouseButton::Left,
                double: false,
            },
        ),
        (
            "checkbox[name=Wrap]",
            Action::Toggle {
                ensure: Some(deskpilot_core::OnOff::On),
            },
        ),
        (
            "textbox[name=Name]",
            Action::SetValue(deskpilot_core::ValueInput::Text(InputText::plain("Ada"))),
        ),
        (
            "password[name=Password]",
            Action::SetValue(deskpilot_core::ValueInput::Text(InputText::secret(
                "hunter2",
            ))),
        ),
        (
            "slider[name=Volume]",
            Action::SetValue(deskpilot_core::ValueInput::Number(7.0)),
        ),
        ("listitem[name=Banana]", Action::Select),
    ];
    for (target, action) in steps {
        let report = engine
            .session(&session)
            .unwrap()
            .act(&by(target), &action)
            .await
            .unwrap();
        let text = deskpilot_core::present::action(&report);
        eprintln!("{text}");
        assert!(!text.contains("hunter2"), "{text}");
    }
    let _ = std::process::Command::new("taskkill")
        .args(["/F", "/PID", &pid.to_string()])
        .status();
    let record = std::fs::read_to_string(&oracle).expect("the fixture's record");
    for line in [
        "pressed 1",
        "wrap on",
        "name Ada",
        "password 7 characters",
        "volume 7",
        "fruit Banana",
    ] {
        assert!(
            record.lines().any(|l| l == line),
            "{line:?} not in {record:?}"
        );
    }
}

struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next: u64,
}

impl Server {
    fn start() -> Server {
        let exe =
            std::env::var("DESKPILOT_EXE").expect("DESKPILOT_EXE names the built deskpilot.exe");
        let mut child = Command::new(exe)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("deskpilot.exe mcp starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            input,
            output,
            next: 1,
        }
    }

    fn send(&mut self, message: Value) {
        writeln!(self.input, "{message}").unwrap();
        self.input.flush().unwrap();
    }

    /// A request, and the response with its id (notifications on the way are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "the server closed"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `deskpilot.exe mcp` over stdio (its path in `DESKPILOT_EXE`), spoken line by line as an
/// MCP host would: it starts, lists its tools read-only, and lists Notepad among the apps.
#[test]
fn the_mcp_server_lists_this_desktops_apps() {
    let mut notepad = Command::new("notepad.exe").spawn().expect("Notepad starts");
    let mut server = Server::start();
    let init = server.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "windows-test", "version": "0"}}),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "deskpilot");
    server.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let tools = server.request("tools/list", json!({}));
    let tools = tools["result"]["tools"].as_array().expect("a tool list");
    assert!(
        tools
            .iter()
            .all(|t| t["annotations"]["readOnlyHint"] == true)
    );
    // Notepad may take a moment to show its window: ask until it is listed.
    let mut listed = Value::Null;
    for _ in 0..50 {
        listed = server.request("tools/call", json!({"name": "list_apps", "arguments": {}}));
        if listed.to_string().to_lowercase().contains("notepad") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let _ = notepad.kill();
    let _ = notepad.wait();
    assert!(
        listed.to_string().to_lowercase().contains("notepad"),
        "{listed}"
    );
}
