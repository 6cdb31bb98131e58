//! The stdio transport, with what rmcp does not do: a line that is not JSON gets a JSON-RPC
//! parse error (-32700) instead of silence; a JSON value that is neither a request, a
//! notification nor a response (a batch, a bare value) gets an invalid-request error (-32600)
//! carrying its `id`, if any; a
//! line longer than `MAX_LINE` is skipped with an invalid-request error; and the server keeps
//! serving.
//!
//! stdin -> [line check] -> rmcp -> [line writer] -> stdout; these errors join the same line
//! writer, so nothing interleaves and nothing but JSON-RPC reaches stdout.

use std::sync::Arc;

use deskpilot_core::Engine;
use rmcp::ServiceExt;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use crate::jsonrpc::{check, error_reply};
use crate::{DeskpilotServer, Grants, ServeError};

/// The largest request line accepted (a screenshot path or a long text fits easily).
const MAX_LINE: usize = 4 << 20;
/// The in-process pipes to and from rmcp.
const PIPE: usize = 4 << 20;

/// Serves MCP on stdin/stdout until the client closes stdin. Input tools only with
/// the capabilities in `grants`; the app packs of `packs`.
pub async fn serve_stdio(
    engine: Arc<Engine>,
    grants: Grants,
    packs: crate::packs::set::Sources,
    record: Option<std::path::PathBuf>,
) -> Result<(), ServeError> {
    let (mut to_server, server_in) = tokio::io::duplex(PIPE);
    let (server_out, from_server) = tokio::io::duplex(PIPE);
    let (errors, mut error_lines) = mpsc::channel::<String>(16);

    // stdin: forward JSON-RPC messages, answer the rest with an error.
    let reader = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        while let Ok(Some(line)) = read_line(&mut stdin, MAX_LINE).await {
            let reply = match line {
                Line::TooLong(len) => {
                    tracing::warn!(len, "JSON-RPC line over the size cap");
                    error_reply(
                        serde_json::Value::Null,
                        -32600,
                        &format!(
                            "Invalid Request: a line of {len} bytes is over the {MAX_LINE}-byte limit"
                        ),
                    )
                }
                Line::Text(line) if line.trim().is_empty() => continue,
                Line::Text(line) => match check(&line) {
                    Ok(()) => {
                        if to_server.write_all(line.as_bytes()).await.is_err()
                            || to_server.write_all(b"\n").await.is_err()
                        {
                            break;
                        }
                        continue;
                    }
                    Err(reply) => reply,
                },
            };
            let _ = errors.send(reply.to_string()).await;
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

    let service = DeskpilotServer::recording(engine, grants, packs, record)
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

/// One line of stdin, or how long a line over the cap was (it is skipped whole).
enum Line {
    Text(String),
    TooLong(usize),
}

/// Reads one line (without its newline) of at most `cap` bytes; a longer one is read to its
/// end and dropped. `None` at the end of input.
async fn read_line<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    cap: usize,
) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut len = 0usize;
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            return Ok((len > 0).then(|| finish(line, len, cap)));
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..at], Some(at + 1)),
            None => (chunk, None),
        };
        len += part.len();
        if len <= cap {
            line.extend_from_slice(part);
        } else {
            line = Vec::new();
        }
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            return Ok(Some(finish(line, len, cap)));
        }
    }
}

fn finish(line: Vec<u8>, len: usize, cap: usize) -> Line {
    if len > cap {
        Line::TooLong(len)
    } else {
        Line::Text(String::from_utf8_lossy(&line).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_over_the_cap_are_skipped_whole() {
        let input = format!("{}\nshort\n{}", "x".repeat(100), "y".repeat(7));
        let mut reader = tokio::io::BufReader::with_capacity(8, input.as_bytes());
        let mut lines = Vec::new();
        while let Some(line) = read_line(&mut reader, 10).await.unwrap() {
            lines.push(match line {
                Line::Text(t) => t,
                Line::TooLong(n) => format!("too long: {n}"),
            });
        }
        assert_eq!(lines, ["too long: 100", "short", "yyyyyyy"]);
    }
}
