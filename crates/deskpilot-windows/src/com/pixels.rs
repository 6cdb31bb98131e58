//! GDI's pixels and the system's process list: a `BitBlt` of a screen region or a window's
//! own drawing (`PrintWindow`) into a top-down 32-bit bitmap, and each process's parent
//! (`Toolhelp32`).

use deskpilot_platform::model::Rect;
use windows::Win32::Foundation::{CloseHandle, HWND, RECT};
use windows::Win32::Graphics::Gdi::{
    BI_RGB, BITMAPINFO, BITMAPINFOHEADER, BitBlt, CAPTUREBLT, CreateCompatibleBitmap,
    CreateCompatibleDC, DIB_RGB_COLORS, DeleteDC, DeleteObject, GetDC, GetDIBits, HBITMAP, HDC,
    HGDIOBJ, MONITOR_DEFAULTTONEAREST, MonitorFromWindow, ReleaseDC, SRCCOPY, SelectObject,
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
use crate::offscreen::{Gdi, drawn};
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
        drawn(
            &Win32Gdi,
            rect.width,
            rect.height,
            |screen, memory| unsafe {
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
            },
        )
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
        let pixels = drawn(&Win32Gdi, bounds.width, bounds.height, |_, memory| unsafe {
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

/// GDI itself behind `offscreen::drawn`, which keeps the order its rules ask.
struct Win32Gdi;

impl Gdi for Win32Gdi {
    type Dc = HDC;
    type Bitmap = HBITMAP;
    type Held = HGDIOBJ;

    fn screen_dc(&self) -> HDC {
        // SAFETY: the screen's device context, released by `free`.
        unsafe { GetDC(None) }
    }

    fn memory_dc(&self, screen: HDC) -> HDC {
        // SAFETY: a device context, deleted by `free`.
        unsafe { CreateCompatibleDC(Some(screen)) }
    }

    fn bitmap(&self, screen: HDC, width: i32, height: i32) -> HBITMAP {
        // SAFETY: a bitmap, deleted by `free`.
        unsafe { CreateCompatibleBitmap(screen, width, height) }
    }

    fn hold(&self, dc: HDC, bitmap: HBITMAP) -> HGDIOBJ {
        // SAFETY: both handles were made by this type.
        unsafe { SelectObject(dc, bitmap.into()) }
    }

    fn let_go(&self, dc: HDC, held: HGDIOBJ) {
        // SAFETY: `held` is what `dc` held before.
        unsafe { SelectObject(dc, held) };
    }

    fn read(&self, dc: HDC, bitmap: HBITMAP, size: (i32, i32), pixels: &mut [u8]) -> i32 {
        let (width, height) = size;
        let mut info = BITMAPINFO {
            bmiHeader: BITMAPINFOHEADER {
                biSize: std::mem::size_of::<BITMAPINFOHEADER>() as u32,
                biWidth: width,
                // Top-down: a negative height.
                biHeight: -height,
                biPlanes: 1,
                biBitCount: 32,
                biCompression: BI_RGB.0,
                ..Default::default()
            },
            ..Default::default()
        };
        debug_assert_eq!(pixels.len(), width as usize * height as usize * 4);
        // SAFETY: `pixels` holds exactly the bitmap at 32 bits a pixel.
        unsafe {
            GetDIBits(
                dc,
                bitmap,
                0,
                height as u32,
                Some(pixels.as_mut_ptr().cast()),
                &mut info,
                DIB_RGB_COLORS,
            )
        }
    }

    fn free(&self, screen: HDC, memory: HDC, bitmap: HBITMAP) {
        // SAFETY: each was made by this type and is freed once.
        unsafe {
            let _ = DeleteObject(bitmap.into());
            let _ = DeleteDC(memory);
            ReleaseDC(None, screen);
        }
    }
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
