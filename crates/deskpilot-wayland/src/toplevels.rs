//! The windows of a wlroots compositor other than sway, through
//! `zwlr_foreign_toplevel_management_v1`: titles, app ids, states, activation, minimize,
//! maximize and close. The protocol gives no pid and no position: such windows have empty
//! bounds and do not know their place, so their apps' bounds are never placed at a guess.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskpilot_platform::model::Rect;
use deskpilot_platform::{
    ClientWindow, WindowAction, WindowError, WindowId, WindowState, WindowSystem,
};
use wayland_client::{Connection, Dispatch, Proxy, QueueHandle};
use wayland_protocols_wlr::foreign_toplevel::v1::client::zwlr_foreign_toplevel_handle_v1::{
    self, ZwlrForeignToplevelHandleV1,
};
use wayland_protocols_wlr::foreign_toplevel::v1::client::zwlr_foreign_toplevel_manager_v1::{
    self, ZwlrForeignToplevelManagerV1,
};

use crate::client::{Client, ClientError, State, Toplevel};

/// Longest any one call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(3);
/// The protocol's states (`zwlr_foreign_toplevel_handle_v1.state`).
const MAXIMIZED: u32 = 0;
const MINIMIZED: u32 = 1;
const ACTIVATED: u32 = 2;

impl Toplevel {
    fn id(&self) -> WindowId {
        WindowId(u64::from(self.handle.id().protocol_id()))
    }

    fn window(&self) -> ClientWindow {
        ClientWindow {
            id: self.id(),
            pid: None,
            title: self.title.clone(),
            bounds: Rect::default(),
            process: Some(self.app_id.clone()).filter(|a| !a.is_empty()),
            transient_for: None,
            knows_position: false,
            frame: None,
        }
    }
}

/// The toplevels of one compositor, on a connection of their own.
#[derive(Clone)]
pub struct ForeignToplevels {
    client: Arc<Mutex<Client>>,
}

impl ForeignToplevels {
    /// Connects to the compositor at `socket`; `Unavailable` when it lacks the protocol.
    pub fn connect(socket: &Path) -> Result<Self, ClientError> {
        let mut client = Client::connect(socket, CALL_TIMEOUT)?;
        if client.globals.toplevels.is_none() {
            return Err(ClientError::Unavailable(
                "the compositor has no zwlr_foreign_toplevel_manager_v1".into(),
            ));
        }
        // The toplevels that exist are announced at once, each with its `done`.
        client.roundtrip(Instant::now() + CALL_TIMEOUT)?;
        Ok(ForeignToplevels {
            client: Arc::new(Mutex::new(client)),
        })
    }

    /// Runs `f` with the connection brought up to date, on a blocking thread.
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, ClientError> + Send + 'static,
    ) -> Result<T, WindowError> {
        let client = self.client.clone();
        let task = tokio::task::spawn_blocking(move || {
            let mut client = client
                .lock()
                .map_err(|_| failed("toplevel lock poisoned"))?;
            client
                .roundtrip(Instant::now() + CALL_TIMEOUT)
                .map_err(failed)?;
            f(&mut client).map_err(failed)
        });
        match tokio::time::timeout(CALL_TIMEOUT * 2, task).await {
            Ok(Ok(result)) => result,
            Ok(Err(e)) => Err(failed(e)),
            Err(_) => Err(failed("the compositor did not answer in time")),
        }
    }

    async fn toplevels(&self) -> Result<Vec<Toplevel>, WindowError> {
        self.run(|c| Ok(live(&c.state.toplevels))).await
    }

    async fn find(&self, window: WindowId) -> Result<Option<Toplevel>, WindowError> {
        let all = self.toplevels().await?;
        Ok(all.into_iter().find(|t| t.id() == window))
    }
}

fn live(toplevels: &[Toplevel]) -> Vec<Toplevel> {
    toplevels.iter().filter(|t| !t.closed).cloned().collect()
}

fn failed(e: impl std::fmt::Display) -> WindowError {
    WindowError::Failed(e.to_string())
}

