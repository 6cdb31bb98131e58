//! What a pipeline is: its steps (`spec.rs`), references between them (`refs.rs`), which
//! may be retried (`safety.rs`), what can be checked before running (`validate.rs`), what a
//! run reports (`report.rs`), what it keeps (`trace.rs`, `store.rs`). Running one is
//! `runner/`'s.

pub mod refs;
pub mod report;
pub mod safety;
pub mod spec;
pub mod trace;
pub mod validate;
