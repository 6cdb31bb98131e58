//! Pure mappings from AT-SPI's vocabulary to deskpilot's (no bus access: unit-tested).

mod interface;
mod role;
mod routes;
mod state;

pub use interface::map_interfaces;
pub use role::map_role;
pub use routes::{names_of, route};
pub use state::{StateReporting, map_states};
