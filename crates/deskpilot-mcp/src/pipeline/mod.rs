//! Pipelines: many steps in one call (`run_steps`), each a tool called as a client would
//! call it and judged by its result and its `expect`; retries only where safe; captured
//! states put back and cleanup steps run whatever happened; a failed run continued later
//! (`continue_run`) while its app and windows are still the ones it saw; everything that can
//! be checked without running, checked first (`validate_steps`).

pub mod refs;
pub mod report;
pub mod run;
pub mod safety;
pub mod spec;
pub mod state;
pub mod store;
pub mod trace;
pub mod validate;

use std::sync::Arc;

use rmcp::model::JsonObject;

use crate::grants::Capability;

/// What the server knows of a tool a step names.
pub enum Known {
    /// Listed: its input schema, and whether it only reads.
    Listed {
        schema: Arc<JsonObject>,
        read_only: bool,
    },
    /// Not listed for want of a capability.
    Withheld(Capability),
}
