//! deskpilot-test
