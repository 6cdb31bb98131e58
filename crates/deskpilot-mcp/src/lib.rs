//! deskpilot's MCP server: the engine's tools for agents, over rmcp.
//!
//! Read-only tools are always listed; the others only with the capability they need
//! (`--allow input`, `launch`, `files`; see `grants.rs`): otherwise a call is refused with
//! `input_not_allowed`. Failures are tool results with `isError: true` and a structured
//! `{ok: false, code, message, retryable, hint}`; unknown arguments are `invalid_arguments`.

// Nothing here prints to stdout, the protocol's channel: a stray line would corrupt it.
#![deny(clippy::print_stdout)]

mod args;
mod call;
mod catalog;
mod clients;
mod condition;
mod controls;
mod dispatch;
mod grants;
pub mod http;
mod jsonrpc;
pub mod limit;
mod outcome;
pub mod output;
pub mod packs;
mod pipeline;
pub mod prompts;
pub mod record;
mod recordings;
mod resources;
mod runner;
mod runs;
mod schema;
mod server;
mod stdio;
mod subscriptions;
mod tools;
mod write;

pub use call::Unknown;
pub use dispatch::{call_in_process, call_in_process_with, check_pack, registry};
pub use grants::{Capability, FilesDir, Grants};
pub use outcome::{Acted, ToolOutcome};
pub use resources::{session_of, tree_uri};
pub use server::{DeskpilotServer, Setup, instructions};
pub use stdio::serve_stdio;

/// Whether this server has a tool named `name` (granted or not).
pub fn has_tool(name: &str) -> bool {
    tools::SPECS.iter().any(|spec| spec.name == name)
}

/// Why serving stopped.
#[derive(Debug, thiserror::Error)]
#[error("MCP server: {0}")]
pub struct ServeError(pub(crate) String);
