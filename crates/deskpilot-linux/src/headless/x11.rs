//! The few X11 questions the harness asks: is a window manager running on this display, and
//! does its event loop answer?

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConnectionExt, CreateWindowAux, EventMask, PropMode, WindowClass,
};
use x11rb::wrapper::ConnectionExt as _;

use super::error::{DesktopError, Result};

/// An X connection to one display, used to watch the window manager come up.
pub struct Display {
    conn: x11rb::rust_connection::RustConnection,
    root: u32,
}

impl Display {
    pub fn open(display: &str) -> Result<Self> {
        let (conn, screen) = x11rb::connect(Some(display))
            .map_err(|e| DesktopError::X11(format!("connect to {display}: {e}")))?;
        let root = conn.setup().roots[screen].root;
        Ok(Display { conn, root })
    }

    /// The `AT_SPI_BUS` property of the root window (set by at-spi-bus-launcher inside
    /// `org.a11y.Bus.GetAddress`), if any.
    pub fn at_spi_bus(&self) -> Result<Option<String>> {
        let atom = self.atom(b"AT_SPI_BUS")?;
        let reply = self
            .conn
            .get_property(false, self.root, atom, AtomEnum::STRING, 0, 4096)
            .map_err(x11_error)?
            .reply()
            .map_err(x11_error)?;
        Ok((!reply.value.is_empty()).then(|| String::from_utf8_lossy(&reply.value).into_owned()))
    }

    /// Sets `AT_SPI_BUS` on the root window.
    pub fn set_at_spi_bus(&self, address: &str) -> Result<()> {
        let atom = self.atom(b"AT_SPI_BUS")?;
        self.conn
            .change_property8(
                PropMode::REPLACE,
                self.root,
                atom,
                AtomEnum::STRING,
                address.as_bytes(),
            )
            .map_err(x11_error)?
            .check()
            .map_err(x11_error)
    }

    fn atom(&self, name: &[u8]) -> Result<u32> {
        Ok(self
            .conn
            .intern_atom(false, name)
            .map_err(x11_error)?
            .reply()
            .map_err(x11_error)?
            .atom)
    }

    /// True once an EWMH window manager has announced itself (`_NET_SUPPORTING_WM_CHECK` on
    /// the root window, pointing at a window that exists).
    pub fn has_window_manager(&self) -> Result<bool> {
        let atom = self.atom(b"_NET_SUPPORTING_WM_CHECK")?;
        let reply = self
            .conn
            .get_property(false, self.root, atom, AtomEnum::WINDOW, 0, 1)
            .map_err(x11_error)?
            .reply()
            .map_err(x11_error)?;
        let Some(window) = reply.value32().and_then(|mut v| v.next()) else {
            return Ok(false);
        };
        // The check window must exist (a stale property from a dead WM does not count).
        Ok(self
            .conn
            .get_window_attributes(window)
            .map_err(x11_error)?
            .reply()
            .is_ok())
    }
}

/// An unmapped window of ours that the window manager is asked about.
pub struct Probe(u32);

impl Display {
    /// A window to ask the window manager about, never mapped.
    pub fn probe(&self) -> Result<Probe> {
        let window = self.conn.generate_id().map_err(x11_error)?;
        let aux = CreateWindowAux::new();
        self.conn
            .create_window(
                0,
                window,
                self.root,
                0,
                0,
                1,
                1,
                0,
                WindowClass::INPUT_OUTPUT,
                0,
                &aux,
            )
            .map_err(x11_error)?
            .check()
            .map_err(x11_error)?;
        Ok(Probe(window))
    }

    /// True once the window manager's event loop answered an ask for `probe`'s frame extents
    /// (`_NET_FRAME_EXTENTS` set on it); asks again otherwise (EWMH
    /// `_NET_REQUEST_FRAME_EXTENTS`). Each ask is an event on the manager's connection,
    /// which wakes a loop asleep with events already read (see `start_window_manager`).
    pub fn window_manager_answers(&self, probe: &Probe) -> Result<bool> {
        let extents = self.atom(b"_NET_FRAME_EXTENTS")?;
        let reply = self
            .conn
            .get_property(false, probe.0, extents, AtomEnum::CARDINAL, 0, 4)
            .map_err(x11_error)?
            .reply()
            .map_err(x11_error)?;
        if reply.value_len == 4 {
            return Ok(true);
        }
        let request = self.atom(b"_NET_REQUEST_FRAME_EXTENTS")?;
        let ask = ClientMessageEvent::new(32, probe.0, request, [0u32; 5]);
        let mask = EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY;
        self.conn
            .send_event(false, self.root, mask, ask)
            .map_err(x11_error)?
            .check()
            .map_err(x11_error)?;
        Ok(false)
    }
}

fn x11_error(e: impl std::fmt::Display) -> DesktopError {
    DesktopError::X11(e.to_string())
}
