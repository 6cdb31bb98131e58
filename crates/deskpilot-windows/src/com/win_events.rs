//! WinEvents, the cheap counter every Windows app feeds (native controls included): one hook
//! thread per watched process (`SetWinEventHook` out of context, delivered in that thread's
//! message loop), which ends once the process has exited (checked on a timer).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use windows::Win32::Foundation::{HANDLE, HWND, WAIT_OBJECT_0};
use windows::Win32::System::Threading::{OpenProcess, PROCESS_SYNCHRONIZE, WaitForSingleObject};
use windows::Win32::UI::Accessibility::{HWINEVENTHOOK, SetWinEventHook, UnhookWinEvent};
use windows::Win32::UI::WindowsAndMessaging::{
    DispatchMessageW, EVENT_MAX, EVENT_MIN, GetMessageW, MSG, SetTimer, WINEVENT_OUTOFCONTEXT,
    WINEVENT_SKIPOWNPROCESS, WM_TIMER,
};

use crate::events::{EventLog, from_win_event};

/// How often a hook thread checks that its process still runs, in milliseconds.
const ALIVE_CHECK_MS: u32 = 5_000;

/// Each hook's process and log, by hook handle.
type Hooks = HashMap<usize, (u32, Arc<EventLog>)>;

/// The hooks of every thread (a WinEvent callback gets no other context).
static HOOKED: Mutex<Option<Hooks>> = Mutex::new(None);

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
    if let Some((pid, log)) = hooked.as_ref().and_then(|h| h.get(&(hook.0 as usize)))
        && let Some(event) = from_win_event(*pid, event, window.0 as usize as u64, object, child)
    {
        log.note(event);
    }
}

/// Starts a thread that feeds `log` with process `pid`'s WinEvents until the process exits.
pub fn hook(pid: u32, log: Arc<EventLog>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(format!("winevents-{pid}"))
        .spawn(move || {
            // SAFETY: the hook, the timer and the message loop belong to this thread; the
            // process handle is only waited on.
            unsafe {
                let Ok(process) = OpenProcess(PROCESS_SYNCHRONIZE, false, pid) else {
                    return;
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
                // Its events are dispatched only in the loop below, after this.
                HOOKED
                    .lock()
                    .expect("hooks")
                    .get_or_insert_with(HashMap::new)
                    .insert(hook.0 as usize, (pid, log));
                SetTimer(None, 0, ALIVE_CHECK_MS, None);
                let mut message = MSG::default();
                while GetMessageW(&mut message, None, 0, 0).as_bool() {
                    if message.message == WM_TIMER && exited(process) {
                        break;
                    }
                    DispatchMessageW(&message);
                }
                let _ = UnhookWinEvent(hook);
                if let Some(hooks) = HOOKED.lock().expect("hooks").as_mut() {
                    hooks.remove(&(hook.0 as usize));
                }
                let _ = windows::Win32::Foundation::CloseHandle(process);
            }
        })
        .map(|_| ())
}

/// Whether the process has exited.
fn exited(process: HANDLE) -> bool {
    // SAFETY: a zero-timeout wait on a handle opened for waiting.
    unsafe { WaitForSingleObject(process, 0) == WAIT_OBJECT_0 }
}
