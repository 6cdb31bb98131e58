//! The system's top-level windows through user32 (and DWM for cloaking): the `WindowApi` on
//! Windows. None of these calls sends a message to the window's app, so a frozen app cannot
//! block them (`InternalGetWindowText`, not `GetWindowText`).

use deskpilot_platform::WindowAction;
use deskpilot_platform::model::Rect;
use windows::Win32::Foundation::{HWND, LPARAM, POINT, RECT, WPARAM};
use windows::Win32::Graphics::Dwm::{
    DWMWA_CLOAKED, DWMWA_EXTENDED_FRAME_BOUNDS, DwmGetWindowAttribute,
};
use windows::Win32::Graphics::Gdi::ClientToScreen;
use windows::Win32::UI::WindowsAndMessaging::{
    EnumWindows, GW_OWNER, GWL_EXSTYLE, GetClassNameW, GetClientRect, GetForegroundWindow,
    GetWindow, GetWindowLongW, GetWindowRect, GetWindowThreadProcessId, InternalGetWindowText,
    IsIconic, IsWindowVisible, IsZoomed, PostMessageW, SW_MAXIMIZE, SW_MINIMIZE, SW_RESTORE,
    SetForegroundWindow, ShowWindowAsync, WM_CLOSE, WS_EX_TOOLWINDOW,
};
use windows::core::BOOL;

use crate::system_windows::{RawWindow, WindowApi};

/// user32's window list and window manager.
pub struct Win32Windows;

fn hwnd(id: u64) -> HWND {
    HWND(id as usize as *mut _)
}

/// The process a window belongs to as an app: its top-level window's (`GetAncestor`), or
/// that window's content's where it is a UWP frame. `None` for a gone window.
pub fn app_of_window(id: u64) -> Option<u32> {
    use windows::Win32::UI::WindowsAndMessaging::{GA_ROOT, GetAncestor};
    // SAFETY: plain queries of window handles; a gone window fails them.
    unsafe {
        let root = GetAncestor(hwnd(id), GA_ROOT);
        if root.0.is_null() {
            return None;
        }
        let mut pid = 0;
        GetWindowThreadProcessId(root, Some(&mut pid));
        let mut class = vec![0u16; 256];
        let n = GetClassNameW(root, &mut class).max(0) as usize;
        let frame = String::from_utf16_lossy(&class[..n]) == crate::raw::frame::FRAME_CLASS;
        let content = frame
            .then(|| hosted_content(root.0 as usize as u64))
            .flatten();
        (pid != 0).then_some(content.unwrap_or(pid))
    }
}

/// The process of the content a UWP frame window shows: its child window of the content's
/// class (`FindWindowExW`, no message sent), that window's process. There is none for any other
/// window. Nor is there for a frame whose app is suspended or minimized: Windows then takes
/// the content window out of the frame.
pub fn hosted_content(frame: u64) -> Option<u32> {
    use windows::Win32::UI::WindowsAndMessaging::FindWindowExW;
    use windows::core::HSTRING;
    let class = HSTRING::from(crate::raw::frame::CONTENT_CLASS);
    // SAFETY: plain queries of window handles; a gone window fails them.
    unsafe {
        let content = FindWindowExW(Some(hwnd(frame)), None, &class, None).ok()?;
        let mut pid = 0;
        GetWindowThreadProcessId(content, Some(&mut pid));
        (pid != 0).then_some(pid)
    }
}

unsafe extern "system" fn collect(window: HWND, found: LPARAM) -> BOOL {
    // SAFETY: `found` is the vector `windows` passed, alive for the whole enumeration.
    let found = unsafe { &mut *(found.0 as *mut Vec<HWND>) };
    found.push(window);
    BOOL(1)
}

/// The window as drawn on screen: DWM's frame (no invisible borders), else its rectangle.
fn frame_of(window: HWND) -> Rect {
    let mut frame = RECT::default();
    // SAFETY: a RECT-sized attribute read into a RECT; then a plain query.
    let read = unsafe {
        DwmGetWindowAttribute(
            window,
            DWMWA_EXTENDED_FRAME_BOUNDS,
            (&mut frame as *mut RECT).cast(),
            std::mem::size_of::<RECT>() as u32,
        )
        .or_else(|_| GetWindowRect(window, &mut frame))
    };
    match read {
        Ok(()) => rect_of(frame),
        Err(_) => Rect::default(),
    }
}

/// A Win32 rectangle as the model's.
pub fn rect_of(r: RECT) -> Rect {
    Rect::new(r.left, r.top, r.right - r.left, r.bottom - r.top)
}

