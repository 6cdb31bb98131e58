//! deskpilot-core
