//! deskpilot-fake
