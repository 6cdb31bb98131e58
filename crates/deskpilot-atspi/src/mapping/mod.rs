//! Pure mappings from AT-SPI's vocabulary to deskpilot's (no bus access: unit-tested).

mod interface;
mod role;
mod state;

pub use interface::map_interfaces;
pub use role::map_role;
pub use state::{StateReporting, map_states};
