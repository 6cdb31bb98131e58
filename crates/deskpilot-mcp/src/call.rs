//! One tool call as the gate admitted it (`dispatch.rs`). It says whose call it is and in
//! which mode it runs. It carries what the wire gives (a cancel, progress), and a way back to
//! the dispatch for a pipeline's steps.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use deskpilot_core::{Engine, Error, Session};
use rmcp::model::JsonObject;
use tokio_util::sync::CancellationToken;

use crate::catalog::Known;
use crate::clients::Client;
use crate::grants::Grants;
use crate::outcome::ToolOutcome;
use crate::packs::set::PackSet;

/// Whose call this is, and in which mode.
#[derive(Clone)]
pub struct Call {
    /// The client whose call this is: it owns the sessions it may name.
    pub client: Arc<Client>,
    /// A background pipeline's step: no action raises a window or moves the pointer.
    pub background: bool,
    /// The app packs a run started with: its steps name controls by them, whatever a
    /// reload did meanwhile (`None`: the server's current set).
    pub packs: Option<Arc<PackSet>>,
    /// The pipeline step this call is, by id (a recording says so).
    pub step: Option<String>,
    /// The MCP client's name, as it gave it when it connected.
    pub client_name: Option<String>,
}

impl Call {
    /// A call of `client` in the foreground.
    pub fn of(client: Arc<Client>) -> Self {
        Call {
            client,
            background: false,
            packs: None,
            step: None,
            client_name: None,
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

/// Progress a client asked for: `(progress, total, message)`, sent in order.
#[derive(Clone)]
pub struct Progress(pub Arc<dyn Fn(f64, Option<f64>, String) + Send + Sync>);

/// What the wire gives a call: its cancel, and progress when the client asked for it.
#[derive(Clone, Default)]
pub struct Wire {
    pub cancel: CancellationToken,
    pub progress: Option<Progress>,
}

/// A future of one tool's outcome.
pub type Pending<'a> = Pin<Box<dyn Future<Output = Result<ToolOutcome, Unknown>> + Send + 'a>>;

/// No tool of that name.
#[derive(Debug, Clone, Copy)]
pub struct Unknown;

/// The dispatch, as a pipeline sees it: what its steps name, and calling them.
pub trait Steps: Send + Sync {
    fn known(&self, tool: &str) -> Option<Known>;
    fn dispatch<'a>(
        &'a self,
        call: Call,
        tool: &'a str,
        args: JsonObject,
        wire: Wire,
    ) -> Pending<'a>;
}

/// What a tool is given beside its arguments.
pub struct Cx<'a> {
    pub engine: &'a Engine,
    pub grants: &'a Grants,
    /// The server's app packs.
    pub packs: &'a crate::packs::set::Registry,
    pub call: Call,
    pub wire: Wire,
    pub steps: &'a dyn Steps,
}

impl<'a> Cx<'a> {
    /// The session `id` of this call's client, in this call's mode.
    pub fn session(&self, id: &str) -> Result<Session<'a>, Error> {
        self.call.session(self.engine, id)
    }
}
