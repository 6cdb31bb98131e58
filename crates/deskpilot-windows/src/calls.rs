//! Every call to UI Automation under the backend's deadline. An app whose call timed out is
//! stalled under the shared policy (`deskpilot_platform::stalls`): its later calls fail at
//! once (one timeout is a frozen app's whole cost) until a probe finds it answering again;
//! other apps' calls go on.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use deskpilot_platform::stalls::{Probed, Stalls};

use crate::raw::{RuntimeKey, UiaError};
use crate::source::UiaSource;

/// The source, its deadline, and the apps that let a call time out.
pub struct Calls<S> {
    source: Arc<S>,
    stalls: Stalls<u32>,
}

impl<S: UiaSource> Calls<S> {
    pub fn new(source: Arc<S>, timeout: Duration) -> Self {
        Calls {
            source,
            stalls: Stalls::new(timeout),
        }
    }

    pub fn source(&self) -> &S {
        &self.source
    }

    pub fn timeout(&self) -> Duration {
        self.stalls.timeout()
    }

    /// True while `pid` has not answered since a call to it timed out.
    pub fn stalled(&self, pid: u32) -> bool {
        self.stalls.stalled(&pid)
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
        match tokio::time::timeout(self.timeout(), call).await {
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
        tokio::time::timeout(self.timeout(), call)
            .await
            .unwrap_or(Err(UiaError::Timeout))
    }

    fn stall(&self, pid: u32, key: Option<RuntimeKey>) {
        let source = self.source.clone();
        self.stalls.timed_out(&pid, move || {
            let (source, key) = (source.clone(), key.clone());
            async move {
                let answer = match &key {
                    Some(key) => source.element(pid, key).await.map(|_| ()),
                    None => source.process(pid).await.map(|_| ()),
                };
                match answer {
                    // Still frozen: asked again, one probe in flight.
                    Err(UiaError::Timeout) => Probed::Silent,
                    // It answered, or the element is gone (the next call learns which).
                    _ => Probed::Answered,
                }
            }
        });
    }
}
