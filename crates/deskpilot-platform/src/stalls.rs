//! The one-timeout stall policy every backend shares: an app that let a call time out costs
//! that one timeout, not one per call. Once a call to an app times out, later calls to it fail
//! at once until it answers a probe again, which runs in the background, one at a time. An app
//! known busy with one slow answer (it answered just before that call) is waited for instead,
//! up to a patience the backend gives. Each backend keys apps its own way (a bus name, a pid)
//! and probes them its own way (a ping, an element read). Where the platform runs an app's
//! calls one at a time (UI Automation's worker per app), a call's timeout counts from when it
//! starts running, never from when it was queued (`in_turn`).

use std::borrow::Borrow;
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

/// Why an app let a call time out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stall {
    /// Nothing says why: it may be frozen. Calls fail at once.
    Unknown,
    /// It is busy with one slow answer: calls wait for it until `until`.
    Busy { until: Instant },
}

/// What a probe learned of a stalled app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probed {
    /// It answered, or it is gone (the next call learns which): calls go through again.
    Answered,
    /// It did not answer within the probe's time: it is asked again.
    Silent,
}

/// How a call run in its app's turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ran<T> {
    Answered(T),
    /// The app stalled before the call's turn came: it was not run.
    Stalled,
    /// It ran its whole timeout: the app is stalled now.
    TimedOut,
}

/// One app's turn: its calls run one at a time.
type Turn = Arc<tokio::sync::Mutex<()>>;

/// The apps, keyed by `K`, that let a call time out and have not answered since.
#[derive(Debug)]
pub struct Stalls<K> {
    /// How long a call, and a probe, may take.
    timeout: Duration,
    stalled: Arc<Mutex<HashMap<K, Stall>>>,
    /// How many apps are stalled: every call asks, and most often none is.
    count: Arc<AtomicUsize>,
    /// Timeouts waited out: calls that timed out together count once, probes not at all.
    timeouts: Arc<AtomicU64>,
    /// Bumped each time a stalled app answers again.
    answered: Arc<tokio::sync::watch::Sender<u64>>,
    /// Each app's turn, for calls run `in_turn`.
    turns: Arc<Mutex<HashMap<K, Turn>>>,
}

impl<K> Clone for Stalls<K> {
    fn clone(&self) -> Self {
        Stalls {
            timeout: self.timeout,
            stalled: self.stalled.clone(),
            count: self.count.clone(),
            timeouts: self.timeouts.clone(),
            answered: self.answered.clone(),
            turns: self.turns.clone(),
        }
    }
}

