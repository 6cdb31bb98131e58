//! A thread that owns one client (on Windows a UI Automation client in COM's multithreaded
//! apartment, `com/`) and runs the jobs sent to it, one at a time. An app's calls go to its
//! own worker: a frozen app blocks only its queue (UIA's transaction timeout frees it later),
//! never another app's. Plain Rust: its rules are tested here with a client of plain state.

use std::sync::mpsc;

use crate::raw::UiaError;

type Job<T> = Box<dyn FnOnce(&mut T) + Send>;

/// The sending half of a worker's queue.
pub struct Worker<T> {
    jobs: mpsc::Sender<Job<T>>,
}

impl<T: 'static> Worker<T> {
    /// Starts a worker thread once `start` has made its client there; a client that failed
    /// to start is no worker (review D5: one kept answered every call with its failure).
    pub fn spawn(
        name: String,
        start: impl FnOnce() -> Result<T, UiaError> + Send + 'static,
    ) -> Result<Worker<T>, UiaError> {
        let (jobs, queue) = mpsc::channel::<Job<T>>();
        let (ready, started) = mpsc::channel::<Result<(), UiaError>>();
        std::thread::Builder::new()
            .name(name)
            .spawn(move || {
                let mut client = match start() {
                    Ok(client) => client,
                    Err(e) => {
                        let _ = ready.send(Err(e));
                        return;
                    }
                };
                let _ = ready.send(Ok(()));
                while let Ok(job) = queue.recv() {
                    job(&mut client);
                }
            })
            .map_err(|e| UiaError::Com {
                hresult: crate::error::hresult::E_OUTOFMEMORY,
                message: format!("no worker thread: {e}"),
            })?;
        started.recv().unwrap_or_else(|_| Err(ended()))?;
        Ok(Worker { jobs })
    }

    /// Runs `job` on the worker and answers its result. A caller that stopped waiting (its
    /// deadline passed) leaves its job undone when the worker reaches it.
    pub async fn run<R: Send + 'static>(
        &self,
        job: impl FnOnce(&mut T) -> Result<R, UiaError> + Send + 'static,
    ) -> Result<R, UiaError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job<T> = Box::new(move |client| {
            if answer.is_closed() {
                return;
            }
            // A panicking call fails alone: the worker lives on for the app's next calls (a
            // dead worker would answer "gone" for a live app).
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(client)))
                .unwrap_or_else(|_| {
                    Err(UiaError::Com {
                        hresult: crate::error::hresult::E_FAIL,
                        message: "deskpilot's call panicked on the worker".into(),
                    })
                });
            let _ = answer.send(result);
        });
        self.jobs.send(job).map_err(|_| ended())?;
        answered.await.map_err(|_| ended())?
    }
}

/// What a call to a worker that ended answers.
fn ended() -> UiaError {
    UiaError::Com {
        hresult: crate::error::hresult::RPC_E_DISCONNECTED,
        message: "the UI Automation worker ended".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::Worker;
    use crate::raw::UiaError;

    /// A call that panics fails alone: the worker answers the app's next call (review D5: a
    /// dead worker answered "gone" for a live app ever after).
    #[tokio::test]
    async fn a_panicking_call_fails_alone() {
        let worker = Worker::spawn("test".into(), || Ok(0u32)).unwrap();
        let failed = worker.run(|_: &mut u32| -> Result<(), UiaError> { panic!("a bug") });
        let failed = failed.await.unwrap_err();
        assert!(failed.to_string().contains("panicked"), "{failed}");
        let next = worker.run(|n: &mut u32| Ok(*n + 1)).await;
        assert_eq!(next, Ok(1));
    }

    /// Jobs run one at a time, in the order sent; a client that fails to start is no
    /// worker (a later call starts another).
    #[tokio::test]
    async fn jobs_run_in_order_and_a_failed_start_is_no_worker() {
        let worker = Worker::spawn("test".into(), || Ok(Vec::new())).unwrap();
        let calls = (0..5).map(|i| {
            worker.run(move |seen: &mut Vec<u32>| {
                seen.push(i);
                Ok(seen.clone())
            })
        });
        let answers = futures_util::future::join_all(calls).await;
        assert_eq!(answers[4], Ok(vec![0, 1, 2, 3, 4]));
        let broken = Worker::<u32>::spawn("test".into(), || Err(UiaError::Unknown));
        assert_eq!(broken.err(), Some(UiaError::Unknown));
    }
}
