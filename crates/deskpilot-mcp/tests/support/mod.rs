//! The server in process, through rmcp's own client (shared by the in-process tests).

use deskpilot_mcp::DeskpilotServer;
use rmcp::ServiceExt;

/// `server`, in process, and rmcp's client connected to it.
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
