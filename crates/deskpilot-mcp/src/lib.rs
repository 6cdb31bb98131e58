//! deskpilot's MCP server: the engine's tools for agents, over rmcp.
//!
//! Read-only tools are always listed; tools that change an app are listed and callable only
//! with `--allow-input` (otherwise a call is refused with `input_not_allowed`). Failures are tool results with `isError: true` and a structured
//! `{ok: false, code, message, retryable, hint}`; unknown arguments are `invalid_arguments`.

mod act_tools;
mod args;
mod blind;
mod outcome;
mod output;
mod server;
mod shot_tool;
mod stdio;

pub use server::{DeskpilotServer, INSTRUCTIONS};
pub use stdio::serve_stdio;

/// Why serving stopped.
#[derive(Debug, thiserror::Error)]
#[error("MCP server: {0}")]
pub struct ServeError(pub(crate) String);