impl<K: Eq + Hash + Clone + Send + Sync + 'static> Stalls<K> {
    /// Stalls for calls that may take `timeout` each.
    pub fn new(timeout: Duration) -> Self {
        Stalls {
            timeout,
            stalled: Arc::default(),
            count: Arc::default(),
            timeouts: Arc::default(),
            answered: Arc::new(tokio::sync::watch::Sender::new(0)),
            turns: Arc::default(),
        }
    }

    /// The per-call timeout.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Calls that timed out so far.
    pub fn timeouts(&self) -> u64 {
        self.timeouts.load(Ordering::Relaxed)
    }

    /// A call waited out its whole timeout, saying nothing of whether the app is frozen (a
    /// handler's call, which may wait on a modal loop the app still answers from).
    pub fn count_timeout(&self) {
        self.timeouts.fetch_add(1, Ordering::Relaxed);
    }

    /// True while `app` has not answered since a call to it timed out.
    pub fn stalled<Q: Hash + Eq + ?Sized>(&self, app: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.count.load(Ordering::Acquire) > 0 && self.lock().contains_key(app)
    }

    /// A call to `app` waited out its whole timeout: later calls fail at once while `probe`
    /// asks it, one probe at a time, each within the timeout, until it answers. Calls that
    /// timed out together count as one timeout: they cost its wall time once.
    pub fn timed_out<Q, P, F>(&self, app: &Q, probe: P)
    where
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
        K: Borrow<Q>,
        P: Fn() -> F + Send + 'static,
        F: Future<Output = Probed> + Send,
    {
        {
            let mut stalled = self.lock();
            if stalled.contains_key(app) {
                return; // counted, and a probe runs
            }
            stalled.insert(app.to_owned(), Stall::Unknown);
            self.count.fetch_add(1, Ordering::AcqRel);
        }
        self.count_timeout();
        let stalls = self.clone();
        let app = app.to_owned();
        tokio::spawn(async move {
            while tokio::time::timeout(stalls.timeout, probe()).await != Ok(Probed::Answered) {}
            stalls.answered_again(&app);
        });
    }

    /// Runs `call` on `app` when the app's earlier calls are done, within the timeout counted
    /// from then: the platform answers an app's calls one at a time, so one counted from
    /// when the call was queued would time out behind slow ones that are answering. A call
    /// whose app stalled while it waited is not run; one that times out stalls the app, as
    /// `timed_out` says, before the next call's turn.
    pub async fn in_turn<Q, T, P, F>(
        &self,
        app: &Q,
        call: impl Future<Output = T>,
        probe: P,
    ) -> Ran<T>
    where
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
        K: Borrow<Q>,
        P: Fn() -> F + Send + 'static,
        F: Future<Output = Probed> + Send,
    {
        let turn = self.turn(app);
        let _running = turn.lock().await;
        if self.stalled(app) {
            return Ran::Stalled;
        }
        match tokio::time::timeout(self.timeout, call).await {
            Ok(answer) => Ran::Answered(answer),
            Err(_) => {
                self.timed_out(app, probe);
                Ran::TimedOut
            }
        }
    }

    fn turn<Q>(&self, app: &Q) -> Turn
    where
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
        K: Borrow<Q>,
    {
        let mut turns = self.turns.lock().expect("turns");
        if let Some(turn) = turns.get(app) {
            return turn.clone();
        }
        let turn = Turn::default();
        turns.insert(app.to_owned(), turn.clone());
        turn
    }

    /// `app`, stalled, is busy with one slow answer, not frozen: calls wait for it, up to
    /// `patience` from now.
    pub fn busy<Q: Hash + Eq + ?Sized>(&self, app: &Q, patience: Duration)
    where
        K: Borrow<Q>,
    {
        if let Some(stall) = self.lock().get_mut(app) {
            *stall = Stall::Busy {
                until: Instant::now() + patience,
            };
        }
    }

    /// Whether `app` answers (again): at once when it is not stalled; while it is busy with
    /// one slow answer, once it answers within its patience; a frozen one is not waited for.
    pub async fn waited_for<Q: Hash + Eq + ?Sized>(&self, app: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        let stall = self.lock().get(app).copied();
        match stall {
            None => true,
            Some(Stall::Unknown) => false,
            Some(Stall::Busy { until }) => self.answered_by(app, until).await,
        }
    }

    /// Waits until `app` answers again after a timeout (true), or `deadline` (false).
    pub async fn answered_by<Q: Hash + Eq + ?Sized>(&self, app: &Q, deadline: Instant) -> bool
    where
        K: Borrow<Q>,
    {
        let mut answered = self.answered.subscribe();
        while self.stalled(app) {
            match tokio::time::timeout_at(deadline, answered.changed()).await {
                Ok(Ok(())) => {}
                _ => return !self.stalled(app),
            }
        }
        true
    }

    fn answered_again(&self, app: &K) {
        if self.lock().remove(app).is_some() {
            self.count.fetch_sub(1, Ordering::AcqRel);
        }
        self.answered.send_modify(|n| *n += 1);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, Stall>> {
        self.stalled.lock().expect("stalls")
    }
}

#[cfg(test)]
#[path = "stalls_tests.rs"]
mod tests;
