//! Reading: snapshots and their pages, find and strict resolution, one element's details.

mod apps;
mod find;
mod inspect;
mod results;
mod since;
mod snapshot;
mod tables;

pub use crate::app::WindowPick;
pub use apps::{ListedApp, ListedWindow};
pub use results::{
    FindResult, Match, Resolved, Snapshot, SnapshotRequest, TableRead, Target, TextRead,
    Truncation, Unsearched,
};
