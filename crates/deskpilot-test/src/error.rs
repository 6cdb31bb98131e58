//! What a test step reports when it fails.

use deskpilot_core::Error as EngineError;

/// A failed step: the engine's failure, a wait that ran out, or a desktop that did not start.
#[derive(Debug, thiserror::Error)]
pub enum TestError {
    /// The engine refused or failed (its code, message and hint).
    #[error("{locator}: {}", deskpilot_core::present::failure(.error))]
    Engine { locator: String, error: EngineError },
    /// An element did not become actionable in time.
    #[error("{locator}: not {wanted} within {timeout_ms} ms; last seen: {seen}")]
    NotActionable {
        locator: String,
        wanted: String,
        timeout_ms: u128,
        seen: String,
    },
    /// More than one element matches where one is meant (strict by default).
    #[error("{locator}: {count} elements match, one was meant:\n{lines}")]
    Ambiguous {
        locator: String,
        count: usize,
        lines: String,
    },
    /// An action was sent but its effect is not confirmed, where a confirmation was required.
    #[error("{locator}: not confirmed: {report}")]
    NotConfirmed { locator: String, report: String },
    /// The desktop or the app could not be started or reached.
    #[error("desktop: {0}")]
    Desktop(String),
}

impl TestError {
    pub(crate) fn engine(locator: impl Into<String>, error: EngineError) -> Self {
        TestError::Engine {
            locator: locator.into(),
            error,
        }
    }
}

/// A test step's result.
pub type Result<T> = std::result::Result<T, TestError>;
