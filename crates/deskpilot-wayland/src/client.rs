//! One connection to the compositor: the globals deskpilot uses, bound once, and every wait
//! for the compositor's answer bounded by a deadline (the crate's blocking calls never wait
//! longer than the caller allows).

use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use wayland_client::backend::WaylandError;
use wayland_client::protocol::{wl_callback, wl_output, wl_registry, wl_seat, wl_shm};
use wayland_client::{Connection, Dispatch, EventQueue, QueueHandle};
use wayland_protocols::xdg::xdg_output::zv1::client::{zxdg_output_manager_v1, zxdg_output_v1};
use wayland_protocols_misc::zwp_virtual_keyboard_v1::client::zwp_virtual_keyboard_manager_v1::ZwpVirtualKeyboardManagerV1;
use wayland_protocols_wlr::foreign_toplevel::v1::client::zwlr_foreign_toplevel_handle_v1::ZwlrForeignToplevelHandleV1;
use wayland_protocols_wlr::foreign_toplevel::v1::client::zwlr_foreign_toplevel_manager_v1::ZwlrForeignToplevelManagerV1;
use wayland_protocols_wlr::screencopy::v1::client::zwlr_screencopy_manager_v1::ZwlrScreencopyManagerV1;
use wayland_protocols_wlr::virtual_pointer::v1::client::zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1;

use crate::outputs::Output;

/// Why the compositor could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// No compositor at that socket, or it lacks a protocol deskpilot needs.
    #[error("{0}")]
    Unavailable(String),
    /// The connection failed, or the compositor did not answer in time.
    #[error("Wayland compositor: {0}")]
    Failed(String),
}

/// What the compositor said of the screencopy frame being copied (`screencopy.rs`).
#[derive(Debug, Default)]
pub(crate) struct Frame {
    pub(crate) buffer: Option<(u32, u32, u32, u32)>,
    pub(crate) buffer_done: bool,
    pub(crate) y_invert: bool,
    pub(crate) ready: bool,
    pub(crate) failed: bool,
}

/// One foreign toplevel as the compositor last described it (`toplevels.rs`).
#[derive(Debug, Clone)]
pub(crate) struct Toplevel {
    pub(crate) handle: ZwlrForeignToplevelHandleV1,
    pub(crate) title: String,
    pub(crate) app_id: String,
    pub(crate) states: Vec<u32>,
    pub(crate) closed: bool,
}

/// What the compositor told the connection so far.
#[derive(Default)]
pub(crate) struct State {
    globals: Vec<(u32, String, u32)>,
    pub(crate) outputs: Vec<Output>,
    pub(crate) frame: Frame,
    pub(crate) toplevels: Vec<Toplevel>,
    synced: u64,
}

/// The globals deskpilot binds; each `None` when the compositor lacks it.
pub(crate) struct Globals {
    pub(crate) seat: Option<wl_seat::WlSeat>,
    pub(crate) shm: Option<wl_shm::WlShm>,
    pub(crate) keyboards: Option<ZwpVirtualKeyboardManagerV1>,
    pub(crate) pointers: Option<ZwlrVirtualPointerManagerV1>,
    pub(crate) screencopy: Option<ZwlrScreencopyManagerV1>,
    pub(crate) toplevels: Option<ZwlrForeignToplevelManagerV1>,
}

pub(crate) struct Client {
    conn: Connection,
    queue: EventQueue<State>,
    pub(crate) qh: QueueHandle<State>,
    pub(crate) state: State,
    pub(crate) globals: Globals,
    syncs: u64,
}

impl Client {
    /// Connects to the compositor listening at `socket` and binds its globals.
    pub(crate) fn connect(socket: &Path, timeout: Duration) -> Result<Self, ClientError> {
        let stream = UnixStream::connect(socket).map_err(|e| {
            ClientError::Unavailable(format!(
                "no Wayland compositor at {}: {e}",
                socket.display()
            ))
        })?;
        let conn =
            Connection::from_socket(stream).map_err(|e| ClientError::Failed(e.to_string()))?;
        let queue = conn.new_event_queue();
        let qh = queue.handle();
        let registry = conn.display().get_registry(&qh, ());
        let mut client = Client {
            conn,
            queue,
            qh,
            state: State::default(),
            globals: Globals {
                seat: None,
                shm: None,
                keyboards: None,
                pointers: None,
                screencopy: None,
                toplevels: None,
            },
            syncs: 0,
        };
        let deadline = Instant::now() + timeout;
        client.roundtrip(deadline)?;
        client.bind(&registry);
        // The outputs' geometry arrives after their binding.
        client.roundtrip(deadline)?;
        Ok(client)
    }

