//! The stdio transport, with one thing rmcp does not do: a line that is not JSON gets a
//! JSON-RPC parse error (-32700) instead of silence, and the server keeps serving.
//!
//! stdin -> [line check] -> rmcp -> [line writer] -> stdout; parse errors join the same line
//! writer, so nothing interleaves and nothing but JSON-RPC reaches stdout.

use std::sync::Arc;

use deskpilot_core::Engine;
use rmcp::ServiceExt;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::{DeskpilotServer, ServeError};

/// The largest request line accepted (a screenshot path or a long text fits easily).
const PIPE: usize = 4 << 20;

/// Serves MCP on stdin/stdout until the client closes stdin. Input tools only with
/// `allow_input`.
pub async fn serve_stdio(engine: Arc<Engine>, allow_input: bool) -> Result<(), ServeError> {
    let (mut to_server, server_in) = tokio::io::duplex(PIPE);
    let (server_out, from_server) = tokio::io::duplex(PIPE);
    let (errors, mut error_lines) = mpsc::channel::<String>(16);

    // stdin: forward JSON lines, answer the rest with a parse error.
    let reader = tokio::spawn(async move {
        let mut lines = BufReader::new(tokio::io::stdin()).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<serde_json::Value>(&line) {
                Ok(_) => {
                    if to_server.write_all(line.as_bytes()).await.is_err()
                        || to_server.write_all(b"\n").await.is_err()
                    {
                        break;
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "malformed JSON-RPC line");
                    let reply = serde_json::json!({
                        "jsonrpc": "2.0",
                        "id": null,
                        "error": {"code": -32700, "message": format!("Parse error: {e}")}
                    });
                    let _ = errors.send(reply.to_string()).await;
                }
            }
        }
        // Dropping `to_server` closes rmcp's input: the service ends.
    });

    // stdout: whole lines from rmcp and from the parse-error path, one at a time.
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        let mut replies = BufReader::new(from_server).lines();
        let mut errors_open = true;
        loop {
            let line = tokio::select! {
                line = replies.next_line() => match line {
                    Ok(Some(line)) => line,
                    _ => break,
                },
                line = error_lines.recv(), if errors_open => match line {
                    Some(line) => line,
                    None => {
                        errors_open = false;
                        continue;
                    }
                },
            };
            if stdout.write_all(line.as_bytes()).await.is_err()
                || stdout.write_all(b"\n").await.is_err()
                || stdout.flush().await.is_err()
            {
                break;
            }
        }
    });

    let service = DeskpilotServer::with_input(engine, allow_input)
        .serve((server_in, server_out))
        .await
        .map_err(|e| ServeError(e.to_string()))?;
    let result = service
        .waiting()
        .await
        .map_err(|e| ServeError(e.to_string()));
    reader.abort();
    let _ = writer.await;
    result.map(|_| ())
}
