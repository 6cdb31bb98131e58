//! What a backend learns from an app's events: hints of when and where to look, never what
//! changed (the engine reads that). A platform without events gives `NoEvents`.

use std::time::Duration;

use async_trait::async_trait;

use crate::model::ElementId;

/// Event hints of the apps a backend watches.
#[async_trait]
pub trait Events: Send + Sync {
    /// Whether the app went quiet: `Some(true)` once it sent no event for `quiet_for`,
    /// `Some(false)` when events still came after `within`, `None` when that cannot be known
    /// (its events are not watched, or its toolkit does not report every change).
    async fn quiet(&self, app: &ElementId, quiet_for: Duration, within: Duration) -> Option<bool>;

    /// A count the backend bumps at every event `app` sends (a hint that something may have
    /// changed, never what changed): waits look again when it moves instead of at their next
    /// poll. `None` when the app's events are not watched.
    async fn changes(&self, app: &ElementId) -> Option<tokio::sync::watch::Receiver<u64>>;

    /// The element `app`'s latest focus event named (a hint: the caller reads it to check it
    /// still has the focus); `None` when its events are not watched or named none yet.
    async fn focused_hint(&self, app: &ElementId) -> Option<ElementId>;

    /// The elements `app`'s events named since its `changes` count was `since`, each once;
    /// `None` when that is not known (events not watched, or too many since). Hints of where
    /// to look first, never what changed.
    async fn named_since(&self, app: &ElementId, since: u64) -> Option<Vec<ElementId>>;

    /// Every event `app` sent before this call counted, a mark to ask `announced_since` from;
    /// `None` when its events are not watched, or announce nothing (the default).
    async fn mark(&self, _app: &ElementId) -> Option<u64> {
        None
    }

    /// The new texts and names `app` announced after `mark` (every event sent before this
    /// call counted), oldest first; `None` when that is not known (events not watched, or
    /// too many since). What an announcement says is checked against a read before it is
    /// believed.
    async fn announced_since(&self, _app: &ElementId, _mark: u64) -> Option<Vec<Announcement>> {
        None
    }

    /// The parent the last walk found the element under, where a full look sees it; `None`
    /// when no walk read it. (A toolkit may answer a parent chain that never reaches the
    /// window a walk found the element in.)
    fn walked_parent(&self, id: &ElementId) -> Option<ElementId>;
}

/// An element's new text or name, as the app's event said it (text it inserted, or its new
/// name). It may hold a secret: its `Debug` says only whose it is.
#[derive(Clone, PartialEq, Eq)]
pub struct Announcement {
    pub element: ElementId,
    pub said: String,
}

impl std::fmt::Debug for Announcement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Announcement")
            .field("element", &self.element)
            .finish_non_exhaustive()
    }
}

/// A backend that watches no events: every hint is unknown, and waits poll.
pub struct NoEvents;

#[async_trait]
impl Events for NoEvents {
    async fn quiet(&self, _: &ElementId, _: Duration, _: Duration) -> Option<bool> {
        None
    }

    async fn changes(&self, _: &ElementId) -> Option<tokio::sync::watch::Receiver<u64>> {
        None
    }

    async fn focused_hint(&self, _: &ElementId) -> Option<ElementId> {
        None
    }

    async fn named_since(&self, _: &ElementId, _: u64) -> Option<Vec<ElementId>> {
        None
    }

    fn walked_parent(&self, _: &ElementId) -> Option<ElementId> {
        None
    }
}
