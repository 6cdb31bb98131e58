//! The few X11 questions the harness asks: is a window manager running on this display?

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{AtomEnum, ConnectionExt, PropMode};
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

fn x11_error(e: impl std::fmt::Display) -> DesktopError {
    DesktopError::X11(e.to_string())
}
