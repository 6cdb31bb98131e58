//! App packs: an application described once as data (how to start it, its main window, its
//! controls by name, what acting on them means, named workflows), validated and loaded whole
//! (`docs/app-packs.md`). The files' types and schemas are `format.rs`'s; reading them
//! `read.rs`'s; what a schema cannot say `check.rs`'s and `literals.rs`'s; the active set
//! `set.rs`'s; a workflow made a pipeline `run.rs`'s, a control named in a selector
//! `crate::named`'s.

pub mod check;
pub mod format;
mod literals;
pub mod probe;
pub mod read;
pub mod report;
pub mod run;
pub mod set;
mod shipped;
pub mod sources;

#[cfg(test)]
#[path = "packs_tests.rs"]
mod tests;
