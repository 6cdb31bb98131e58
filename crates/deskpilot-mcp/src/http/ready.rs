//! `/readyz`: whether this server should be sent work now, for a supervisor's readiness
//! probe (no token, as `/healthz`). Not ready while what it serves is still starting
//! (`deskpilot serve`'s apps), nor while every place for a call is taken (`--max-calls`),
//! which says when to come back (`Retry-After`).

use std::sync::{Arc, RwLock};

use crate::limit::CallLimit;

/// Whether the server is ready, and why not; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Readiness(Arc<RwLock<Option<String>>>);

impl Readiness {
    /// Ready from the start.
    pub fn ready() -> Self {
        Readiness::default()
    }

    /// Not ready until `set_ready`: `why` says what it waits for.
    pub fn starting(why: impl Into<String>) -> Self {
        Readiness(Arc::new(RwLock::new(Some(why.into()))))
    }

    pub fn set_ready(&self) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// What it waits for, while it is not ready.
    pub fn waiting_for(&self) -> Option<String> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// `/readyz`'s answer.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    Ready,
    /// Still starting: what it waits for.
    Starting(String),
    /// Every place for a call is taken: come back in a second.
    Full {
        max: usize,
    },
}

/// The answer now, for a server that is `readiness` with `limit`.
pub fn answer(readiness: &Readiness, limit: Option<&CallLimit>) -> Answer {
    if let Some(why) = readiness.waiting_for() {
        return Answer::Starting(why);
    }
    match limit {
        Some(limit) if limit.full() => Answer::Full { max: limit.max() },
        _ => Answer::Ready,
    }
}

impl Answer {
    /// Its JSON body.
    pub fn body(&self) -> serde_json::Value {
        match self {
            Answer::Ready => serde_json::json!({"ready": true}),
            Answer::Starting(why) => serde_json::json!({"ready": false, "starting": why}),
            Answer::Full { max } => serde_json::json!({
                "ready": false,
                "busy": format!("{max} tool calls in flight, the limit (--max-calls)"),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Starting, then ready; full while every place is taken, ready again after.
    #[test]
    fn ready_once_started_and_while_there_is_room() {
        let readiness = Readiness::starting("the apps");
        let limit = CallLimit::new(1);
        assert_eq!(
            answer(&readiness, Some(&limit)),
            Answer::Starting("the apps".into())
        );
        readiness.clone().set_ready();
        assert_eq!(answer(&readiness, Some(&limit)), Answer::Ready);
        let place = limit.enter().unwrap();
        assert_eq!(answer(&readiness, Some(&limit)), Answer::Full { max: 1 });
        drop(place);
        assert_eq!(answer(&readiness, None), Answer::Ready);
    }
}
