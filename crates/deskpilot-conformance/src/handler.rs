//! The fixtures' server: deskpilot's own handler, wrapped. A fixture's name is answered here;
//! everything else goes to deskpilot's handler, whose tools, resources and prompts are listed
//! with the fixtures'.

use deskpilot_mcp::DeskpilotServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerConfig, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::catalog;

/// deskpilot's server with the conformance suite's fixtures beside it.
#[derive(Clone)]
pub struct Fixtures {
    inner: DeskpilotServer,
    tools: std::sync::Arc<ToolRouter<Fixtures>>,
}

impl Fixtures {
    pub fn new(inner: DeskpilotServer) -> Self {
        Fixtures {
            inner,
            tools: std::sync::Arc::new(tools()),
        }
    }
}

impl ServerHandler for Fixtures {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.tools.has_route(&request.name) {
            return self.inner.call_tool(request, context).await;
        }
        let call = ToolCallContext::new(self, request, context);
        self.tools.call(call).await
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut listed = self.inner.list_tools(request, context).await?;
        listed.tools.extend(self.tools.list_all());
        listed.tools.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(listed)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools
            .get(name)
            .cloned()
            .or_else(|| self.inner.get_tool(name))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let listed = self.inner.list_resources(request, context).await?;
        Ok(catalog::with_resources(listed))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match catalog::read(&request.uri) {
            Some(fixture) => Ok(fixture.into()),
            None => self.inner.read_resource(request, context).await,
        }
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if catalog::is_watched(&request.uri) {
            return Ok(());
        }
        self.inner.subscribe(request, context).await
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.unsubscribe(request, context).await
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.set_level(request, context).await
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(catalog::templates())
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut listed = self.inner.list_prompts(request, context).await?;
        listed.prompts.extend(catalog::prompts().prompts);
        Ok(listed)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if catalog::has_prompt(&request.name) {
            return catalog::get_prompt(&request);
        }
        self.inner.get_prompt(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        catalog::complete(&request)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.inner.accepted_subscription_filter(requested)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        self.inner.listen(context).await
    }

    fn get_info(&self) -> ServerConfig {
        let mut config = self.inner.get_info();
        // The fixtures complete their prompts' arguments.
        config.capabilities.completions = Some(Default::default());
        config
    }
}

/// The fixture tools, as one router.
fn tools() -> ToolRouter<Fixtures> {
    let mut router = ToolRouter::new();
    for route in crate::content::routes()
        .into_iter()
        .chain(crate::interactive::routes())
        .chain(crate::mrtr::routes())
    {
        router.add_route(route);
    }
    router
}
