//! The MCP server: the engine's tools (in `tools/`, grouped by the capability they need), the
//! gate in front of them, and what the server tells a host about itself.

use std::collections::HashMap;
use std::sync::Arc;

use deskpilot_core::Engine;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListResourcesResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, SetLevelRequestMethod, SubscribeRequestParams, SubscriptionFilter,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

use crate::call::Call;
use crate::clients::{Client, TokenClients};
use crate::grants::{Capability, Grants};
use crate::outcome::failure;
use crate::pipeline::Known;
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
[checked] or [!checked] for a state; :nth(N). E.g. `dialog[name=Confirm] >> button[name=OK]`.",
        codes.join(", ")
    )
}

/// The deskpilot MCP server over one engine.
#[derive(Clone)]
pub struct DeskpilotServer {
    engine: Arc<Engine>,
    tool_router: ToolRouter<Self>,
    grants: Grants,
    /// Tools not listed for want of a capability, and which one.
    withheld: Arc<HashMap<String, Capability>>,
    /// The trees subscribed to with `resources/subscribe`.
    subscriptions: Subscriptions,
    /// The client of this server (stdio), or of this MCP session (HTTP, 2025-11-25).
    client: Arc<Client>,
    /// Over HTTP, the stateless era's clients, one per token.
    stateless: Option<Arc<TokenClients>>,
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

    /// A server with exactly these capabilities.
    pub fn with_grants(engine: Arc<Engine>, grants: Grants) -> Self {
        let (tool_router, withheld) = catalog(&grants);
        DeskpilotServer {
            client: Client::sole(engine.clone()),
            engine,
            tool_router,
            grants,
            withheld: Arc::new(withheld),
            subscriptions: Subscriptions::default(),
            stateless: None,
        }
    }

    /// A server for one more HTTP client: a new MCP session's, or a stateless request's (whose
    /// client is its token's, among `stateless`).
    pub(crate) fn for_another_client(&self, stateless: &Arc<TokenClients>) -> Self {
        DeskpilotServer {
            client: Client::one_of_many(self.engine.clone()),
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
        stateless.of(parts.and_then(|p| p.extensions.get::<crate::http::TokenIndex>().copied()))
    }

    pub(crate) fn engine(&self) -> &Engine {
        &self.engine
    }

    pub(crate) fn engine_arc(&self) -> Arc<Engine> {
        self.engine.clone()
    }

    pub(crate) fn subscriptions(&self) -> &Subscriptions {
        &self.subscriptions
    }

    pub(crate) fn grants(&self) -> &Grants {
        &self.grants
    }

    /// What the server knows of the tool `name`: listed (its schema), or withheld.
    pub(crate) fn known(&self, name: &str) -> Option<Known> {
        if let Some(tool) = self.tool_router.get(name) {
            return Some(Known::Listed {
                schema: tool.input_schema.clone(),
                read_only: tool
                    .annotations
                    .as_ref()
                    .and_then(|a| a.read_only_hint)
                    .unwrap_or(false),
            });
        }
        self.withheld.get(name).copied().map(Known::Withheld)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for DeskpilotServer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(capability) = self.withheld.get(request.name.as_ref())
            && let Err(refused) = self.grants.require(*capability, &request.name)
        {
            return Ok(failure(&refused).into());
        }
        // Every tool, and every pipeline step, passes here: a session is its client's only.
        // A step comes with its run's call; a client's request gets one here.
        let call = match context.extensions.get::<Call>() {
            Some(step) => step.clone(),
            None => Call::of(self.client_of(&context)),
        };
        let session = request.arguments.as_ref().and_then(|a| a.get("session"));
        if let Some(serde_json::Value::String(session)) = session
            && let Err(unknown) = call.client.check(session)
        {
            return Ok(failure(&unknown).into());
        }
        let _busy = call.client.busy();
        let mut context = context;
        context.extensions.insert(call);
        let tcc = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        self.tool_router.call(tcc).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let listed = self.tree_resources(&self.client_of(&context));
        Ok(listed)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let client = self.client_of(&context);
        Ok(self.read_tree(&client, &request.uri).await?.into())
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
            // No prompts and no log messages yet: both are declared so that a host asking
            // gets an answer (the conformance suite's caching and logging scenarios ask).
            .enable_prompts()
            .enable_logging();
        let mut config = ServerConfig::new(capabilities.build()).with_instructions(instructions());
        config.server_info.name = "deskpilot".into();
        config.server_info.version = env!("CARGO_PKG_VERSION").into();
        config
    }
}

/// The tools a server with `grants` lists, and the capability each withheld one needs.
/// `annotations` without the hints that say what MCP assumes when they are absent (not
/// read-only, destructive, not idempotent, open world); none when nothing is left.
fn without_defaults(annotations: &mut Option<rmcp::model::ToolAnnotations>) {
    let Some(a) = annotations.as_mut() else {
        return;
    };
    if a.read_only_hint == Some(false) {
        a.read_only_hint = None;
    }
    if a.destructive_hint == Some(true) {
        a.destructive_hint = None;
    }
    if a.idempotent_hint == Some(false) {
        a.idempotent_hint = None;
    }
    if a.open_world_hint == Some(true) {
        a.open_world_hint = None;
    }
    let said = [
        a.read_only_hint,
        a.destructive_hint,
        a.idempotent_hint,
        a.open_world_hint,
    ];
    if a.title.is_none() && said.iter().all(Option::is_none) {
        *annotations = None;
    }
}

fn catalog(grants: &Grants) -> (ToolRouter<DeskpilotServer>, HashMap<String, Capability>) {
    let groups = [
        (DeskpilotServer::read_router(), None),
        (DeskpilotServer::files_router(), None),
        (DeskpilotServer::pipeline_router(), None),
        (DeskpilotServer::input_router(), Some(Capability::Input)),
        (DeskpilotServer::windows_router(), Some(Capability::Input)),
        (DeskpilotServer::launch_router(), Some(Capability::Launch)),
    ];
    let mut listed = ToolRouter::new();
    let mut withheld = HashMap::new();
    for (router, needs) in groups {
        match needs {
            Some(capability) if !grants.has(capability) => {
                for tool in router.list_all() {
                    withheld.insert(tool.name.to_string(), capability);
                }
            }
            _ => listed.merge(router),
        }
    }
    // A server that may do nothing but read runs pipelines that only read: its hosts may
    // treat them as reads.
    if !Capability::ALL.iter().any(|c| grants.has(*c)) {
        for name in ["run_steps", "continue_run"] {
            if let Some(route) = listed.map.get_mut(name)
                && let Some(annotations) = route.attr.annotations.as_mut()
            {
                annotations.read_only_hint = Some(true);
                annotations.destructive_hint = None;
            }
        }
    }
    for route in listed.map.values_mut() {
        without_defaults(&mut route.attr.annotations);
    }
    (listed, withheld)
}
