//! UI Automation's words to the model's: roles, states, capabilities, routes, text.

pub mod node;
pub mod role;
pub mod routes;
pub mod state;
pub mod text;
