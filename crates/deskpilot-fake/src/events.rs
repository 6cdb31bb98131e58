//! The fake's events: once `send_events` switched them on, every `edit` and `remove` is one.

use async_trait::async_trait;
use deskpilot_platform::model::ElementId;

use crate::FakeBackend;

/// Events, once `send_events` switched them on: every `edit` and `remove` is one.
#[async_trait]
impl deskpilot_platform::Events for FakeBackend {
    async fn changes(&self, _app: &ElementId) -> Option<tokio::sync::watch::Receiver<u64>> {
        self.events.lock().unwrap().as_ref().map(|e| e.subscribe())
    }

    async fn named_since(&self, app: &ElementId, since: u64) -> Option<Vec<ElementId>> {
        let now = *self.events.lock().unwrap().as_ref()?.borrow();
        let remembered = self.named.lock().unwrap();
        // Some events since are no longer remembered (a flood): what they named is not known.
        if now > since
            && remembered
                .first()
                .is_none_or(|(first, _)| *first > since + 1)
        {
            return None;
        }
        let mut named: Vec<ElementId> = Vec::new();
        for (_, id) in remembered.iter().filter(|(n, _)| *n > since) {
            if id.app == app.app && !named.contains(id) {
                named.push(id.clone());
            }
        }
        Some(named)
    }

    async fn quiet(
        &self,
        _app: &ElementId,
        _quiet_for: std::time::Duration,
        _within: std::time::Duration,
    ) -> Option<bool> {
        None
    }

    async fn focused_hint(&self, _app: &ElementId) -> Option<ElementId> {
        None
    }

    fn walked_parent(&self, _id: &ElementId) -> Option<ElementId> {
        None
    }
}
