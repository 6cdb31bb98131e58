//! Apps that let a call time out: a frozen app costs one call timeout, not one per call. Once
//! a read (or the event check's ping) to an app times out, later calls to it fail at once
//! until it answers a ping again, which a probe sends in the background, one at a time.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The apps that timed out and have not answered since, with the ping that finds out.
#[derive(Clone, Debug)]
pub struct Stalls {
    bus: zbus::Connection,
    /// How long a probe's ping waits (the per-call timeout).
    timeout: Duration,
    stalled: Arc<Mutex<HashSet<String>>>,
    /// How many apps are stalled: every call asks, and most often none is.
    count: Arc<AtomicUsize>,
    /// Timeouts waited out: calls that timed out together count once, a probe's own pings
    /// not at all.
    timeouts: Arc<AtomicU64>,
}

impl Stalls {
    pub fn new(bus: zbus::Connection, timeout: Duration) -> Self {
        Stalls {
            bus,
            timeout,
            stalled: Arc::default(),
            count: Arc::default(),
            timeouts: Arc::default(),
        }
    }

    /// True while `app` has not answered since a call to it timed out.
    pub fn stalled(&self, app: &str) -> bool {
        self.count.load(Ordering::Acquire) > 0 && self.stalled.lock().expect("stalls").contains(app)
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
            if !stalled.insert(app.to_owned()) {
                return; // counted, and a probe runs
            }
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
        if self.stalled.lock().expect("stalls").remove(app) {
            self.count.fetch_sub(1, Ordering::AcqRel);
        }
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
