//! `--max-calls`: at most N tool calls in flight across all of a server's clients. One more
//! is refused at once with a retryable `busy`, never queued: a client (or a fleet's balancer)
//! tries again or goes to another desktop. A pipeline's steps run inside the call that
//! started them and take no place of their own.

use std::sync::Arc;

use deskpilot_core::{Code, Error};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The places for calls in flight.
#[derive(Debug)]
pub struct CallLimit {
    max: usize,
    places: Arc<Semaphore>,
}

/// A call's place, given back when dropped.
pub type Place = OwnedSemaphorePermit;

impl CallLimit {
    /// `max` places (at least one).
    pub fn new(max: usize) -> Arc<CallLimit> {
        let max = max.max(1);
        Arc::new(CallLimit {
            max,
            places: Arc::new(Semaphore::new(max)),
        })
    }

    pub fn max(&self) -> usize {
        self.max
    }

    /// A place for one call, or `busy` when every place is taken.
    pub fn enter(&self) -> Result<Place, Error> {
        self.places.clone().try_acquire_owned().map_err(|_| {
            Error::new(
                Code::Busy,
                format!(
                    "the server is at its limit of {} tool calls in flight",
                    self.max
                ),
                "retry in a moment (its /readyz says when it has room), or use another desktop",
            )
        })
    }

    /// Whether every place is taken.
    pub fn full(&self) -> bool {
        self.places.available_permits() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The place past the limit is refused at once, retryable; a place given back is free.
    #[test]
    fn one_call_past_the_limit_is_busy() {
        let limit = CallLimit::new(2);
        let first = limit.enter().unwrap();
        let _second = limit.enter().unwrap();
        assert!(limit.full());
        let refused = limit.enter().unwrap_err();
        assert_eq!(refused.code, Code::Busy);
        assert!(refused.retryable());
        drop(first);
        assert!(!limit.full());
        assert!(limit.enter().is_ok());
    }
}
