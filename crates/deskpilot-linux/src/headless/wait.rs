//! Waiting on a condition with a deadline: the only way this crate synchronizes with processes.

use std::time::{Duration, Instant};

/// Polls `check` until it returns `Some`, or `timeout` passes (then `None`). The interval starts
/// at 5 ms and grows to 50 ms, so fast conditions are seen fast and slow ones cost little.
pub fn until<T>(timeout: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + timeout;
    let mut interval = Duration::from_millis(5);
    loop {
        if let Some(value) = check() {
            return Some(value);
        }
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        std::thread::sleep(interval.min(deadline - now));
        interval = (interval * 2).min(Duration::from_millis(50));
    }
}
