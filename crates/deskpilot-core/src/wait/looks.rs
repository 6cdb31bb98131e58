//! The engine's one wait primitive, `Wake`: between two looks of a wait (`wait_for`, the
//! settle after an action, the test library's waits), sleep until the app sends an event
//! (where its events are watched) or the fallback poll comes, whichever is first, up to a
//! deadline. Events are hints to look again, never the answer: every look reads the app.
//! The poll stays on every toolkit because none sends an event for every change (a row added
//! to a GTK list box sends none).

use std::time::Duration;

use serde::Serialize;
use tokio::time::Instant;

/// Time between two looks when no event came.
pub const FALLBACK_POLL: Duration = Duration::from_millis(100);

/// What woke a wait to look again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Wakes {
    /// The app's events were watched (else only the poll woke the wait).
    pub events_watched: bool,
    /// Looks made because the app sent an event.
    pub by_event: u32,
    /// Looks made because the fallback poll came first.
    pub by_poll: u32,
    /// Of the looks on events, those that read only the elements the events named (and
    /// their ancestors), not the whole tree.
    pub targeted: u32,
    /// Of the looks on events, those after more events than are remembered one by one (a
    /// flood): what they named was not known, so the whole tree was read.
    pub flooded: u32,
}

impl Wakes {
    /// Looks made in all (the first one included).
    pub fn looks(&self) -> u32 {
        1 + self.by_event + self.by_poll
    }
}

/// What ended a wake's sleep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woke {
    Event,
    Poll,
}

/// The sleep between two looks of a wait: until the app's next event or the poll, whichever
/// is first. It counts the events sent since it was made or last woke, so one sent during a
/// look (which may have read the app just before the change) wakes the next look at once.
pub struct Wake {
    pub(crate) events: Option<tokio::sync::watch::Receiver<u64>>,
    pub(crate) poll: Duration,
    pub(crate) wakes: Wakes,
}

impl Wake {
    /// Sleeps until the app's next event, the poll or `deadline`, whichever is first, and
    /// says which came.
    pub async fn next(&mut self, deadline: Instant) -> Woke {
        let poll = tokio::time::sleep_until((Instant::now() + self.poll).min(deadline));
        match &mut self.events {
            Some(receiver) => {
                tokio::select! {
                    changed = receiver.changed() => {
                        if changed.is_err() {
                            // The watch ended (the app left): the poll goes on alone.
                            self.events = None;
                        }
                        self.wakes.by_event += 1;
                        Woke::Event
                    }
                    () = poll => {
                        self.wakes.by_poll += 1;
                        Woke::Poll
                    }
                }
            }
            None => {
                poll.await;
                self.wakes.by_poll += 1;
                Woke::Poll
            }
        }
    }

    /// Sleeps until the app's next event; forever when its events are not watched.
    pub async fn event(&mut self) {
        let Some(receiver) = &mut self.events else {
            return std::future::pending().await;
        };
        match receiver.changed().await {
            Ok(()) => self.wakes.by_event += 1,
            // The watch ended (the app left): no event comes.
            Err(_) => std::future::pending().await,
        }
    }

    /// The app's event count now (`None` when its events are not watched): the events after
    /// it are what the next wake is about.
    pub fn mark(&self) -> Option<u64> {
        self.events.as_ref().map(|r| *r.borrow())
    }

    /// Notes that a look on events read only what the events named.
    pub fn targeted(&mut self) {
        self.wakes.targeted += 1;
    }

    /// Notes that a look on events came after a flood of them (the whole tree was read).
    pub fn flooded(&mut self) {
        self.wakes.flooded += 1;
    }

    /// What woke the looks so far.
    pub fn wakes(&self) -> Wakes {
        self.wakes
    }
}
