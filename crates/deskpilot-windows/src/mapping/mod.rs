//! UI Automation's words to the model's: roles, states, capabilities, routes.

pub mod node;
pub mod role;
pub mod routes;
pub mod state;