/// One window as the system has it.
fn read(window: HWND) -> RawWindow {
    // SAFETY: queries on a handle `EnumWindows` gave (a window gone since answers zeros).
    unsafe {
        let mut pid = 0u32;
        GetWindowThreadProcessId(window, Some(&mut pid));
        let mut title = vec![0u16; 512];
        let n = InternalGetWindowText(window, &mut title).max(0) as usize;
        let mut class = vec![0u16; 256];
        let c = GetClassNameW(window, &mut class).max(0) as usize;
        let mut area = RECT::default();
        let mut origin = POINT::default();
        let client = match GetClientRect(window, &mut area) {
            Ok(()) if ClientToScreen(window, &mut origin).as_bool() => Rect::new(
                origin.x,
                origin.y,
                area.right - area.left,
                area.bottom - area.top,
            ),
            _ => Rect::default(),
        };
        let frame = frame_of(window);
        let mut cloaked = 0u32;
        let _ = DwmGetWindowAttribute(
            window,
            DWMWA_CLOAKED,
            (&mut cloaked as *mut u32).cast(),
            std::mem::size_of::<u32>() as u32,
        );
        let style = GetWindowLongW(window, GWL_EXSTYLE) as u32;
        RawWindow {
            hwnd: window.0 as usize as u64,
            pid,
            title: String::from_utf16_lossy(&title[..n]),
            class: String::from_utf16_lossy(&class[..c]),
            client,
            frame,
            visible: IsWindowVisible(window).as_bool(),
            cloaked: cloaked != 0,
            tool: style & WS_EX_TOOLWINDOW.0 != 0,
            owner: GetWindow(window, GW_OWNER)
                .ok()
                .filter(|o| !o.0.is_null())
                .map(|o| o.0 as usize as u64),
            minimized: IsIconic(window).as_bool(),
            maximized: IsZoomed(window).as_bool(),
        }
    }
}

impl WindowApi for Win32Windows {
    fn windows(&self) -> Result<Vec<RawWindow>, String> {
        let mut found: Vec<HWND> = Vec::new();
        // SAFETY: the callback only pushes onto `found`, which outlives the call.
        unsafe {
            EnumWindows(Some(collect), LPARAM(&mut found as *mut Vec<HWND> as isize))
                .map_err(|e| e.message())?;
        }
        Ok(found.into_iter().map(read).collect())
    }

    fn foreground(&self) -> Option<u64> {
        // SAFETY: a query with no arguments.
        let window = unsafe { GetForegroundWindow() };
        (!window.0.is_null()).then_some(window.0 as usize as u64)
    }

    fn activate(&self, id: u64) -> Result<(), String> {
        use windows::Win32::System::Threading::{AttachThreadInput, GetCurrentThreadId};
        use windows::Win32::UI::WindowsAndMessaging::IsHungAppWindow;
        let window = hwnd(id);
        // A hung window would hold the activation, with our input attached to the user's
        // foreground thread meanwhile.
        // SAFETY: a query on a window handle.
        if unsafe { IsHungAppWindow(window) }.as_bool() {
            return Err(format!("window {id:#x} does not answer (hung)"));
        }
        // SAFETY: queries and requests on window handles and thread ids; the input is
        // detached again before returning. `SetForegroundWindow` raises the window itself:
        // `BringWindowToTop` could block on the window's thread, attached meanwhile.
        let granted = unsafe {
            let foreground = GetForegroundWindow();
            let theirs = GetWindowThreadProcessId(foreground, None);
            let ours = GetCurrentThreadId();
            let attached =
                theirs != 0 && theirs != ours && AttachThreadInput(ours, theirs, true).as_bool();
            let granted = SetForegroundWindow(window).as_bool();
            if attached {
                let _ = AttachThreadInput(ours, theirs, false);
            }
            granted
        };
        match granted {
            true => Ok(()),
            false => Err(format!("window {id:#x} was refused the foreground")),
        }
    }

    fn ask(&self, id: u64, action: WindowAction) -> Result<(), String> {
        let window = hwnd(id);
        // SAFETY: requests to a window handle; a gone window answers false.
        let asked = unsafe {
            match action {
                WindowAction::Activate => SetForegroundWindow(window).as_bool(),
                WindowAction::Minimize => ShowWindowAsync(window, SW_MINIMIZE).as_bool(),
                WindowAction::Maximize => ShowWindowAsync(window, SW_MAXIMIZE).as_bool(),
                WindowAction::Restore => ShowWindowAsync(window, SW_RESTORE).as_bool(),
                WindowAction::Close => {
                    PostMessageW(Some(window), WM_CLOSE, WPARAM(0), LPARAM(0)).is_ok()
                }
            }
        };
        // ShowWindowAsync answers whether the window was visible before, not success.
        match action {
            WindowAction::Activate | WindowAction::Close if !asked => {
                Err(format!("window {id:#x} refused {action:?}"))
            }
            _ => Ok(()),
        }
    }
}
