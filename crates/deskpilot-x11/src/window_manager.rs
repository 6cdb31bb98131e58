//! Requests to the window manager over EWMH: which window is active, activating one,
//! minimizing, maximizing, restoring and closing, and reading a window's state.

use deskpilot_platform::InputError;
use deskpilot_platform::{WindowAction, WindowState};
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConfigureWindowAux, ConnectionExt, EventMask, InputFocus,
    StackMode,
};

use crate::input::{State, display_error};

impl State {
    pub(crate) fn active_window(&self) -> Result<Option<u32>, InputError> {
        let reply = self
            .conn
            .get_property(
                false,
                self.root,
                self.net_active_window,
                AtomEnum::WINDOW,
                0,
                1,
            )
            .map_err(display_error)?
            .reply()
            .map_err(display_error)?;
        if let Some(xid) = reply.value32().and_then(|mut v| v.next()) {
            return Ok((xid != 0).then_some(xid));
        }
        // No window manager: whoever has the input focus.
        let focus = self
            .conn
            .get_input_focus()
            .map_err(display_error)?
            .reply()
            .map_err(display_error)?
            .focus;
        Ok((focus > 1).then_some(focus))
    }

    pub(crate) fn request_activation(&self, xid: u32) -> Result<(), InputError> {
        // Source: a pager (a direct user request); CurrentTime.
        self.ask_wm(xid, self.net_active_window, [2, 0, 0, 0, 0])?;
        // Without a window manager the message does nothing: raise and focus directly too.
        self.conn
            .configure_window(xid, &ConfigureWindowAux::new().stack_mode(StackMode::ABOVE))
            .map_err(display_error)?;
        self.sync()
    }

    pub(crate) fn atom(&self, name: &str) -> Result<u32, InputError> {
        Ok(self
            .conn
            .intern_atom(false, name.as_bytes())
            .map_err(display_error)?
            .reply()
            .map_err(display_error)?
            .atom)
    }

    /// A client message to the root window about `xid` (how EWMH requests travel).
    pub(crate) fn ask_wm(&self, xid: u32, message: u32, data: [u32; 5]) -> Result<(), InputError> {
        let event = ClientMessageEvent::new(32, xid, message, data);
        self.conn
            .send_event(
                false,
                self.root,
                EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY,
                event,
            )
            .map_err(display_error)?;
        self.sync()
    }

    pub(crate) fn atoms_of(
        &self,
        xid: u32,
        property: &str,
    ) -> Result<Option<Vec<u32>>, InputError> {
        let property = self.atom(property)?;
        match self
            .conn
            .get_property(false, xid, property, AtomEnum::ANY, 0, 64)
            .map_err(display_error)?
            .reply()
        {
            Ok(reply) => Ok(Some(
                reply.value32().map(|v| v.collect()).unwrap_or_default(),
            )),
            // BadWindow: the window is gone.
            Err(_) => Ok(None),
        }
    }

    pub(crate) fn window_state(&self, xid: u32) -> Result<Option<WindowState>, InputError> {
        let clients = self
            .atoms_of(self.root, "_NET_CLIENT_LIST")?
            .unwrap_or_default();
        if !clients.is_empty() && !clients.contains(&xid) {
            return Ok(None);
        }
        let Some(states) = self.atoms_of(xid, "_NET_WM_STATE")? else {
            return Ok(None);
        };
        let hidden = self.atom("_NET_WM_STATE_HIDDEN")?;
        let vert = self.atom("_NET_WM_STATE_MAXIMIZED_VERT")?;
        let horz = self.atom("_NET_WM_STATE_MAXIMIZED_HORZ")?;
        // ICCCM WM_STATE: 3 = iconic.
        let iconic = self
            .atoms_of(xid, "WM_STATE")?
            .is_some_and(|v| v.first() == Some(&3));
        Ok(Some(WindowState {
            minimized: states.contains(&hidden) || iconic,
            maximized: states.contains(&vert) && states.contains(&horz),
        }))
    }

    pub(crate) fn window_action(&self, xid: u32, action: WindowAction) -> Result<(), InputError> {
        const REMOVE: u32 = 0;
        const ADD: u32 = 1;
        const PAGER: u32 = 2;
        let maximized = |how: u32| -> Result<[u32; 5], InputError> {
            Ok([
                how,
                self.atom("_NET_WM_STATE_MAXIMIZED_VERT")?,
                self.atom("_NET_WM_STATE_MAXIMIZED_HORZ")?,
                PAGER,
                0,
            ])
        };
        match action {
            WindowAction::Activate => self.request_activation(xid),
            // ICCCM: WM_CHANGE_STATE with IconicState.
            WindowAction::Minimize => {
                self.ask_wm(xid, self.atom("WM_CHANGE_STATE")?, [3, 0, 0, 0, 0])
            }
            WindowAction::Maximize => {
                self.ask_wm(xid, self.atom("_NET_WM_STATE")?, maximized(ADD)?)
            }
            WindowAction::Restore => {
                if self.window_state(xid)?.is_some_and(|s| s.minimized) {
                    self.request_activation(xid)?;
                }
                self.ask_wm(xid, self.atom("_NET_WM_STATE")?, maximized(REMOVE)?)
            }
            WindowAction::Close => {
                self.ask_wm(xid, self.atom("_NET_CLOSE_WINDOW")?, [0, PAGER, 0, 0, 0])
            }
        }
    }

    pub(crate) fn focus_directly(&self, xid: u32) -> Result<(), InputError> {
        self.conn
            .set_input_focus(InputFocus::PARENT, xid, 0u32)
            .map_err(display_error)?;
        self.sync()
    }
}
