//! WinEvents, the cheap counter every Windows app feeds (native controls included): one hook
//! thread per watched process (`SetWinEventHook` out of context, delivered in that thread's
//! message loop), which ends once the process has exited (checked on a timer).

use std::sync::{Arc, Mutex};

use windows::Win32::Foundation::{HANDLE, HWND, WAIT_OBJECT_0};
use windows::Win32::System::Threading::{OpenProcess, PROCESS_SYNCHRONIZE, WaitForSingleObject};
use windows::Win32::UI::Accessibility::{HWINEVENTHOOK, SetWinEventHook, UnhookWinEvent};
use windows::Win32::UI::WindowsAndMessaging::{
    DispatchMessageW, EVENT_MAX, EVENT_MIN, GetMessageW, MSG, SetTimer, WINEVENT_OUTOFCONTEXT,
    WINEVENT_SKIPOWNPROCESS, WM_TIMER,
};

use crate::events::{EventLog, from_win_event};
use crate::hooks::{Claim, HookTable};

/// How often a hook thread checks that its process still runs, in milliseconds.
const ALIVE_CHECK_MS: u32 = 5_000;

/// The hooks of every thread (a WinEvent callback gets no other context).
static HOOKED: Mutex<Option<HookTable>> = Mutex::new(None);

/// Runs `f` on the table of hooks.
fn hooks<T>(f: impl FnOnce(&mut HookTable) -> T) -> T {
    f(HOOKED
        .lock()
        .expect("hooks")
        .get_or_insert_with(HookTable::default))
}

unsafe extern "system" fn on_event(
    hook: HWINEVENTHOOK,
    event: u32,
    window: HWND,
    object: i32,
    child: i32,
    _thread: u32,
    _time: u32,
) {
    let hooked = HOOKED.lock().expect("hooks");
    if let Some((pid, log)) = hooked.as_ref().and_then(|h| h.of(hook.0 as usize))
        && let Some(event) = from_win_event(pid, event, window.0 as usize as u64, object, child)
    {
        log.note(event);
    }
}

/// How long `hook` waits for its thread to say whether the hook is in place.
const INSTALL_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Feeds `log` with process `pid`'s WinEvents until the process exits: one hook thread per
/// process (a second call, even while the first installs, points the hook at `log`),
/// answering once the hook is in place or why it is not.
pub fn hook(pid: u32, log: Arc<EventLog>) -> Result<(), String> {
    let claim = match hooks(|table| table.claim(pid, log)) {
        Claim::Repointed => return Ok(()),
        Claim::Install(claim) => claim,
    };
    let (installed, answer) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(format!("winevents-{pid}"))
        .spawn(move || run_hook(pid, claim, installed));
    let answered = match spawned {
        Ok(_) => answer
            .recv_timeout(INSTALL_WAIT)
            .unwrap_or_else(|_| Err("the hook thread did not answer".into())),
        Err(e) => Err(e.to_string()),
    };
    if answered.is_err() {
        hooks(|table| table.failed(pid, claim));
    }
    answered
}

/// The hook thread: installs the hook, says so, and runs its message loop.
fn run_hook(pid: u32, claim: u64, installed: std::sync::mpsc::Sender<Result<(), String>>) {
    // SAFETY: the hook, the timer and the message loop belong to this thread; the
    // process handle is only waited on.
    unsafe {
        let process = match OpenProcess(PROCESS_SYNCHRONIZE, false, pid) {
            Ok(process) => process,
            Err(e) => {
                let _ = installed.send(Err(format!("opening the process: {e}")));
                return;
            }
        };
        let hook = SetWinEventHook(
            EVENT_MIN,
            EVENT_MAX,
            None,
            Some(on_event),
            pid,
            0,
            WINEVENT_OUTOFCONTEXT | WINEVENT_SKIPOWNPROCESS,
        );
        if hook.is_invalid() {
            let _ = installed.send(Err("SetWinEventHook failed".into()));
            let _ = windows::Win32::Foundation::CloseHandle(process);
            return;
        }
        // Its events are dispatched only in the loop below, after this. A claim given up
        // since (this answered too late) leaves the hook to another thread's.
        if !hooks(|table| table.installed(hook.0 as usize, pid, claim)) {
            let _ = UnhookWinEvent(hook);
            let _ = windows::Win32::Foundation::CloseHandle(process);
            return;
        }
        let _ = installed.send(Ok(()));
        SetTimer(None, 0, ALIVE_CHECK_MS, None);
        let mut message = MSG::default();
        while GetMessageW(&mut message, None, 0, 0).as_bool() {
            if message.message == WM_TIMER && exited(process) {
                break;
            }
            DispatchMessageW(&message);
        }
        let _ = UnhookWinEvent(hook);
        hooks(|table| table.removed(hook.0 as usize));
        let _ = windows::Win32::Foundation::CloseHandle(process);
    }
}

/// Whether the process has exited.
fn exited(process: HANDLE) -> bool {
    // SAFETY: a zero-timeout wait on a handle opened for waiting.
    unsafe { WaitForSingleObject(process, 0) == WAIT_OBJECT_0 }
}
