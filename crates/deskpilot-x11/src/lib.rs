//! deskpilot-x11
