//! What an app handle and its locators share: the engine and the session on the app.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::{Engine, SessionInfo};

use crate::error::Result;
use crate::packs::Packs;
use crate::secrets::Secrets;
use crate::trace::Trace;

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
    /// The app packs whose controls its locators may name (`@pack/control`).
    pub(crate) packs: Arc<Packs>,
}

/// Failed soft expectations, reported when the desktop goes away.
pub(crate) type SoftFailures = Arc<std::sync::Mutex<Vec<String>>>;

impl Session {
    /// The engine's handle on this session: `unknown_session` once it is closed.
    pub(crate) fn handle(
        &self,
    ) -> std::result::Result<deskpilot_core::Session<'_>, deskpilot_core::Error> {
        self.engine.session(self.id())
    }

    pub(crate) fn id(&self) -> &str {
        &self.info.id
    }

    /// The engine's wake on this session's app: between two looks of a wait, the app's next
    /// event or the engine's fallback poll starts the next one.
    pub(crate) async fn wake(&self) -> deskpilot_core::Wake {
        self.engine
            .wake_on(&self.info.root, deskpilot_core::FALLBACK_POLL)
            .await
    }

    /// Runs `body` as one step of the test's trace (when traced): the app captured before and
    /// after, the outcome as `summary` words it (or the failure), secrets redacted.
    pub(crate) async fn traced<T>(
        &self,
        title: impl FnOnce() -> String,
        body: impl Future<Output = Result<T>>,
        summary: impl FnOnce(&T) -> String,
    ) -> Result<T> {
        let Some(trace) = &self.trace else {
            return body.await;
        };
        let title = self.secrets.redact(&title());
        let started = trace
            .start(title, &self.engine, self.id(), &self.secrets)
            .await;
        let result = body.await;
        let outcome = match &result {
            Ok(value) => Ok(self.secrets.redact(&summary(value))),
            Err(e) => Err(self.secrets.redact(&e.to_string())),
        };
        trace
            .finish_step(started, outcome, &self.engine, self.id(), &self.secrets)
            .await;
        result
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
        let read = async { self.handle()?.snapshot(&request).await };
        match read.await {
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
}

/// What a find saw, for a message: the matches as lines (or that there were none).
pub(crate) fn seen(found: &deskpilot_core::FindResult) -> String {
    if found.total == 0 {
        return "nothing matches".into();
    }
    let mut text = deskpilot_core::present::find_in(found, &crate::error::api_word);
    text.truncate(text.trim_end().len());
    format!("\n{text}")
}
