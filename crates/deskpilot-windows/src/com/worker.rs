//! A thread in COM's multithreaded apartment that owns one UI Automation client and runs the
//! jobs sent to it, one at a time. An app's calls go to its own worker: a frozen app blocks
//! only its queue (UIA's transaction timeout frees it later), never another app's.

use std::sync::mpsc;

use super::uia::{Timeouts, Uia};
use crate::raw::UiaError;

type Job = Box<dyn FnOnce(&mut Result<Uia, UiaError>) + Send>;

/// The sending half of a worker's queue.
pub struct Worker {
    jobs: mpsc::Sender<Job>,
}

impl Worker {
    /// Starts a worker thread; its client is created there (a failure answers every job).
    pub fn spawn(name: String, timeouts: Timeouts) -> Result<Worker, UiaError> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name(name)
            .spawn(move || {
                let mut uia = Uia::start(timeouts);
                while let Ok(job) = queue.recv() {
                    job(&mut uia);
                }
            })
            .map_err(|e| UiaError::Com {
                hresult: crate::error::hresult::E_OUTOFMEMORY,
                message: format!("no worker thread: {e}"),
            })?;
        Ok(Worker { jobs })
    }

    /// Runs `job` on the worker and answers its result. A caller that stopped waiting (its
    /// deadline passed) leaves its job undone when the worker reaches it.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut Uia) -> Result<T, UiaError> + Send + 'static,
    ) -> Result<T, UiaError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |uia| {
            if answer.is_closed() {
                return;
            }
            // A panicking call fails alone: the worker lives on for the app's next calls (a
            // dead worker would answer "gone" for a live app).
            let result = match uia {
                Ok(uia) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(uia)))
                    .unwrap_or_else(|_| {
                        Err(UiaError::Com {
                            hresult: crate::error::hresult::E_FAIL,
                            message: "deskpilot's call panicked on the worker".into(),
                        })
                    }),
                Err(e) => Err(e.clone()),
            };
            let _ = answer.send(result);
        });
        let gone = || UiaError::Com {
            hresult: crate::error::hresult::RPC_E_DISCONNECTED,
            message: "the UI Automation worker ended".into(),
        };
        self.jobs.send(job).map_err(|_| gone())?;
        answered.await.map_err(|_| gone())?
    }
}