    fn bind(&mut self, registry: &wl_registry::WlRegistry) {
        let qh = &self.qh;
        let mut xdg_outputs = None;
        for (name, interface, version) in self.state.globals.clone() {
            let v = |max: u32| version.min(max);
            match interface.as_str() {
                "wl_seat" if self.globals.seat.is_none() => {
                    self.globals.seat = Some(registry.bind(name, v(1), qh, ()));
                }
                "wl_shm" => self.globals.shm = Some(registry.bind(name, v(1), qh, ())),
                "zwp_virtual_keyboard_manager_v1" => {
                    self.globals.keyboards = Some(registry.bind(name, v(1), qh, ()));
                }
                "zwlr_virtual_pointer_manager_v1" => {
                    self.globals.pointers = Some(registry.bind(name, v(2), qh, ()));
                }
                "zwlr_foreign_toplevel_manager_v1" => {
                    self.globals.toplevels = Some(registry.bind(name, v(3), qh, ()));
                }
                "zwlr_screencopy_manager_v1" => {
                    self.globals.screencopy = Some(registry.bind(name, v(3), qh, ()));
                }
                "zxdg_output_manager_v1" => {
                    xdg_outputs = Some(
                        registry.bind::<zxdg_output_manager_v1::ZxdgOutputManagerV1, _, _>(
                            name,
                            v(3),
                            qh,
                            (),
                        ),
                    );
                }
                "wl_output" => {
                    let index = self.state.outputs.len();
                    let output: wl_output::WlOutput = registry.bind(name, v(3), qh, index);
                    self.state.outputs.push(Output::new(output));
                }
                _ => {}
            }
        }
        if let Some(manager) = xdg_outputs {
            for (index, output) in self.state.outputs.iter().enumerate() {
                manager.get_xdg_output(&output.wl, qh, index);
            }
        }
    }

    /// Sends what is queued and waits until the compositor has handled it.
    pub(crate) fn roundtrip(&mut self, deadline: Instant) -> Result<(), ClientError> {
        self.syncs += 1;
        self.conn.display().sync(&self.qh, self.syncs);
        let want = self.syncs;
        self.dispatch_until(deadline, |state| state.synced >= want)
    }

    /// Dispatches the compositor's events until `done` holds or `deadline` passes.
    pub(crate) fn dispatch_until(
        &mut self,
        deadline: Instant,
        done: impl Fn(&State) -> bool,
    ) -> Result<(), ClientError> {
        loop {
            self.queue
                .dispatch_pending(&mut self.state)
                .map_err(failed)?;
            if done(&self.state) {
                return Ok(());
            }
            self.queue.flush().map_err(failed)?;
            let Some(guard) = self.queue.prepare_read() else {
                continue;
            };
            let left = deadline.saturating_duration_since(Instant::now());
            let ms = u16::try_from(left.as_millis()).unwrap_or(u16::MAX);
            let mut fds = [PollFd::new(guard.connection_fd(), PollFlags::POLLIN)];
            let ready = poll(&mut fds, PollTimeout::from(ms)).map_err(failed)?;
            if ready == 0 {
                return Err(ClientError::Failed(
                    "the compositor did not answer in time".into(),
                ));
            }
            match guard.read() {
                Ok(_) => {}
                Err(WaylandError::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(failed(e)),
            }
        }
    }

    /// Sends what is queued, without waiting for the compositor.
    pub(crate) fn flush(&self) -> Result<(), ClientError> {
        self.conn.flush().map_err(failed)
    }
}

fn failed(e: impl std::fmt::Display) -> ClientError {
    ClientError::Failed(e.to_string())
}

impl Dispatch<wl_registry::WlRegistry, ()> for State {
    fn event(
        state: &mut Self,
        _: &wl_registry::WlRegistry,
        event: wl_registry::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wl_registry::Event::Global {
            name,
            interface,
            version,
        } = event
        {
            state.globals.push((name, interface, version));
        }
    }
}

impl Dispatch<wl_callback::WlCallback, u64> for State {
    fn event(
        state: &mut Self,
        _: &wl_callback::WlCallback,
        event: wl_callback::Event,
        sync: &u64,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let wl_callback::Event::Done { .. } = event {
            state.synced = state.synced.max(*sync);
        }
    }
}

impl Dispatch<zxdg_output_v1::ZxdgOutputV1, usize> for State {
    fn event(
        state: &mut Self,
        _: &zxdg_output_v1::ZxdgOutputV1,
        event: zxdg_output_v1::Event,
        index: &usize,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let Some(output) = state.outputs.get_mut(*index) {
            output.logical(event);
        }
    }
}

impl Dispatch<wl_output::WlOutput, usize> for State {
    fn event(
        state: &mut Self,
        _: &wl_output::WlOutput,
        event: wl_output::Event,
        index: &usize,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let Some(output) = state.outputs.get_mut(*index) {
            output.physical(event);
        }
    }
}

wayland_client::delegate_noop!(State: ignore wl_seat::WlSeat);
wayland_client::delegate_noop!(State: ignore wl_shm::WlShm);
wayland_client::delegate_noop!(State: zxdg_output_manager_v1::ZxdgOutputManagerV1);
wayland_client::delegate_noop!(State: ZwpVirtualKeyboardManagerV1);
wayland_client::delegate_noop!(State: ZwlrVirtualPointerManagerV1);
wayland_client::delegate_noop!(State: ZwlrScreencopyManagerV1);
