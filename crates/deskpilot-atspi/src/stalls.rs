//! Apps that let a call time out, by bus name, under the shared one-timeout policy
//! (`deskpilot_platform::stalls`): a frozen app costs one call timeout, not one per call. Its
//! probe is a `Peer.Ping`. An app known busy with one slow answer (`busy.rs`) is waited for
//! instead, `BUSY_PATIENCE` at most.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_platform::stalls::Probed;

/// How long an app busy with one slow answer is waited for before it is taken as frozen.
/// GTK 3 built the 9,300-label box's cache in 8.3 s on a loaded two-core machine (test
/// `a_box_of_9300_labels_is_read_in_part_and_the_app_stays_free`, `cargo xtask under-load`).
const BUSY_PATIENCE: Duration = Duration::from_secs(15);

/// The apps that timed out and have not answered since, with the bus that pings them.
#[derive(Clone, Debug)]
pub struct Stalls {
    bus: zbus::Connection,
    policy: deskpilot_platform::stalls::Stalls<String>,
}

impl Stalls {
    pub fn new(bus: zbus::Connection, timeout: Duration) -> Self {
        Stalls {
            bus,
            policy: deskpilot_platform::stalls::Stalls::new(timeout),
        }
    }

    /// True while `app` has not answered since a call to it timed out.
    pub fn stalled(&self, app: &str) -> bool {
        self.policy.stalled(app)
    }

    /// `app`, stalled, is busy with one slow answer, not frozen (`busy.rs`).
    pub fn busy(&self, app: &str) {
        self.policy.busy(app, BUSY_PATIENCE);
    }

    /// Whether `app`, stalled, answered again: waited for only while it is busy with one
    /// slow answer, and no longer than `BUSY_PATIENCE` since; a frozen one is not waited for.
    pub async fn waited_for(&self, app: &str) -> bool {
        self.policy.waited_for(app).await
    }

    /// Waits until `app` answers again after a timeout (true), or `deadline` (false): an app
    /// busy with one long answer is not frozen.
    pub async fn answered_by(&self, app: &str, deadline: tokio::time::Instant) -> bool {
        self.policy.answered_by(app, deadline).await
    }

    /// The per-call timeout.
    pub fn timeout(&self) -> Duration {
        self.policy.timeout()
    }

    /// Calls that timed out so far.
    pub fn timeouts(&self) -> u64 {
        self.policy.timeouts()
    }

    /// A call waited out its whole timeout, saying nothing of whether the app is frozen.
    pub fn count_timeout(&self) {
        self.policy.count_timeout();
    }

    /// A call to `app` waited out its whole timeout: later calls fail at once while a probe
    /// pings it until it answers (or is gone).
    pub fn timed_out(&self, app: &str) {
        let (bus, name) = (self.bus.clone(), app.to_owned());
        self.policy.timed_out(app, move || {
            let (bus, name) = (bus.clone(), name.clone());
            async move {
                match ping(&bus, &name).await {
                    Err(e) if crate::error::classify(&e) == crate::error::Failure::Timeout => {
                        Probed::Silent
                    }
                    // It answered, or it is gone (the next call learns which).
                    _ => Probed::Answered,
                }
            }
        });
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
