//! `Events` for the Windows backend: what each watched app's UIA events said (`events.rs`),
//! as hints. UIA does not promise an event for every change, so no app is ever known quiet.

use std::time::Duration;

use async_trait::async_trait;
use deskpilot_platform::Events;
use deskpilot_platform::model::ElementId;

use super::WindowsBackend;
use crate::identity::{element_id, parse};
use crate::source::UiaSource;

impl<S: UiaSource> WindowsBackend<S> {
    /// Starts watching the events of `app`'s process (once): the log opens before the
    /// handlers are registered, so no event between the two is lost.
    pub(crate) async fn watch(&self, app: &ElementId) -> Option<u32> {
        let (pid, _, _) = parse(app)?;
        if self.events.watched(pid) {
            return Some(pid);
        }
        self.events.open(pid);
        let watch = self.source().watch(pid, self.events.clone());
        match self.calls.on(pid, None, watch).await {
            Ok(true) => Some(pid),
            _ => {
                self.events.forget(pid);
                None
            }
        }
    }
}

#[async_trait]
impl<S: UiaSource> Events for WindowsBackend<S> {
    async fn quiet(
        &self,
        _app: &ElementId,
        _quiet_for: Duration,
        _within: Duration,
    ) -> Option<bool> {
        None
    }

    async fn changes(&self, app: &ElementId) -> Option<tokio::sync::watch::Receiver<u64>> {
        let pid = self.watch(app).await?;
        self.events.changes(pid)
    }

    async fn focused_hint(&self, app: &ElementId) -> Option<ElementId> {
        let (pid, _, _) = parse(app)?;
        Some(element_id(&app.app, &self.events.focused(pid)?))
    }

    // `mark` and `announced_since` are the trait's: UIA's TextChanged and name property
    // events are not subscribed yet, so a click with no postcondition of its own is judged by
    // what is read back alone.

    async fn named_since(&self, app: &ElementId, since: u64) -> Option<Vec<ElementId>> {
        let (pid, _, _) = parse(app)?;
        let named = self.events.named_since(pid, since)?;
        Some(named.iter().map(|key| element_id(&app.app, key)).collect())
    }

    fn walked_parent(&self, _id: &ElementId) -> Option<ElementId> {
        None
    }
}
