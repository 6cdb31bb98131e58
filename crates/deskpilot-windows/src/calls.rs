//! Every call to UI Automation under the backend's deadline. An app's calls run one at a time
//! (its worker, `worker.rs`), so each call's deadline counts from its turn, not from when
//! it was queued behind slow ones. An app whose call timed out is stalled under the shared
//! policy (`deskpilot_platform::stalls`): its later calls fail at once (one timeout is a
//! frozen app's whole cost) until a probe finds it answering again; other apps' calls go on.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use deskpilot_platform::stalls::{Probed, Ran, Stalls};

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

    /// `call`, to process `pid` about element `key`, in the app's turn and within the
    /// deadline from then. On a timeout the app is stalled and a probe asks `key` again
    /// until it answers.
    pub async fn on<T>(
        &self,
        pid: u32,
        key: Option<&RuntimeKey>,
        call: impl Future<Output = Result<T, UiaError>>,
    ) -> Result<T, UiaError> {
        if self.stalled(pid) {
            return Err(UiaError::Timeout);
        }
        let probe = self.probe(pid, key.cloned());
        match self.stalls.in_turn(&pid, call, probe).await {
            Ran::Answered(answer) => answer,
            Ran::Stalled | Ran::TimedOut => Err(UiaError::Timeout),
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

    /// What asks a stalled `pid` whether it answers again: `key` read anew, else its process.
    fn probe(
        &self,
        pid: u32,
        key: Option<RuntimeKey>,
    ) -> impl Fn() -> Pin<Box<dyn Future<Output = Probed> + Send>> + Send + 'static {
        let source = self.source.clone();
        move || {
            let (source, key) = (source.clone(), key.clone());
            Box::pin(async move {
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
            })
        }
    }
}
