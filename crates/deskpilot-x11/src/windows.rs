//! Top-level windows from the window manager's `_NET_CLIENT_LIST`.

use std::sync::Mutex;

use deskpilot_platform::model::Rect;
use deskpilot_platform::{ClientWindow, WindowId};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt, Window};
use x11rb::rust_connection::RustConnection;

struct Atoms {
    client_list: u32,
    wm_pid: u32,
    wm_name: u32,
    utf8_string: u32,
}

/// A connection to one X display, answering window questions.
pub struct X11Windows {
    conn: Mutex<RustConnection>,
    root: Window,
    atoms: Atoms,
}

impl X11Windows {
    /// Connects to `display` (e.g. `:3`); never to `$DISPLAY` by accident.
    pub fn connect(display: &str) -> Result<Self, String> {
        let (conn, screen) =
            x11rb::connect(Some(display)).map_err(|e| format!("X11 connect to {display}: {e}"))?;
        let root = conn.setup().roots[screen].root;
        let intern = |name: &[u8]| -> Result<u32, String> {
            Ok(conn
                .intern_atom(false, name)
                .map_err(|e| e.to_string())?
                .reply()
                .map_err(|e| e.to_string())?
                .atom)
        };
        let atoms = Atoms {
            client_list: intern(b"_NET_CLIENT_LIST")?,
            wm_pid: intern(b"_NET_WM_PID")?,
            wm_name: intern(b"_NET_WM_NAME")?,
            utf8_string: intern(b"UTF8_STRING")?,
        };
        Ok(X11Windows {
            conn: Mutex::new(conn),
            root,
            atoms,
        })
    }
}

impl X11Windows {
    /// The top-level client windows (blocking: `X11WindowSystem` calls it on a thread).
    pub fn client_windows(&self) -> Result<Vec<ClientWindow>, String> {
        let conn = self.conn.lock().map_err(|_| "X11 connection poisoned")?;
        let err = |e: &dyn std::fmt::Display| e.to_string();
        let list = conn
            .get_property(
                false,
                self.root,
                self.atoms.client_list,
                AtomEnum::WINDOW,
                0,
                4096,
            )
            .map_err(|e| err(&e))?
            .reply()
            .map_err(|e| err(&e))?;
        let xids: Vec<u32> = list.value32().map(|v| v.collect()).unwrap_or_default();
        // Pipeline: send every request first, then collect the replies.
        let mut pending = Vec::with_capacity(xids.len());
        for &xid in &xids {
            let pid = conn.get_property(false, xid, self.atoms.wm_pid, AtomEnum::CARDINAL, 0, 1);
            let name = conn.get_property(
                false,
                xid,
                self.atoms.wm_name,
                self.atoms.utf8_string,
                0,
                1024,
            );
            let geometry = conn.get_geometry(xid);
            let origin = conn.translate_coordinates(xid, self.root, 0, 0);
            let transient = conn.get_property(
                false,
                xid,
                AtomEnum::WM_TRANSIENT_FOR,
                AtomEnum::WINDOW,
                0,
                1,
            );
            pending.push((xid, pid, name, geometry, origin, transient));
        }
        let mut windows = Vec::with_capacity(pending.len());
        for (xid, pid, name, geometry, origin, transient) in pending {
            let transient_for = transient
                .ok()
                .and_then(|t| t.reply().ok())
                .and_then(|t| t.value32().and_then(|mut v| v.next()))
                .filter(|&owner| owner != 0 && owner != self.root);
            // A window may close between the list and the replies: skip it.
            let (Ok(pid), Ok(name), Ok(geometry), Ok(origin)) = (pid, name, geometry, origin)
            else {
                continue;
            };
            let (Ok(pid), Ok(name), Ok(geometry), Ok(origin)) =
                (pid.reply(), name.reply(), geometry.reply(), origin.reply())
            else {
                continue;
            };
            let pid = pid.value32().and_then(|mut v| v.next());
            windows.push(ClientWindow {
                id: WindowId(u64::from(xid)),
                pid,
                // _NET_WM_PID is a pid on this machine (clients set it with WM_CLIENT_MACHINE).
                process: pid.and_then(|p| {
                    let comm = std::fs::read_to_string(format!("/proc/{p}/comm")).ok()?;
                    Some(comm.trim_end().to_owned())
                }),
                title: String::from_utf8_lossy(&name.value).into_owned(),
                transient_for: transient_for.map(|t| WindowId(u64::from(t))),
                knows_position: true,
                frame: None,
                bounds: Rect::new(
                    i32::from(origin.dst_x),
                    i32::from(origin.dst_y),
                    i32::from(geometry.width),
                    i32::from(geometry.height),
                ),
            });
        }
        Ok(windows)
    }
}
