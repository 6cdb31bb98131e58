//! Every call to UI Automation under the backend's deadline. An app whose call timed out is
//! stalled: its later calls fail at once (one timeout is a frozen app's whole cost) until a
//! probe finds it answering again; other apps' calls go on.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::raw::{RuntimeKey, UiaError};
use crate::source::UiaSource;

/// The source, its deadline, and the apps that let a call time out.
pub struct Calls<S> {
    source: Arc<S>,
    timeout: Duration,
    stalled: Arc<Mutex<HashSet<u32>>>,
}

impl<S: UiaSource> Calls<S> {
    pub fn new(source: Arc<S>, timeout: Duration) -> Self {
        Calls {
            source,
            timeout,
            stalled: Arc::default(),
        }
    }

    pub fn source(&self) -> &S {
        &self.source
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// True while `pid` has not answered since a call to it timed out.
    pub fn stalled(&self, pid: u32) -> bool {
        self.stalled.lock().expect("stalls").contains(&pid)
    }

    /// `call`, to process `pid` about element `key`, within the deadline. On a timeout the
    /// app is stalled and a probe asks `key` again until it answers.
    pub async fn on<T>(
        &self,
        pid: u32,
        key: Option<&RuntimeKey>,
        call: impl Future<Output = Result<T, UiaError>>,
    ) -> Result<T, UiaError> {
        if self.stalled(pid) {
            return Err(UiaError::Timeout);
        }
        match tokio::time::timeout(self.timeout, call).await {
            Ok(answer) => answer,
            Err(_) => {
                self.stall(pid, key.cloned());
                Err(UiaError::Timeout)
            }
        }
    }

    /// A call that reaches no app (the desktop's list, the system's process table), within
    /// the deadline too.
    pub async fn system<T>(
        &self,
        call: impl Future<Output = Result<T, UiaError>>,
    ) -> Result<T, UiaError> {
        tokio::time::timeout(self.timeout, call)
            .await
            .unwrap_or(Err(UiaError::Timeout))
    }

    fn stall(&self, pid: u32, key: Option<RuntimeKey>) {
        if !self.stalled.lock().expect("stalls").insert(pid) {
            return;
        }
        let (source, stalled, timeout) = (self.source.clone(), self.stalled.clone(), self.timeout);
        tokio::spawn(async move {
            loop {
                let ping = async {
                    match &key {
                        Some(key) => source.element(pid, key).await.map(|_| ()),
                        None => source.process(pid).await.map(|_| ()),
                    }
                };
                match tokio::time::timeout(timeout, ping).await {
                    // Still frozen: ask again, one probe in flight.
                    Err(_) | Ok(Err(UiaError::Timeout)) => continue,
                    // It answered, or the element is gone (the next call learns which).
                    Ok(_) => break,
                }
            }
            stalled.lock().expect("stalls").remove(&pid);
        });
    }
}
