//! Updates of a session's tree for subscribers: the app's events, debounced. A burst of
//! events is one update, sent once the app was quiet for `TRAILING`, and at the latest
//! `FLUSH` after the burst began (a progress bar that never stops still updates ten times a
//! second, not sixty). The updates end when the session's app is gone (checked every
//! `LIVENESS` while no event comes) or its events stop being watched.

use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

use crate::engine::Engine;
use crate::error::Result;
use crate::platform::BackendError;

/// Quiet time after the last event of a burst before its update is sent.
pub const TRAILING: Duration = Duration::from_millis(30);
/// The longest a burst's update waits after its first event.
pub const FLUSH: Duration = Duration::from_millis(100);
/// How often a quiet subscription checks that its app still runs.
pub const LIVENESS: Duration = Duration::from_millis(500);

/// One update: the app may have changed its tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeUpdated {
    /// The events this update stands for.
    pub events: u64,
}

/// A session's stream of updates (`Engine::tree_updates`).
pub struct TreeUpdates {
    session: String,
    events: watch::Receiver<u64>,
    seen: u64,
}

impl Engine {}

impl crate::engine::Session<'_> {
    /// The updates of `session`'s tree; `None` when its app's events are not watched (there
    /// is nothing to wake a subscriber: read the tree instead).
    pub async fn tree_updates(&self) -> Result<Option<TreeUpdates>> {
        let session = self.id();
        let info = self.engine.session_info(session)?;
        let Some(events) = self.engine.backend().events().changes(&info.app.id).await else {
            return Ok(None);
        };
        let seen = *events.borrow();
        Ok(Some(TreeUpdates {
            session: session.to_owned(),
            events,
            seen,
        }))
    }

    /// Whether the session's app still runs: false once it quit or the session was closed
    /// (an app that does not answer, frozen or busy, still runs).
    pub async fn session_alive(&self) -> bool {
        let session = self.id();
        let Ok(info) = self.engine.session_info(session) else {
            return false;
        };
        let read = self
            .engine
            .backend()
            .node(&info.app.id, crate::platform::Secrecy::Plain)
            .await;
        !matches!(
            read,
            Err(BackendError::AppGone { .. } | BackendError::Defunct { .. })
        )
    }
}

impl TreeUpdates {
    /// The next update, debounced; `None` when the updates ended (the app is gone, the
    /// session closed, or the app's events stopped being watched).
    pub async fn next(&mut self, engine: &Engine) -> Option<TreeUpdated> {
        // The first event of a burst (or the end).
        loop {
            tokio::select! {
                changed = self.events.changed() => {
                    if changed.is_err() {
                        return None;
                    }
                    break;
                }
                () = tokio::time::sleep(LIVENESS) => {
                    if !engine.handle(&self.session).session_alive().await {
                        return None;
                    }
                }
            }
        }
        let flush = Instant::now() + FLUSH;
        loop {
            let until = (Instant::now() + TRAILING).min(flush);
            tokio::select! {
                changed = self.events.changed() => {
                    if changed.is_err() || Instant::now() >= flush {
                        break;
                    }
                }
                () = tokio::time::sleep_until(until) => break,
            }
        }
        let now = *self.events.borrow_and_update();
        let events = now.saturating_sub(self.seen);
        self.seen = now;
        Some(TreeUpdated { events })
    }
}
