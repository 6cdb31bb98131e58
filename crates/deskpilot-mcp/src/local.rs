//! One tool call to a server in this process, through rmcp's own client over an in-memory
//! pipe: how the CLI runs a pipeline (`deskpilot run`) exactly as an agent's call would run,
//! through the same gate and the same code.

use std::sync::Arc;

use deskpilot_core::Engine;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};

use crate::{DeskpilotServer, Grants, ServeError};

/// Calls `tool` with `args` on a server over `engine` holding `grants`.
pub async fn call_once(
    engine: Arc<Engine>,
    grants: Grants,
    tool: &str,
    args: JsonObject,
) -> Result<CallToolResult, ServeError> {
    let (client_io, server_io) = tokio::io::duplex(4 << 20);
    let server = DeskpilotServer::with_grants(engine, grants);
    let serving = tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = ()
        .serve(client_io)
        .await
        .map_err(|e| ServeError(format!("the in-process client: {e}")))?;
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .map_err(|e| ServeError(format!("calling {tool}: {e}")));
    let _ = client.cancel().await;
    serving.abort();
    result
}
