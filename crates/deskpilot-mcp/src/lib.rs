//! deskpilot-mcp
