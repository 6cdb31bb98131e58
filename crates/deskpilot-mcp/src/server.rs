//! The MCP server: the engine's tools (in `tools/`, grouped by the capability they need), the
//! gate in front of them, and what the server tells a host about itself.

use std::sync::Arc;

use deskpilot_core::Engine;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ResultType, ServerCapabilities, ServerConfig, SetLevelRequestMethod, SubscribeRequestParams,
    SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::call::{Call, Progress, Unknown, Wire};
use crate::clients::{Client, TokenClients};
use crate::dispatch::Dispatcher;
use crate::grants::Grants;
use crate::packs::set::Sources;
use crate::subscriptions::Subscriptions;

/// What the server tells a model about how to use it (every failure code named).
pub fn instructions() -> String {
    let codes: Vec<&str> = deskpilot_core::Code::ALL.iter().map(|c| c.name()).collect();
    format!(
        "deskpilot reads desktop applications through their accessibility tree.\n\
Workflow: list_apps -> connect (by pid, app or window title; returns a session id) -> snapshot \
(compact tree, one line per element with a ref like e12) or find (selector) -> read details \
(get_properties, read_text, read_table, hit_test, get_focus) -> act (only when the server allows \
input) -> snapshot again to verify. Pass `session` to every tool but list_apps and connect. Refs \
belong to the session that issued them and are refused once the element changed: take a new \
snapshot. Every result has ok; a failure has ok:false, code ({}), message, retryable and hint \
(what to do next).\n\
Names and titles match exactly, else contained, any case. Unknown arguments are refused. \
Arguments shared by tools: target is a ref (e12) or a selector matching exactly one element; \
within keeps a search inside an element (ref or selector); an action's timeout_ms is how long it \
waits for its element to be actionable (default 2000); secret keeps the text out of results (its \
length only). Selectors: role[key op value] steps, `>>` searching inside the previous match; keys \
name, label, id, description, value, action, capability, state; ops = exact, *= contains, ~= regex; \
[checked] or [!checked] for a state; :nth(N). E.g. `dialog[name=Confirm] >> button[name=OK]`. \
An app pack's control is `@pack/control` in a target or selector (packs lists them); run_workflow \
runs a pack's workflow.",
        codes.join(", ")
    )
}

/// The deskpilot MCP server over one engine.
#[derive(Clone)]
pub struct DeskpilotServer {
    /// The tools, behind the one gate.
    dispatcher: Arc<Dispatcher>,
    /// The trees subscribed to with `resources/subscribe`.
    subscriptions: Subscriptions,
    /// The client of this server (stdio), or of this MCP session (HTTP, 2025-11-25).
    client: Arc<Client>,
    /// Over HTTP, the stateless era's clients, one per token.
    stateless: Option<Arc<TokenClients>>,
}

/// What a server has beyond its engine and grants.
pub struct Setup {
    /// Where its app packs come from.
    pub packs: Sources,
    /// Where each session's calls are recorded (`docs/recording.md`), when they are.
    pub record: Option<std::path::PathBuf>,
    /// The tool calls in flight allowed across all clients, when bounded (`--max-calls`).
    pub limit: Option<Arc<crate::limit::CallLimit>>,
}

impl DeskpilotServer {
    /// A read-only server: tools that change an app are neither listed nor callable.
    pub fn new(engine: Arc<Engine>) -> Self {
        Self::with_grants(engine, Grants::read_only())
    }

    /// With `allow_input`, what `--allow-input` grants (act, launch, write files anywhere).
    pub fn with_input(engine: Arc<Engine>, allow_input: bool) -> Self {
        let grants = if allow_input {
            Grants::legacy_allow_input()
        } else {
            Grants::read_only()
        };
        Self::with_grants(engine, grants)
    }

    /// A server with exactly these capabilities, and the shipped app packs.
    pub fn with_grants(engine: Arc<Engine>, grants: Grants) -> Self {
        Self::with_packs(engine, grants, Sources::shipped_only())
    }

    /// A server with these capabilities and the app packs of `packs`.
    pub fn with_packs(engine: Arc<Engine>, grants: Grants, packs: Sources) -> Self {
        Self::recording(engine, grants, packs, None)
    }

    /// `with_packs`, recording each session's calls in `record` (`docs/recording.md`).
    pub fn recording(
        engine: Arc<Engine>,
        grants: Grants,
        packs: Sources,
        record: Option<std::path::PathBuf>,
    ) -> Self {
        let setup = Setup {
            packs,
            record,
            limit: None,
        };
        Self::set_up(engine, grants, setup)
    }

    /// A server with these capabilities, set up as `setup` says.
    pub fn set_up(engine: Arc<Engine>, grants: Grants, setup: Setup) -> Self {
        let packs = crate::dispatch::registry(setup.packs);
        let recorder = setup
            .record
            .map(|dir| Arc::new(crate::record::Recorder::new(dir)));
        let dispatcher = Dispatcher::with_packs(engine.clone(), grants, packs)
            .recording(recorder)
            .limited(setup.limit);
        DeskpilotServer {
            client: Client::sole(engine.clone()),
            dispatcher: Arc::new(dispatcher),
            subscriptions: Subscriptions::default(),
            stateless: None,
        }
    }

