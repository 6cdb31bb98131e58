//! What a test step reports when it fails.

use deskpilot_core::Error as EngineError;
use deskpilot_core::hint::FaceVerb;

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
#[derive(thiserror::Error)]
pub enum TestError {
    /// The engine refused or failed (its code, message and hint).
    #[error("{locator}: {}", failure(.error))]
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

/// The message itself: a test that returns this error prints it with `{:?}`, and a
/// person reads the locator and the window's lines as written, not escaped.
impl std::fmt::Debug for TestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
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

/// An engine failure, the verbs its hint names in this library's words.
pub(crate) fn failure(error: &EngineError) -> String {
    deskpilot_core::present::failure_in(error, &api_word)
}

/// The verbs core's hints name, as this library's calls.
pub(crate) fn api_word(verb: FaceVerb) -> String {
    let call = match verb {
        FaceVerb::ListApps => "desktop.engine().list_apps()",
        FaceVerb::Connect => "Desktop::attach",
        FaceVerb::Snapshot => "App::snapshot",
        FaceVerb::Find => "Locator::find",
        FaceVerb::GetProperties => "desktop.engine().properties()",
        FaceVerb::ReadTable => "desktop.engine().read_table()",
        FaceVerb::WaitFor => "expect",
        FaceVerb::WindowAction => "desktop.engine().window_action()",
        FaceVerb::SetValue => "Locator::fill",
        FaceVerb::TypeText => "Locator::type_text",
        FaceVerb::Click => "Locator::click",
        FaceVerb::Act => "a Locator verb (check, expand, select, ...)",
    };
    format!("`{call}`")
}

#[cfg(test)]
mod tests {
    use deskpilot_core::{Code, Error};

    /// A test's failure names this library's calls, not the MCP server's tools.
    #[test]
    fn failures_name_this_librarys_calls() {
        let error = Error::new(
            Code::AppGone,
            "gone",
            "the app quit; `list_apps`, then `connect` again, or `wait_for` it",
        );
        let text = super::failure(&error);
        assert!(text.contains("`Desktop::attach` again"), "{text}");
        assert!(text.contains("or `expect` it"), "{text}");
        assert!(!text.contains("wait_for"), "{text}");
    }

    /// A test returning the error prints it with `{:?}`: the locator as written, the lines
    /// as lines.
    #[test]
    fn a_failed_test_prints_the_message_unescaped() {
        let error = super::TestError::NotActionable {
            locator: r#"checkbox[name="Enable alerts"]"#.into(),
            wanted: "checked".into(),
            timeout_ms: 5000,
            seen: "nothing matches; the window:\n- button \"OK\"".into(),
        };
        let printed = format!("{error:?}");
        assert!(
            printed.starts_with(r#"checkbox[name="Enable alerts"]: not checked"#),
            "{printed}"
        );
        assert!(printed.contains("\n- button \"OK\""), "{printed}");
    }
}