/// Sends `action` on the toplevel `window` through its handle, then waits for the compositor.
fn request(client: &mut Client, window: WindowId, action: WindowAction) -> Result<(), ClientError> {
    let handle = client
        .state
        .toplevels
        .iter()
        .find(|t| !t.closed && t.id() == window)
        .map(|t| t.handle.clone())
        .ok_or_else(|| ClientError::Failed(format!("window {window} is gone")))?;
    match action {
        WindowAction::Activate => {
            let seat = client.globals.seat.clone();
            let seat = seat.ok_or_else(|| ClientError::Unavailable("no seat".into()))?;
            handle.activate(&seat);
        }
        WindowAction::Minimize => handle.set_minimized(),
        WindowAction::Maximize => handle.set_maximized(),
        WindowAction::Restore => {
            handle.unset_minimized();
            handle.unset_maximized();
        }
        WindowAction::Close => handle.close(),
    }
    client.roundtrip(Instant::now() + CALL_TIMEOUT)
}

#[async_trait]
impl WindowSystem for ForeignToplevels {
    async fn client_windows(&self) -> Result<Vec<ClientWindow>, WindowError> {
        let all = self.toplevels().await?;
        Ok(all.iter().map(Toplevel::window).collect())
    }

    async fn active_window(&self) -> Result<Option<WindowId>, WindowError> {
        let all = self.toplevels().await?;
        Ok(all
            .iter()
            .find(|t| t.states.contains(&ACTIVATED))
            .map(Toplevel::id))
    }

    /// Asks for the activation, then reads the states until the compositor reports it.
    async fn activate_window(&self, window: WindowId) -> Result<(), WindowError> {
        self.window_action(window, WindowAction::Activate).await?;
        let deadline = Instant::now() + CALL_TIMEOUT;
        while Instant::now() < deadline {
            if self.active_window().await? == Some(window) {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        Err(WindowError::NotForeground {
            window,
            why: "the compositor did not activate it".into(),
        })
    }

    async fn window_action(
        &self,
        window: WindowId,
        action: WindowAction,
    ) -> Result<(), WindowError> {
        self.run(move |c| request(c, window, action)).await
    }

    async fn window_state(&self, window: WindowId) -> Result<Option<WindowState>, WindowError> {
        Ok(self.find(window).await?.map(|t| WindowState {
            minimized: t.states.contains(&MINIMIZED),
            maximized: t.states.contains(&MAXIMIZED),
        }))
    }
}

impl Dispatch<ZwlrForeignToplevelManagerV1, ()> for State {
    fn event(
        state: &mut Self,
        _: &ZwlrForeignToplevelManagerV1,
        event: zwlr_foreign_toplevel_manager_v1::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        if let zwlr_foreign_toplevel_manager_v1::Event::Toplevel { toplevel } = event {
            state.toplevels.push(Toplevel {
                handle: toplevel,
                title: String::new(),
                app_id: String::new(),
                states: Vec::new(),
                closed: false,
            });
        }
    }

    wayland_client::event_created_child!(State, ZwlrForeignToplevelManagerV1, [
        zwlr_foreign_toplevel_manager_v1::EVT_TOPLEVEL_OPCODE => (ZwlrForeignToplevelHandleV1, ()),
    ]);
}

impl Dispatch<ZwlrForeignToplevelHandleV1, ()> for State {
    fn event(
        state: &mut Self,
        handle: &ZwlrForeignToplevelHandleV1,
        event: zwlr_foreign_toplevel_handle_v1::Event,
        _: &(),
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
        let Some(toplevel) = state.toplevels.iter_mut().find(|t| &t.handle == handle) else {
            return;
        };
        match event {
            zwlr_foreign_toplevel_handle_v1::Event::Title { title } => toplevel.title = title,
            zwlr_foreign_toplevel_handle_v1::Event::AppId { app_id } => toplevel.app_id = app_id,
            zwlr_foreign_toplevel_handle_v1::Event::State { state } => {
                toplevel.states = state
                    .chunks_exact(4)
                    .map(|b| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
            }
            zwlr_foreign_toplevel_handle_v1::Event::Closed => toplevel.closed = true,
            _ => {}
        }
    }
}
