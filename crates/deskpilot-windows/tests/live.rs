//! Live tests on a real Windows desktop (the Windows runner: `cargo test -p deskpilot-windows
//! --features live -- --test-threads=1`). Effects are judged by Win32 itself (the edit
//! control's own text, `WM_GETTEXT`), never by deskpilot's report.

#![cfg(all(windows, feature = "live"))]
#![allow(unsafe_code)]

use std::time::Duration;

use deskpilot_core::{Action, ConnectTarget, Engine, InputText, Selector, Target};
use windows::Win32::Foundation::{HWND, LPARAM, WPARAM};
use windows::Win32::UI::WindowsAndMessaging::{FindWindowExW, SendMessageW, WM_GETTEXT};
use windows::core::w;

fn engine() -> Engine {
    let desktop = deskpilot_windows::session_desktop().expect("UI Automation starts");
    Engine::new(desktop.backend)
        .with_windows(desktop.windows)
        .with_input(desktop.input)
        .with_capture(desktop.capture)
        .with_launcher(desktop.launcher)
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

/// Notepad starts, reads as an app with a window, and takes typed text, which its own edit
/// control then holds.
#[tokio::test(flavor = "multi_thread")]
async fn notepad_is_read_and_typed_into() {
    let engine = engine();
    let launched = engine
        .launch_app(&["notepad.exe".to_owned()], Duration::from_secs(20))
        .await
        .expect("Notepad starts and shows a window");
    let window = launched.app.windows[0]
        .system_id
        .expect("its window has a handle");
    let pid = launched.app.pid.expect("a pid");
    let session = engine.connect(&ConnectTarget::Pid(pid)).await.unwrap().id;
    let snapshot = engine
        .snapshot(&session, &Default::default())
        .await
        .unwrap();
    eprintln!("{}", snapshot.rendered.text);
    let editor = Target::Selector(Selector::parse("*[capability=text]").unwrap());
    let report = engine
        .act(
            &session,
            &editor,
            &Action::TypeText(InputText::plain("hello from deskpilot")),
        )
        .await
        .unwrap();
    eprintln!("{}", deskpilot_core::present::action(&report));
    let text = notepad_text(window.0).expect("Notepad's edit control");
    let _ = std::process::Command::new("taskkill")
        .args(["/F", "/PID", &pid.to_string()])
        .status();
    assert!(text.contains("hello from deskpilot"), "{text:?}");
}
