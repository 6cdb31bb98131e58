//! The MCP conformance suite's fixtures, served beside deskpilot's own tools in a test-only
//! build (feature `conformance-fixtures`, run by `cargo xtask conformance`).
//! The suite's scenarios call them by name: tools, prompts and resources named `test_*` or
//! under `test://`. Their wire shapes follow `@modelcontextprotocol/conformance`'s checks.
//! They serve no agent: nothing here touches the engine.

mod catalog;
mod content;
mod interactive;
mod mrtr;

use std::future::Future;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, InputResponses, JsonObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

pub(crate) use catalog::{
    complete, get_prompt, is_watched, prompts, read, templates, with_resources,
};

/// One call of a fixture tool: what rmcp's router hands a tool, owned.
struct Call {
    context: RequestContext<RoleServer>,
    arguments: JsonObject,
    /// The answers to the input requests of an earlier round (2026-07-28).
    responses: Option<InputResponses>,
    /// The state an earlier round returned, echoed by the client.
    state: Option<String>,
}

/// The fixture tools, as routes any server's tool router can merge.
pub(crate) fn tools<S: Send + Sync + 'static>() -> ToolRouter<S> {
    let mut router = ToolRouter::new();
    for route in content::routes()
        .into_iter()
        .chain(interactive::routes())
        .chain(mrtr::routes())
    {
        router.add_route(route);
    }
    router
}

/// The route of the tool `tool`, served by `handler`.
fn route<S, H, F, R>(tool: Tool, handler: H) -> ToolRoute<S>
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
fn tool(name: &'static str, description: &'static str, schema: serde_json::Value) -> Tool {
    let serde_json::Value::Object(schema) = schema else {
        unreachable!("a fixture's input schema is an object")
    };
    Tool::new(name, description, schema)
}

/// A tool that takes no arguments.
fn plain_tool(name: &'static str, description: &'static str) -> Tool {
    tool(
        name,
        description,
        serde_json::json!({ "type": "object", "properties": {} }),
    )
}
