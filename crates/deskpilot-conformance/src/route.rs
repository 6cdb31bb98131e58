//! The fixture tools as routes of rmcp's tool router: what a fixture is handed, and how a
//! route is made from a plain function.

use std::future::Future;

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, InputResponses, JsonObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

/// One call of a fixture tool: what rmcp's router hands a tool, owned.
pub struct Call {
    pub context: RequestContext<RoleServer>,
    pub arguments: JsonObject,
    /// The answers to the input requests of an earlier round (2026-07-28).
    pub responses: Option<InputResponses>,
    /// The state an earlier round returned, echoed by the client.
    pub state: Option<String>,
}

/// The route of the tool `tool`, served by `handler`.
pub fn route<S, H, F, R>(tool: Tool, handler: H) -> ToolRoute<S>
where
    S: Send + Sync + 'static,
    H: Fn(Call) -> F + Send + Sync + 'static,
    F: Future<Output = Result<R, ErrorData>> + Send + 'static,
    R: Into<CallToolResponse>,
{
    ToolRoute::new_dyn(tool, move |context: ToolCallContext<'_, S>| {
        let answer = handler(Call {
            context: context.request_context,
            arguments: context.arguments.unwrap_or_default(),
            responses: context.input_responses,
            state: context.request_state,
        });
        Box::pin(async move { answer.await.map(Into::into) })
    })
}

/// A tool whose input schema is `schema` (a JSON object).
pub fn tool(name: &'static str, description: &'static str, schema: serde_json::Value) -> Tool {
    let serde_json::Value::Object(schema) = schema else {
        unreachable!("a fixture's input schema is an object")
    };
    Tool::new(name, description, schema)
}

/// A tool that takes no arguments.
pub fn plain_tool(name: &'static str, description: &'static str) -> Tool {
    tool(
        name,
        description,
        serde_json::json!({ "type": "object", "properties": {} }),
    )
}
