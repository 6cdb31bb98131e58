//! The MCP server: the engine's tools (in `tools/`, grouped by the capability they need), the
//! gate in front of them, and what the server tells a host about itself.

use std::collections::HashMap;
use std::sync::Arc;

use deskpilot_core::Engine;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

use crate::grants::{Capability, Grants};
use crate::outcome::failure;
use crate::pipeline::Known;
use crate::pipeline::store::Runs;
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
(what to do next).",
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
    /// Pipeline runs kept for `continue_run`.
    runs: Runs,
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
            engine,
            tool_router,
            grants,
            withheld: Arc::new(withheld),
            subscriptions: Subscriptions::default(),
            runs: Runs::default(),
        }
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

    pub(crate) fn runs(&self) -> &Runs {
        &self.runs
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
        let tcc = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        self.tool_router.call(tcc).await
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(self.tree_resources())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Ok(self.read_tree(&request.uri).await?.into())
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribe_tree(&request.uri, context.peer).await
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

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(self.acceptable(requested))
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.listen_trees(context).await
    }

    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            .build();
        let mut config = ServerConfig::new(capabilities).with_instructions(instructions());
        config.server_info.name = "deskpilot".into();
        config.server_info.version = env!("CARGO_PKG_VERSION").into();
        config
    }
}

/// The tools a server with `grants` lists, and the capability each withheld one needs.
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
    (listed, withheld)
}
