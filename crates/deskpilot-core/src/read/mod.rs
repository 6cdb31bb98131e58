//! Reading: snapshots and their pages, find and strict resolution, one element's details.

pub(crate) mod apps;
pub(crate) mod find;
pub(crate) mod results;
pub(crate) mod snapshot;

pub use crate::app::WindowPick;
pub use apps::{ListedApp, ListedWindow};
pub use results::{
    FindResult, Match, Resolved, Snapshot, SnapshotRequest, TableRead, Target, TextRead,
    Truncation, Unsearched,
};
