//! The fake's stand-in for UI Automation's worker per app (`worker.rs`): an app's calls
//! run one at a time, in the order sent; each runs to its end even when its caller stopped
//! waiting (a COM call is not cancelled); a call whose caller left before its turn is
//! skipped, as the worker skips it. An app that does not answer holds its queue until it
//! answers or the client's transaction timeout ends the call (`IUIAutomation2::
//! TransactionTimeout`; `com/uia.rs` sets 10 s), as the real worker waits. A fake that
//! answered an app's calls together would hide a deadline counted from submission (review
//! `windows-2026-12-03.md`, A1).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

/// UIA's transaction timeout as `com/uia.rs` sets it.
const TRANSACTION: Duration = Duration::from_secs(10);

/// How long UI Automation waits for a provider to give an element before it gives up on
/// it (`IUIAutomation2::ConnectionTimeout`, as `com/uia.rs` sets it): what a hung window
/// costs a listing of the desktop's windows.
pub(super) const CONNECTION: Duration = Duration::from_secs(1);

/// The properties a cached element carries (`com/props.rs`'s request): a call's cost grows
/// with the elements it returns.
pub(super) const PROPERTIES: u32 = 52;

/// Characters of text a call hands over for the cost of one property read: text is
/// marshalled as one string, UTF-16, across processes (the fake's own measure).
pub(super) const CHARS_PER_PROPERTY: u32 = 100;

/// How often a waiting call looks whether its app answers again.
const POLL: Duration = Duration::from_millis(50);

/// How one call's time on its app's worker went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Worked {
    Answered,
    /// The app did not answer within the transaction timeout.
    TimedOut,
}

/// The apps' workers: their queues, how long each call takes, and which apps are frozen.
#[derive(Default)]
pub(super) struct Workers {
    turns: Mutex<HashMap<u32, Arc<tokio::sync::Mutex<()>>>>,
    latency: Mutex<HashMap<u32, Duration>>,
    per_property: Mutex<HashMap<u32, Duration>>,
    pub(super) frozen: Arc<Mutex<HashSet<u32>>>,
}

impl Workers {
    /// Each call to `pid` takes `latency` on its worker from now on.
    pub(super) fn set_latency(&self, pid: u32, latency: Duration) {
        self.latency.lock().unwrap().insert(pid, latency);
    }

    /// Each property a call to `pid` reads takes `cost` more on its worker.
    pub(super) fn set_property_cost(&self, pid: u32, cost: Duration) {
        self.per_property.lock().unwrap().insert(pid, cost);
    }

    /// A job's time on `pid`'s worker: its turn, then the latency of its `calls` and the
    /// cost of the `properties` they read. Then it waits while the app (or, `hung`, the
    /// element asked) does not answer, up to the transaction timeout.
    pub(super) async fn run(&self, pid: u32, hung: bool, calls: u32, properties: u32) -> Worked {
        let turn = self.turns.lock().unwrap().entry(pid).or_default().clone();
        let per_property = self.per_property.lock().unwrap().get(&pid).copied();
        let latency = self
            .latency
            .lock()
            .unwrap()
            .get(&pid)
            .copied()
            .unwrap_or_default()
            * calls
            + per_property.unwrap_or_default() * properties;
        let latency = (!latency.is_zero()).then_some(latency);
        let frozen = self.frozen.clone();
        let (done, worked) = tokio::sync::oneshot::channel();
        tokio::spawn(async move {
            let _running = turn.lock_owned().await;
            if done.is_closed() {
                return;
            }
            if let Some(latency) = latency {
                tokio::time::sleep(latency).await;
            }
            let until = Instant::now() + TRANSACTION;
            let answers = || !hung && !frozen.lock().unwrap().contains(&pid);
            while !answers() && Instant::now() < until {
                tokio::time::sleep(POLL).await;
            }
            let _ = done.send(match answers() {
                true => Worked::Answered,
                false => Worked::TimedOut,
            });
        });
        worked.await.unwrap_or(Worked::TimedOut)
    }
}