    /// A server for one more HTTP client: a new MCP session's, or a stateless request's (whose
    /// client is its token's, among `stateless`).
    pub(crate) fn for_another_client(&self, stateless: &Arc<TokenClients>) -> Self {
        DeskpilotServer {
            client: Client::one_of_many(self.dispatcher.engine().clone()),
            subscriptions: Subscriptions::default(),
            stateless: Some(stateless.clone()),
            ..self.clone()
        }
    }

    /// The client a request comes from: over HTTP, its MCP session's (2025-11-25), or its
    /// token's (2026-07-28, where every request stands alone).
    pub(crate) fn client_of(&self, context: &RequestContext<RoleServer>) -> Arc<Client> {
        let Some(stateless) = &self.stateless else {
            return self.client.clone();
        };
        let in_session = context
            .protocol_version()
            .is_none_or(|v| v < ProtocolVersion::V_2026_07_28);
        if in_session {
            return self.client.clone();
        }
        let parts = context.extensions.get::<http::request::Parts>();
        stateless.of(parts.and_then(|p| p.extensions.get::<crate::clients::Caller>().cloned()))
    }

    pub(crate) fn engine(&self) -> &Engine {
        self.dispatcher.engine()
    }

    pub(crate) fn recorder(&self) -> Option<&Arc<crate::record::Recorder>> {
        self.dispatcher.recorder()
    }

    pub(crate) fn engine_arc(&self) -> Arc<Engine> {
        self.dispatcher.engine().clone()
    }

    pub(crate) fn subscriptions(&self) -> &Subscriptions {
        &self.subscriptions
    }
}

impl ServerHandler for DeskpilotServer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Every tool passes the dispatch's gate: a session is its client's only.
        let mut call = Call::of(self.client_of(&context));
        call.client_name = context.peer.peer_info().map(|p| p.client_info.name.clone());
        let wire = Wire {
            cancel: context.ct.clone(),
            progress: progress(&context),
        };
        let args = request.arguments.unwrap_or_default();
        match self
            .dispatcher
            .dispatch(call, &request.name, args, wire)
            .await
        {
            Ok(outcome) => Ok(outcome.into_result().into()),
            Err(Unknown) => Err(ErrorData::invalid_params("tool not found", None)),
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cache_hints = context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
        Ok(ListToolsResult {
            result_type: Some(ResultType::COMPLETE),
            tools: self.dispatcher.catalog().listed().to_vec(),
            meta: None,
            next_cursor: None,
            ttl_ms: cache_hints.then_some(0),
            cache_scope: cache_hints.then_some(CacheScope::Public),
        })
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.dispatcher.catalog().get(name).cloned()
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let set = self.dispatcher.packs().current();
        Ok(ListPromptsResult::with_all_items(crate::prompts::listed(
            &set,
        )))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let set = self.dispatcher.packs().current();
        let got = crate::prompts::get(&set, &request.name, request.arguments)?;
        Ok(got.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let client = self.client_of(&context);
        let mut listed = self.tree_resources(&client);
        listed.resources.extend(self.recording_resources(&client));
        Ok(listed)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let client = self.client_of(&context);
        Ok(self
            .read_session_resource(&client, &request.uri)
            .await?
            .into())
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let client = self.client_of(&context);
        self.subscribe_tree(&client, &request.uri, context.peer)
            .await
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.unsubscribe_tree(&request.uri);
        Ok(())
    }

    /// Accepted before 2026-07-28: deskpilot sends no log messages (its log goes to stderr).
    /// Logging is deprecated after 2025-11-25, whose hosts may still set a level.
    /// From 2026-07-28 the method is gone: a request asks for a level in its `_meta`.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        _request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if context
            .protocol_version()
            .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28)
        {
            return Err(ErrorData::method_not_found::<SetLevelRequestMethod>());
        }
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(self.acceptable(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.listen_trees(context).await
    }

    #[allow(deprecated)]
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            // Prompts are the app packs' workflows. No log messages yet: logging is declared
            // so that a host asking gets an answer (the conformance suite's logging asks).
            .enable_prompts()
            .enable_logging();
        let mut config = ServerConfig::new(capabilities.build()).with_instructions(instructions());
        config.server_info.name = "deskpilot".into();
        config.server_info.version = env!("CARGO_PKG_VERSION").into();
        config
    }
}

/// When the client asked for progress (a `progressToken` in the request's `_meta`), a
/// channel that sends `notifications/progress` in order.
fn progress(context: &RequestContext<RoleServer>) -> Option<Progress> {
    let token = context.meta.get_progress_token()?;
    let peer = context.peer.clone();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(f64, Option<f64>, String)>();
    tokio::spawn(async move {
        while let Some((done, total, message)) = rx.recv().await {
            let mut param = ProgressNotificationParam::new(token.clone(), done);
            param.total = total;
            param.message = Some(message);
            if peer.notify_progress(param).await.is_err() {
                break;
            }
        }
    });
    Some(Progress(Arc::new(move |done, total, message| {
        let _ = tx.send((done, total, message));
    })))
}
