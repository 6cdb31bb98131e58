//! deskpilot's Linux backend: the accessibility tree over AT-SPI2 (D-Bus, via zbus).
//!
//! Connects to the accessibility bus of an explicit D-Bus session, with a timeout on every call
//! so that a frozen app only fails the calls made to it. The measured traps this crate works
//! around are in `docs/toolkits.md`, each with the test that showed it.

mod act;
mod app_state;
mod apps;
mod backend;
mod bus;
mod busy;
mod cache;
mod details;
mod error;
mod events;
mod geometry;
mod kept;
mod layout;
pub mod mapping;
mod menus;
mod parents;
mod patch;
mod popups;
mod prepare;
mod proto;
mod read;
mod rebuilds;
mod scrolls;
mod signal;
mod stalls;
mod traps;
mod unannounced;
mod walk;

pub use backend::AtspiBackend;
pub use bus::ConnectOptions;
