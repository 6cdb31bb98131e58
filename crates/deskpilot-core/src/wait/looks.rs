//! The engine's one wait primitive: look, and between two looks sleep until the app sends an
//! event (where its events are watched) or the fallback poll comes, whichever is first, up to
//! a deadline. Events are hints to look again, never the answer: every look reads the app.
//! The poll stays on every toolkit because none sends an event for every change (a row added
//! to a GTK list box sends none).

use std::ops::ControlFlow;
use std::time::Duration;

use serde::Serialize;
use tokio::time::Instant;

use crate::engine::Engine;
use crate::error::Result;
use crate::model::ElementId;

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
}

impl Wakes {
    /// Looks made in all (the first one included).
    pub fn looks(&self) -> u32 {
        1 + self.by_event + self.by_poll
    }
}

/// How a wait ended: the look's answer, or what the last look saw when time ran out.
pub enum Waited<T, S> {
    Done(T),
    TimedOut(S),
}

/// The sleep between two looks of a wait: until the app's next event or the poll, whichever
/// is first.
pub struct Wake {
    events: Option<tokio::sync::watch::Receiver<u64>>,
    poll: Duration,
    wakes: Wakes,
}

impl Wake {
    /// Marks the events so far as seen; called right before a look, so that an event sent
    /// during the look wakes the next one at once.
    pub fn looking(&mut self) {
        if let Some(events) = &mut self.events {
            events.borrow_and_update();
        }
    }

    /// Sleeps until the app's next event, the poll or `deadline`, whichever is first.
    pub async fn next(&mut self, deadline: Instant) {
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
                    }
                    () = poll => self.wakes.by_poll += 1,
                }
            }
            None => {
                poll.await;
                self.wakes.by_poll += 1;
            }
        }
    }

    /// What woke the looks so far.
    pub fn wakes(&self) -> Wakes {
        self.wakes
    }
}

impl Engine {
    /// A wake on `app`'s events (any element of it names it), with `poll` as the fallback.
    pub async fn wake_on(&self, app: &ElementId, poll: Duration) -> Wake {
        let events = self.backend().changes(app).await;
        Wake {
            wakes: Wakes {
                events_watched: events.is_some(),
                ..Wakes::default()
            },
            events,
            poll,
        }
    }

    /// Looks (`look` reads the app and decides: `Break` ends the wait, `Continue` carries what
    /// it saw) until it decides or `timeout` passes; at least one look. Between looks, the
    /// session's app's events or the fallback poll wake the next.
    pub async fn wait_looking<T, S, F>(
        &self,
        session: &str,
        timeout: Duration,
        mut look: impl FnMut() -> F,
    ) -> Result<(Waited<T, S>, Wakes)>
    where
        F: Future<Output = Result<ControlFlow<T, S>>>,
    {
        let deadline = Instant::now() + timeout;
        let root = self.session(session)?.root;
        let mut wake = self.wake_on(&root, FALLBACK_POLL).await;
        loop {
            wake.looking();
            let seen = match look().await? {
                ControlFlow::Break(done) => return Ok((Waited::Done(done), wake.wakes())),
                ControlFlow::Continue(seen) => seen,
            };
            if Instant::now() >= deadline {
                return Ok((Waited::TimedOut(seen), wake.wakes()));
            }
            wake.next(deadline).await;
        }
    }
}
