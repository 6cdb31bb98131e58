//! The server in process, through rmcp's own client (shared by the in-process tests).

use deskpilot_mcp::DeskpilotServer;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::Value;

/// A fake desktop holding `app`: its backend, its input device (also its window manager),
/// and an engine over them.
#[allow(dead_code)] // not every test file acts
pub fn fake_desktop(
    app: &str,
) -> (
    std::sync::Arc<deskpilot_fake::FakeBackend>,
    std::sync::Arc<deskpilot_fake::FakeInput>,
    deskpilot_core::Engine,
) {
    let fake = std::sync::Arc::new(deskpilot_fake::FakeBackend::new());
    fake.add_app(app);
    let input = std::sync::Arc::new(deskpilot_fake::FakeInput::new(fake.clone()));
    let wiring = deskpilot_core::Wiring {
        input: Some(input.clone()),
        windows: Some(input.clone()),
        ..deskpilot_core::Wiring::default()
    };
    let engine = deskpilot_core::Engine::wired(fake.clone(), wiring);
    (fake, input, engine)
}

/// `server`, in process, and rmcp's client connected to it.
#[allow(dead_code)] // the HTTP tests speak raw HTTP
pub async fn client_for(
    server: DeskpilotServer,
) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        let _ = running.waiting().await;
    });
    ().serve(client_io).await.unwrap()
}

/// Calls `tool` with `args` (a JSON object).
#[allow(dead_code)] // not every test file calls tools this way
pub async fn call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    client
        .call_tool(
            CallToolRequestParams::new(tool.to_owned())
                .with_arguments(args.as_object().cloned().unwrap()),
        )
        .await
        .unwrap()
}
