//! App packs: an application described once as data (how to start it, its main window, its
//! controls by name, what acting on them means, named workflows), validated and loaded whole
//! (`docs/app-packs.md`). The app's part (its files, reading them, its checks, controls by
//! name) is `deskpilot_packs`', shared with the test library. Here: the files' types of what
//! acting means and of workflows (`format.rs`), a whole pack read (`read.rs`), what a schema
//! cannot say of them (`check.rs`, `literals.rs`), the server's set (`set.rs`), a workflow
//! made a pipeline (`run.rs`).

pub mod check;
pub mod format;
mod literals;
pub mod probe;
pub mod read;
pub mod run;
pub mod set;

pub use deskpilot_packs::report;
pub use deskpilot_packs::sources;

#[cfg(test)]
#[path = "packs_tests.rs"]
mod tests;
