//! The one gate every tool call passes: from the wire (`server.rs`), a pipeline's steps
//! (`runner/`) or the CLI (`call_in_process`). A tool withheld for want of a capability is
//! refused, and a session is its client's only. The tool gets typed arguments, and its
//! outcome comes back as types (`ToolOutcome`), never as JSON to read back.

use std::sync::Arc;

use deskpilot_core::Engine;
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::call::{Call, Cx, Pending, Steps, Unknown, Wire};
use crate::catalog::{Catalog, Known};
use crate::clients::Client;
use crate::grants::Grants;
use crate::limit::CallLimit;
use crate::outcome::ToolOutcome;
use crate::packs::set::{Registry, Sources};
use crate::record::Recorder;

/// The tools of one server: its engine, its grants, what it lists and its app packs.
pub struct Dispatcher {
    engine: Arc<Engine>,
    grants: Grants,
    catalog: Catalog,
    packs: Arc<Registry>,
    /// Where each session's calls are recorded (`--record`), when they are.
    recorder: Option<Arc<Recorder>>,
    /// The calls in flight allowed across all clients (`--max-calls`), when bounded.
    limit: Option<Arc<CallLimit>>,
}

impl Dispatcher {
    pub fn with_packs(engine: Arc<Engine>, grants: Grants, packs: Arc<Registry>) -> Self {
        let catalog = Catalog::new(crate::tools::SPECS, &grants);
        Dispatcher {
            engine,
            grants,
            catalog,
            packs,
            recorder: None,
            limit: None,
        }
    }

    /// The same dispatcher, refusing calls past `limit` (`busy`).
    pub fn limited(mut self, limit: Option<Arc<CallLimit>>) -> Self {
        self.limit = limit;
        self
    }

    /// The same dispatcher, recording every session's calls with `recorder`.
    pub fn recording(mut self, recorder: Option<Arc<Recorder>>) -> Self {
        self.recorder = recorder;
        self
    }

    pub fn recorder(&self) -> Option<&Arc<Recorder>> {
        self.recorder.as_ref()
    }

    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn packs(&self) -> &Arc<Registry> {
        &self.packs
    }

    /// Calls `tool` for `call`'s client; `Unknown` when no tool has that name.
    pub async fn dispatch(
        &self,
        call: Call,
        tool: &str,
        args: JsonObject,
        wire: Wire,
    ) -> Result<ToolOutcome, Unknown> {
        if let Some(capability) = self.catalog.withheld(tool)
            && let Err(refused) = self.grants.require(capability, tool)
        {
            return Ok(ToolOutcome::failure(&refused));
        }
        if let Some(Value::String(session)) = args.get("session")
            && let Err(unknown) = call.client.check(session)
        {
            return Ok(ToolOutcome::failure(&unknown));
        }
        // A pipeline's step runs inside its call's place.
        let _place = match (&self.limit, &call.step) {
            (Some(limit), None) => match limit.enter() {
                Ok(place) => Some(place),
                Err(busy) => return Ok(ToolOutcome::failure(&busy)),
            },
            _ => None,
        };
        let _busy = call.client.busy();
        let noted = match &self.recorder {
            Some(recorder) => Some(recorder.before(&self.engine, &call, tool, &args).await),
            None => None,
        };
        let mut outcome = self.run(call, tool, args, wire).await?;
        if let (Some(recorder), Some(noted)) = (&self.recorder, noted) {
            recorder.after(&self.engine, noted, &mut outcome);
        }
        Ok(outcome)
    }

    /// `tool` run for `call`, its controls by name resolved first.
    async fn run(
        &self,
        call: Call,
        tool: &str,
        args: JsonObject,
        wire: Wire,
    ) -> Result<ToolOutcome, Unknown> {
        let mut args = args;
        let mut resolved = Vec::new();
        if crate::controls::names_any(&args) {
            let packs = call.packs.clone().unwrap_or_else(|| self.packs.current());
            match crate::controls::resolve_args(&self.engine, &call, &packs, &mut args).await {
                Ok(found) => resolved = found,
                Err(error) => return Ok(ToolOutcome::failure(&error)),
            }
        }
        let cx = Cx {
            engine: &self.engine,
            grants: &self.grants,
            packs: &self.packs,
            call,
            wire,
            steps: self,
        };
        let mut outcome = match crate::tools::run(&cx, tool, args).await? {
            Ok(outcome) => outcome,
            Err(error) => ToolOutcome::failure(&error),
        };
        crate::controls::report(&mut outcome, &resolved);
        Ok(outcome)
    }
}

impl Steps for Dispatcher {
    fn known(&self, tool: &str) -> Option<Known> {
        self.catalog.known(tool)
    }

    fn dispatch<'a>(
        &'a self,
        call: Call,
        tool: &'a str,
        args: JsonObject,
        wire: Wire,
    ) -> Pending<'a> {
        Box::pin(Dispatcher::dispatch(self, call, tool, args, wire))
    }
}

/// One tool call in this process, as the sole client of a server over `engine` holding
/// `grants` (how `deskpilot run` runs a pipeline: the same gate and code as an agent's call).
pub async fn call_in_process(
    engine: Arc<Engine>,
    grants: Grants,
    tool: &str,
    args: JsonObject,
) -> Result<ToolOutcome, Unknown> {
    let packs = registry(Sources::shipped_only());
    call_in_process_with(engine, grants, packs, tool, args).await
}

/// `call_in_process` with the app packs of `packs`.
pub async fn call_in_process_with(
    engine: Arc<Engine>,
    grants: Grants,
    packs: Arc<Registry>,
    tool: &str,
    args: JsonObject,
) -> Result<ToolOutcome, Unknown> {
    let client = Client::sole(engine.clone());
    let dispatcher = Dispatcher::with_packs(engine, grants, packs);
    dispatcher
        .dispatch(Call::of(client), tool, args, Wire::default())
        .await
}

/// The packs of `sources`, loaded; what their loading found goes to the log (stderr).
pub fn registry(sources: Sources) -> Arc<Registry> {
    let (registry, report) = Registry::new(sources, crate::tools::every_tool());
    for finding in &report.errors {
        tracing::warn!(
            "app pack {} {}{}: {} (none of the packs is loaded)",
            finding.pack,
            finding.file,
            finding.path,
            finding.message
        );
    }
    for finding in &report.warnings {
        tracing::info!(
            "app pack {} {}{}: {}",
            finding.pack,
            finding.file,
            finding.path,
            finding.message
        );
    }
    Arc::new(registry)
}

/// What the pack in `raw` gets wrong, its workflows checked against every tool; nothing is
/// loaded (`deskpilot probe` checks its draft so).
pub fn check_pack(raw: &crate::packs::read::RawPack) -> crate::packs::report::Report {
    let mut report = crate::packs::report::Report::default();
    crate::packs::set::parsed(raw, &crate::tools::every_tool(), &mut report);
    report
}
