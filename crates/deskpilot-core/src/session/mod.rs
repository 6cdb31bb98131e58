//! Sessions: one agent's (or test's) connection to one app or window, owning its refs.

mod refs;
mod store;
mod target;

pub use refs::{RefEntry, RefId, RefTable, format_ref, parse_ref};
pub use store::{PendingSubtree, SessionStore, unknown_session};
pub use target::{ConnectTarget, SessionInfo, choose};
