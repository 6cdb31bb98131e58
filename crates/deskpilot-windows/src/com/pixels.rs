//! GDI's pixels and the system's process list: a `BitBlt` of a screen region or a window's
//! own drawing (`PrintWindow`) into a top-down 32-bit bitmap, and each process's parent
//! (`Toolhelp32`).

use deskpilot_platform::model::Rect;
use windows::Win32::Foundation::{CloseHandle, HWND, RECT};
use windows::Win32::Graphics::Gdi::{
    BI_RGB, BITMAPINFO, BITMAPINFOHEADER, BitBlt, CAPTUREBLT, CreateCompatibleBitmap,
    CreateCompatibleDC, DIB_RGB_COLORS, DeleteDC, DeleteObject, GetDC, GetDIBits, HDC,
    MONITOR_DEFAULTTONEAREST, MonitorFromWindow, ReleaseDC, SRCCOPY, SelectObject,
};
use windows::Win32::Storage::Xps::{PRINT_WINDOW_FLAGS, PrintWindow};
use windows::Win32::System::Diagnostics::ToolHelp::{
    CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW, TH32CS_SNAPPROCESS,
};
use windows::Win32::UI::HiDpi::{GetDpiForMonitor, GetDpiForWindow, MDT_EFFECTIVE_DPI};
use windows::Win32::UI::WindowsAndMessaging::{
    GetSystemMetrics, GetWindowRect, PW_RENDERFULLCONTENT, SM_CXVIRTUALSCREEN, SM_CYVIRTUALSCREEN,
    SM_XVIRTUALSCREEN, SM_YVIRTUALSCREEN,
};

use super::desktop::{Win32Windows, rect_of};
use crate::capture::{Dpi, PixelSource};
use crate::system_windows::{RawWindow, WindowApi};

/// The screen through GDI.
pub struct GdiPixels;

impl PixelSource for GdiPixels {
    fn screen(&self) -> Rect {
        // SAFETY: metric queries.
        unsafe {
            Rect::new(
                GetSystemMetrics(SM_XVIRTUALSCREEN),
                GetSystemMetrics(SM_YVIRTUALSCREEN),
                GetSystemMetrics(SM_CXVIRTUALSCREEN),
                GetSystemMetrics(SM_CYVIRTUALSCREEN),
            )
        }
    }

    fn grab(&self, rect: Rect) -> Result<Vec<u8>, String> {
        // SAFETY: `memory` is a device context compatible with the screen, made by `drawn`.
        drawn(rect.width, rect.height, |screen, memory| unsafe {
            BitBlt(
                memory,
                0,
                0,
                rect.width,
                rect.height,
                Some(screen),
                rect.x,
                rect.y,
                SRCCOPY | CAPTUREBLT,
            )
            .map_err(|e| e.message())
        })
    }

    fn stack(&self) -> Result<Vec<RawWindow>, String> {
        Win32Windows.windows()
    }

    fn print(&self, window: u64) -> Result<(Rect, Vec<u8>), String> {
        let handle = HWND(window as usize as *mut _);
        let mut bounds = RECT::default();
        // SAFETY: a query into a RECT.
        unsafe { GetWindowRect(handle, &mut bounds) }.map_err(|e| e.message())?;
        let bounds = rect_of(bounds);
        // SAFETY: `memory` is a device context compatible with the screen, made by `drawn`;
        // the window draws into it (its own thread answers, or the call fails).
        let pixels = drawn(bounds.width, bounds.height, |_, memory| unsafe {
            PrintWindow(handle, memory, PRINT_WINDOW_FLAGS(PW_RENDERFULLCONTENT))
                .ok()
                .map_err(|e| e.message())
        })?;
        Ok((bounds, pixels))
    }

    fn dpi(&self, window: u64) -> Result<Dpi, String> {
        let handle = HWND(window as usize as *mut _);
        let (mut x, mut y) = (0u32, 0u32);
        // SAFETY: queries on a window handle and its monitor, into two integers.
        unsafe {
            let monitor = MonitorFromWindow(handle, MONITOR_DEFAULTTONEAREST);
            GetDpiForMonitor(monitor, MDT_EFFECTIVE_DPI, &mut x, &mut y)
                .map_err(|e| e.message())?;
            Ok(Dpi {
                window: GetDpiForWindow(handle),
                monitor: x,
            })
        }
    }
}

/// A `width` x `height` bitmap that `draw` fills through a memory device context (given the
/// screen's too), read back top-down BGRA.
fn drawn(
    width: i32,
    height: i32,
    draw: impl FnOnce(HDC, HDC) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    if width <= 0 || height <= 0 {
        return Err(format!("nothing to draw: {width}x{height}"));
    }
    let mut pixels = vec![0u8; width as usize * height as usize * 4];
    // SAFETY: every GDI object made here is released below; the bitmap is read into a
    // buffer of exactly its size (32 bits a pixel, top-down: a negative height).
    unsafe {
        let screen = GetDC(None);
        let memory = CreateCompatibleDC(Some(screen));
        let bitmap = CreateCompatibleBitmap(screen, width, height);
        let previous = SelectObject(memory, bitmap.into());
        let copied = draw(screen, memory);
        // GetDIBits reads a bitmap no device context holds (its documentation's rule;
        // review C3): the bitmap is let go first.
        SelectObject(memory, previous);
        let mut info = BITMAPINFO {
            bmiHeader: BITMAPINFOHEADER {
                biSize: std::mem::size_of::<BITMAPINFOHEADER>() as u32,
                biWidth: width,
                biHeight: -height,
                biPlanes: 1,
                biBitCount: 32,
                biCompression: BI_RGB.0,
                ..Default::default()
            },
            ..Default::default()
        };
        let lines = GetDIBits(
            memory,
            bitmap,
            0,
            height as u32,
            Some(pixels.as_mut_ptr().cast()),
            &mut info,
            DIB_RGB_COLORS,
        );
        let _ = DeleteObject(bitmap.into());
        let _ = DeleteDC(memory);
        ReleaseDC(None, screen);
        copied?;
        if lines != height {
            return Err(format!("GetDIBits read {lines} of {height} lines"));
        }
    }
    Ok(pixels)
}

/// A process's parent, from the system's process list.
pub fn parent_of(pid: u32) -> Option<u32> {
    // SAFETY: a snapshot walked with an entry of the size it asks, and closed.
    unsafe {
        let snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0).ok()?;
        let mut entry = PROCESSENTRY32W {
            dwSize: std::mem::size_of::<PROCESSENTRY32W>() as u32,
            ..Default::default()
        };
        let mut parent = None;
        let mut more = Process32FirstW(snapshot, &mut entry).is_ok();
        while more {
            if entry.th32ProcessID == pid {
                parent = Some(entry.th32ParentProcessID);
                break;
            }
            more = Process32NextW(snapshot, &mut entry).is_ok();
        }
        let _ = CloseHandle(snapshot);
        parent
    }
}
