//! What an app handle and its locators share: the engine and the session on the app.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::{Engine, SessionInfo};

use crate::secrets::Secrets;
use crate::trace::{Started, Trace};

/// The engine's session on one app, with the default timeout of waits on it and the test's
/// trace.
pub(crate) struct Session {
    pub(crate) engine: Arc<Engine>,
    pub(crate) info: SessionInfo,
    pub(crate) timeout: Duration,
    pub(crate) trace: Option<Arc<Trace>>,
    /// The test's soft expectations that failed (shared by every app of the desktop).
    pub(crate) soft: SoftFailures,
    /// Every action must be confirmed (`Desktop::confirmed_only`).
    pub(crate) confirmed_only: bool,
    /// The secrets typed in this test, kept out of traces and failure messages.
    pub(crate) secrets: Secrets,
}

/// Failed soft expectations, reported when the desktop goes away.
pub(crate) type SoftFailures = Arc<std::sync::Mutex<Vec<String>>>;

impl Session {
    pub(crate) fn id(&self) -> &str {
        &self.info.id
    }

    /// Starts a traced step (the app captured before it), when the test is traced.
    pub(crate) async fn step(&self, title: impl FnOnce() -> String) -> Option<Started> {
        match &self.trace {
            Some(trace) => {
                let title = self.secrets.redact(&title());
                Some(
                    trace
                        .start(title, &self.engine, self.id(), &self.secrets)
                        .await,
                )
            }
            None => None,
        }
    }

    /// What a failed wait saw: the matches, or when nothing matched, the app's active window
    /// as the compact tree (its first lines), where the element was expected.
    pub(crate) async fn seen(&self, found: &deskpilot_core::FindResult) -> String {
        const LINES: usize = 40;
        let matches = seen(found);
        if found.total > 0 {
            return matches;
        }
        let request = deskpilot_core::SnapshotRequest::default();
        match self.engine.snapshot(self.id(), &request).await {
            Ok(snapshot) => {
                let text = self
                    .secrets
                    .redact(&deskpilot_core::present::snapshot(&snapshot).joined());
                let lines: Vec<&str> = text.lines().collect();
                let more = lines.len().saturating_sub(LINES);
                let mut out = format!("{matches}; the app's active window:\n");
                out.push_str(&lines[..lines.len().min(LINES)].join("\n"));
                if more > 0 {
                    out.push_str(&format!("\n# ... {more} more lines"));
                }
                out
            }
            Err(_) => matches,
        }
    }

    /// Keeps a soft expectation's failure for the end of the test.
    pub(crate) fn soft_failure(&self, failure: String) {
        self.soft.lock().expect("soft failures").push(failure);
    }

    /// Ends a traced step with its outcome (the app captured after it).
    pub(crate) async fn step_done(
        &self,
        started: Option<Started>,
        outcome: Result<String, String>,
    ) {
        if let (Some(trace), Some(started)) = (&self.trace, started) {
            let redact = |text: String| self.secrets.redact(&text);
            let outcome = outcome.map(redact).map_err(redact);
            trace
                .finish_step(started, outcome, &self.engine, self.id(), &self.secrets)
                .await;
        }
    }
}

/// What a find saw, for a message: the matches as lines (or that there were none).
pub(crate) fn seen(found: &deskpilot_core::FindResult) -> String {
    if found.total == 0 {
        return "nothing matches".into();
    }
    let mut text = deskpilot_core::present::find(found);
    text.truncate(text.trim_end().len());
    format!("\n{text}")
}
