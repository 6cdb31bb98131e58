//! What is missing when no desktop was found.

use std::sync::Arc;

use deskpilot_core::{Engine, NoDesktop};

/// No desktop: why, and what the user does about it.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{why}")]
pub struct Missing {
    pub why: String,
    pub hint: &'static str,
}

impl Missing {
    pub(crate) fn new(why: impl Into<String>) -> Self {
        Missing {
            why: why.into(),
            hint: crate::NO_DESKTOP_HINT,
        }
    }

    /// An engine that answers, and whose every call fails `no_desktop` with this reason.
    pub fn engine(self) -> Engine {
        Engine::new(Arc::new(NoDesktop::session_missing(self.why, self.hint)))
    }
}
