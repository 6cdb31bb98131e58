//! Waiting for an app to go quiet, shared by the tests on events.

use std::time::{Duration, Instant};

/// Until the app sent no event for 300 ms (at most 5 s): what reading it set off is over.
pub async fn quiet(events: &mut tokio::sync::watch::Receiver<u64>) {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until
        && tokio::time::timeout(Duration::from_millis(300), events.changed())
            .await
            .is_ok()
    {}
}
