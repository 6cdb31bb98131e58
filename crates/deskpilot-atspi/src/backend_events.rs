//! `Events` for the AT-SPI backend: what each app's watch (`events.rs`) saw, as hints.

use async_trait::async_trait;
use deskpilot_platform::Announcement;
use deskpilot_platform::model::ElementId;

use super::AtspiBackend;

/// The events each app's watch saw (`events.rs`): hints of when and where to look.
#[async_trait]
impl deskpilot_platform::Events for AtspiBackend {
    async fn quiet(
        &self,
        app: &ElementId,
        quiet_for: std::time::Duration,
        within: std::time::Duration,
    ) -> Option<bool> {
        // Only a bridge that reports every change can say nothing changed.
        if !self.traits_of(&app.app).await.complete_events {
            return None;
        }
        self.freshness
            .as_ref()?
            .quiet(&app.app, quiet_for, within)
            .await
    }

    async fn changes(&self, app: &ElementId) -> Option<tokio::sync::watch::Receiver<u64>> {
        self.freshness.as_ref()?.changes(&app.app).await
    }

    async fn focused_hint(&self, app: &ElementId) -> Option<ElementId> {
        let timeout = self.proto.timeout();
        self.freshness.as_ref()?.focused(app, timeout).await
    }

    async fn named_since(&self, app: &ElementId, since: u64) -> Option<Vec<ElementId>> {
        self.freshness.as_ref()?.named_since(app, since)
    }

    async fn mark(&self, app: &ElementId) -> Option<u64> {
        self.freshness.as_ref()?.mark(&app.app).await
    }

    async fn announced_since(&self, app: &ElementId, mark: u64) -> Option<Vec<Announcement>> {
        self.freshness.as_ref()?.announced_since(app, mark).await
    }

    fn walked_parent(&self, id: &ElementId) -> Option<ElementId> {
        self.apps
            .read(&id.app, |state| state.parents.of(id))
            .flatten()
    }
}
