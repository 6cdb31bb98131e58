//! Apps that let a call time out: a frozen app costs one call timeout, not one per call. Once
//! a read (or the event check's ping) to an app times out, later calls to it fail at once
//! until it answers a ping again, which a probe sends in the background, one at a time. An
//! app known busy with one slow answer (`busy.rs`) is waited for instead, for a while.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Why an app let a call time out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stall {
    /// Nothing says why: it may be frozen. Calls fail at once.
    Unknown,
    /// It is busy with one slow answer (`busy.rs`): calls wait for it until `until`.
    Busy { until: tokio::time::Instant },
}

/// How long an app busy with one slow answer is waited for before it is taken as frozen.
/// GTK 3 built the 9,300-label box's cache in 8.3 s on a loaded two-core machine (test
/// `a_box_of_9300_labels_is_read_in_part_and_the_app_stays_free`, `cargo xtask under-load`).
const BUSY_PATIENCE: Duration = Duration::from_secs(15);

/// The apps that timed out and have not answered since, with the ping that finds out.
#[derive(Clone, Debug)]
pub struct Stalls {
    bus: zbus::Connection,
    /// How long a probe's ping waits (the per-call timeout).
    timeout: Duration,
    stalled: Arc<Mutex<HashMap<String, Stall>>>,
    /// How many apps are stalled: every call asks, and most often none is.
    count: Arc<AtomicUsize>,
    /// Timeouts waited out: calls that timed out together count once, a probe's own pings
    /// not at all.
    timeouts: Arc<AtomicU64>,
    /// Bumped each time an app answers again after a timeout.
    answered: Arc<tokio::sync::watch::Sender<u64>>,
}

impl Stalls {
    pub fn new(bus: zbus::Connection, timeout: Duration) -> Self {
        Stalls {
            bus,
            timeout,
            stalled: Arc::default(),
            count: Arc::default(),
            timeouts: Arc::default(),
            answered: Arc::new(tokio::sync::watch::Sender::new(0)),
        }
    }

    /// True while `app` has not answered since a call to it timed out.
    pub fn stalled(&self, app: &str) -> bool {
        self.count.load(Ordering::Acquire) > 0
            && self.stalled.lock().expect("stalls").contains_key(app)
    }

    /// `app`, stalled, is busy with one slow answer, not frozen (`busy.rs`).
    pub fn busy(&self, app: &str) {
        if let Some(stall) = self.stalled.lock().expect("stalls").get_mut(app) {
            *stall = Stall::Busy {
                until: tokio::time::Instant::now() + BUSY_PATIENCE,
            };
        }
    }

    /// Whether `app`, stalled, answered again: waited for only while it is busy with one
    /// slow answer, and no longer than `BUSY_PATIENCE` since; a frozen one is not waited for.
    pub async fn waited_for(&self, app: &str) -> bool {
        let stall = self.stalled.lock().expect("stalls").get(app).copied();
        match stall {
            Some(Stall::Busy { until }) => self.answered_by(app, until).await,
            Some(Stall::Unknown) => false,
            None => true,
        }
    }

    /// Waits until `app` answers again after a timeout (true), or `deadline` (false): an app
    /// busy with one long answer is not frozen.
    pub async fn answered_by(&self, app: &str, deadline: tokio::time::Instant) -> bool {
        let mut answered = self.answered.subscribe();
        while self.stalled(app) {
            match tokio::time::timeout_at(deadline, answered.changed()).await {
                Ok(Ok(())) => {}
                _ => return !self.stalled(app),
            }
        }
        true
    }

    /// The per-call timeout.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Calls that timed out so far.
    pub fn timeouts(&self) -> u64 {
        self.timeouts.load(Ordering::Relaxed)
    }

    /// A call waited out its whole timeout, saying nothing of whether the app is frozen.
    pub fn count_timeout(&self) {
        self.timeouts.fetch_add(1, Ordering::Relaxed);
    }

    /// A call to `app` waited out its whole timeout: later calls fail at once while a probe
    /// pings it until it answers. Calls that were waiting on it at the same time count as
    /// one timeout: they cost its wall time once.
    pub fn timed_out(&self, app: &str) {
        {
            let mut stalled = self.stalled.lock().expect("stalls");
            if stalled.contains_key(app) {
                return; // counted, and a probe runs
            }
            stalled.insert(app.to_owned(), Stall::Unknown);
            self.count.fetch_add(1, Ordering::AcqRel);
        }
        self.count_timeout();
        let probe = self.clone();
        let app = app.to_owned();
        tokio::spawn(async move { probe.probe(&app).await });
    }

    /// Pings `app` until it answers (or is gone), then lets calls through again.
    async fn probe(&self, app: &str) {
        loop {
            let ping = ping(&self.bus, app);
            match tokio::time::timeout(self.timeout, ping).await {
                // Still frozen: ask again (one ping in flight at a time).
                Err(_) => continue,
                Ok(Err(e)) if crate::error::classify(&e) == crate::error::Failure::Timeout => {
                    continue;
                }
                // It answered, or it is gone (the next call learns which).
                Ok(_) => break,
            }
        }
        if self.stalled.lock().expect("stalls").remove(app).is_some() {
            self.count.fetch_sub(1, Ordering::AcqRel);
        }
        self.answered.send_modify(|n| *n += 1);
    }
}

/// The error a call to a stalled app fails with at once: a timeout, as the call would have.
pub fn stalled_error(app: &str) -> zbus::Error {
    zbus::Error::InputOutput(Arc::new(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("{app} has not answered since a call to it timed out"),
    )))
}

/// A `Peer.Ping` to `app`'s root: its reply comes after everything the app sent before it.
pub async fn ping(bus: &zbus::Connection, app: &str) -> zbus::Result<zbus::Message> {
    bus.call_method(
        Some(app),
        "/org/a11y/atspi/accessible/root",
        Some("org.freedesktop.DBus.Peer"),
        "Ping",
        &(),
    )
    .await
}
