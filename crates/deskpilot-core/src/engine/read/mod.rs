//! Reading: snapshots with refs, finds and resolves, one element closer, long tables, the
//! apps on the desktop (`read/` holds the requests and results).

pub(crate) mod apps;
pub(crate) mod chain;
pub(crate) mod find;
pub(crate) mod focus;
pub(crate) mod inspect;
pub(crate) mod locate;
pub(crate) mod since;
pub(crate) mod snapshot;
pub(crate) mod tables;
