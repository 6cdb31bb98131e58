//! What a test step reports when it fails.

use deskpilot_core::Error as EngineError;

/// A failed step: the engine's failure, a wait that ran out, or a desktop that did not start.
/// Each names the locator (its selector text) it was about.
///
/// ```no_run
/// # async fn demo(app: deskpilot_test::App) -> deskpilot_test::Result<()> {
/// use deskpilot_test::{Role, TestError};
/// match app.get_by_role(Role::Button).click().await {
///     Err(TestError::Ambiguous { count, .. }) => println!("{count} buttons: name the one meant"),
///     result => {
///         result?;
///     }
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, thiserror::Error)]
pub enum TestError {
    /// The engine refused or failed (its code, message and hint).
    #[error("{locator}: {}", deskpilot_core::present::failure(.error))]
    Engine {
        /// The locator, or what was asked.
        locator: String,
        /// The engine's failure (a stable code, whether retrying can help, a hint).
        error: EngineError,
    },
    /// An element did not become actionable, or a condition did not hold, in time.
    #[error("{locator}: not {wanted} within {timeout_ms} ms; last seen: {seen}")]
    NotActionable {
        /// The locator.
        locator: String,
        /// What was waited for (`visible and enabled`, `checked`, ...).
        wanted: String,
        /// How long it was waited for.
        timeout_ms: u128,
        /// What the last look saw (the matches as compact lines, or `nothing matches`).
        seen: String,
    },
    /// More than one element matches where one is meant (strict by default).
    #[error("{locator}: {count} elements match, one was meant:\n{lines}")]
    Ambiguous {
        /// The locator.
        locator: String,
        /// How many visible elements match.
        count: usize,
        /// Each match as a compact line with its ref.
        lines: String,
    },
    /// An action was sent but its effect is not confirmed, where a confirmation was required.
    #[error("{locator}: not confirmed: {report}")]
    NotConfirmed {
        /// The locator.
        locator: String,
        /// The action's report (route, rungs skipped, effect).
        report: String,
    },
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
///
/// ```no_run
/// async fn opens_a_note() -> deskpilot_test::Result<()> {
///     let desktop = deskpilot_test::Desktop::headless().await?;
///     desktop.launch(["mousepad"]).await?;
///     Ok(())
/// }
/// ```
pub type Result<T> = std::result::Result<T, TestError>;
