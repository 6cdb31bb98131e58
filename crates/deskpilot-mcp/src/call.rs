//! One tool call as the gate admitted it (`server.rs`, `call_tool`): the client it comes from
//! and the mode it runs in. It rides in the request's extensions, so a pipeline's steps,
//! called in process through the same gate, carry their run's client and mode to each tool.

use std::sync::Arc;

use deskpilot_core::{Engine, Error, Session};

use crate::clients::Client;

/// What a tool knows of the call it serves, beside its arguments.
#[derive(Clone)]
pub struct Call {
    /// The client whose call this is: it owns the sessions it may name.
    pub client: Arc<Client>,
    /// A background pipeline's step: no action raises a window or moves the pointer.
    pub background: bool,
}

impl Call {
    /// A call of `client` in the foreground.
    pub fn of(client: Arc<Client>) -> Self {
        Call {
            client,
            background: false,
        }
    }

    /// The session `id` as a handle in this call's mode; `unknown_session` when it is not
    /// this call's client's.
    pub fn session<'e>(&self, engine: &'e Engine, id: &str) -> Result<Session<'e>, Error> {
        self.client.check(id)?;
        let handle = engine.session(id)?;
        Ok(if self.background {
            handle.in_background()
        } else {
            handle
        })
    }
}
