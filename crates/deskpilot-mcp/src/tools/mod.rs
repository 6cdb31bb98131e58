//! The tools, in groups by the capability they need: reading (none), input, windows (input),
//! launch, files (the screenshot tool, listed always; only its `path` needs `files`). One
//! gate: a tool whose capability the server lacks is not listed, and a call to it is answered
//! `input_not_allowed` (`Grants::require`).

mod files;
mod input;
mod launch;
mod pipeline;
mod read;
mod windows;

use std::future::Future;

use deskpilot_core::{ActionReport, Code, Error, present};
use rmcp::ErrorData;
use rmcp::model::CallToolResult;
use tokio_util::sync::CancellationToken;

use crate::outcome::{failure, success};
use crate::output::ActionOut;

pub(crate) type ToolResult = Result<CallToolResult, ErrorData>;

/// Runs a tool body; an engine error becomes an `isError` result, never a protocol error.
pub(crate) async fn respond(
    body: impl Future<Output = Result<CallToolResult, Error>>,
) -> ToolResult {
    Ok(body.await.unwrap_or_else(|e| failure(&e)))
}

/// `respond`, ended early (the body dropped) when the client cancels the request.
pub(crate) async fn cancelled(
    cancel: &CancellationToken,
    body: impl Future<Output = Result<CallToolResult, Error>>,
) -> ToolResult {
    tokio::select! {
        result = body => Ok(result.unwrap_or_else(|e| failure(&e))),
        _ = cancel.cancelled() => Ok(failure(&Error::new(
            Code::Cancelled,
            "cancelled by the client",
            "nothing to do",
        ))),
    }
}

/// An action's report as a tool result.
pub(crate) fn reported(report: ActionReport) -> CallToolResult {
    success(present::action(&report), ActionOut::from(&report))
}
