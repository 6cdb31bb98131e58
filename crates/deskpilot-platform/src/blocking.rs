//! Input calls made on a blocking thread under a timeout, shared by the Linux backends whose
//! display-server connections block (X11's, Wayland's): a stuck server fails the call instead
//! of stalling the runtime.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::input::InputError;

fn server_error(e: impl std::fmt::Display) -> InputError {
    InputError::Display(e.to_string())
}

/// Runs `f` with the device's state on a blocking thread, bounded by `timeout`.
pub async fn call<S: Send + 'static, T: Send + 'static>(
    state: Arc<Mutex<S>>,
    timeout: Duration,
    f: impl FnOnce(&mut S) -> Result<T, InputError> + Send + 'static,
) -> Result<T, InputError> {
    let task = tokio::task::spawn_blocking(move || {
        let mut state = state
            .lock()
            .map_err(|_| server_error("input lock poisoned"))?;
        f(&mut state)
    });
    match tokio::time::timeout(timeout, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => Err(server_error(e)),
        Err(_) => Err(server_error(format!(
            "the display server did not answer within {timeout:?}"
        ))),
    }
}

/// What one typing job sends: its characters and how the device types them, counting in
/// `sent` the characters delivered and stopping before the next once `stop` is set.
pub type TypeAll<S, T> =
    Box<dyn FnOnce(&mut S, &[T], &AtomicBool, &AtomicUsize) -> Result<(), InputError> + Send>;

/// Types `items` on a blocking thread, stopping between two characters when `budget` is
/// spent. Returns only once no more input can be sent: a timed-out job is told to stop and
/// waited for (`grace`, one character at most), so nothing arrives after the answer, and the
/// answer says how much was sent.
pub async fn type_within<S: Send + 'static, T: Send + Sync + 'static>(
    state: Arc<Mutex<S>>,
    items: Vec<T>,
    budget: Duration,
    grace: Duration,
    type_all: TypeAll<S, T>,
) -> Result<(), InputError> {
    let total = items.len();
    let sent = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (job_sent, job_stop) = (sent.clone(), stop.clone());
    let mut task = tokio::task::spawn_blocking(move || {
        let mut state = state
            .lock()
            .map_err(|_| server_error("input lock poisoned"))?;
        type_all(&mut state, &items, &job_stop, &job_sent)
    });
    let incomplete = |why: String| InputError::Incomplete {
        sent: sent.load(Ordering::SeqCst),
        total,
        why,
    };
    let outcome = match tokio::time::timeout(budget, &mut task).await {
        Ok(joined) => joined.map_err(server_error).and_then(|r| r),
        Err(_) => {
            stop.store(true, Ordering::SeqCst);
            return Err(match tokio::time::timeout(grace, task).await {
                Ok(_) => incomplete(format!("not done within {budget:?}")),
                Err(_) => incomplete(format!(
                    "not done within {budget:?}, and the display server stopped answering: \
                     a key may still arrive"
                )),
            });
        }
    };
    match outcome {
        Ok(()) => Ok(()),
        Err(e) if sent.load(Ordering::SeqCst) > 0 => Err(incomplete(e.to_string())),
        Err(e) => Err(e),
    }
}
