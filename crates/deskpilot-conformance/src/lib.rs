//! The MCP conformance suite's fixtures, served beside deskpilot's own tools by a test-only
//! server (`deskpilot-conformance`, run by `cargo xtask conformance`). The suite's scenarios
//! call them by name: tools, prompts and resources named `test_*` or under `test://`. Their
//! wire shapes follow `@modelcontextprotocol/conformance`'s checks. They serve no agent, and
//! the product never links them: this crate wraps deskpilot's handler, as rmcp keeps its own
//! conformance server apart from the SDK.

mod catalog;
mod content;
mod handler;
mod interactive;
mod mrtr;
mod route;

pub use handler::Fixtures;
