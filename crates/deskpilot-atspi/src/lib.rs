//! deskpilot-atspi
