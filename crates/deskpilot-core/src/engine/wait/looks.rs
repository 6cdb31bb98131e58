//! The engine's one wait primitive, `Wake`: between two looks of a wait (`wait_for`, the
//! settle after an action, the test library's waits), sleep until the app sends an event
//! (where its events are watched) or the fallback poll comes, whichever is first, up to a
//! deadline. Events are hints to look again, never the answer: every look reads the app.
//! The poll stays on every toolkit because none sends an event for every change (a row added
//! to a GTK list box sends none).

use crate::engine::Engine;
use crate::model::ElementId;
use crate::wait::looks::*;
use std::time::Duration;

impl Engine {
    /// A wake on `app`'s events (any element of it names it), with `poll` as the fallback.
    pub async fn wake_on(&self, app: &ElementId, poll: Duration) -> Wake {
        let events = self.backend().events().changes(app).await;
        Wake {
            wakes: Wakes {
                events_watched: events.is_some(),
                ..Wakes::default()
            },
            events,
            poll,
        }
    }
}
