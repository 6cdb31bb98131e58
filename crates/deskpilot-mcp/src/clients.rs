//! Which client a request comes from, and what it owns: the deskpilot sessions it opened and
//! its pipeline runs. Over stdio the server has one client, which owns every session. Over
//! HTTP a client is an MCP session (2025-11-25) or a token (2026-07-28, stateless); a session
//! id minted for one is `unknown_session` to every other, and a client's sessions are closed
//! when it ends or idles out.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use deskpilot_core::{Engine, Error};

use crate::runs::Runs;

/// Which configured token a request carried (its place in the list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenIndex(pub usize);

/// Who a request comes from: the configured token it carried, or the subject of an OAuth
/// access token (any of that subject's tokens).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Caller {
    Token(TokenIndex),
    Subject(Arc<str>),
}

/// One client: its sessions (all of them, for the sole client) and its kept runs.
pub struct Client {
    engine: Arc<Engine>,
    /// `None`: the server's only client, which owns every session.
    owned: Option<Mutex<HashSet<String>>>,
    runs: Runs,
    last_used: Mutex<Instant>,
    /// Requests being served (a long tool call, a `subscriptions/listen` stream): a busy
    /// client is never idle.
    busy: std::sync::atomic::AtomicUsize,
}

/// Marks its client busy while it lives.
pub struct Busy(Arc<Client>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.touch();
        self.0
            .busy
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Client {
    /// The only client of a server (stdio, in process).
    pub fn sole(engine: Arc<Engine>) -> Arc<Self> {
        Self::new(engine, None)
    }

    /// One of several clients: it owns the sessions it opens, no other.
    pub fn one_of_many(engine: Arc<Engine>) -> Arc<Self> {
        Self::new(engine, Some(Mutex::default()))
    }

    fn new(engine: Arc<Engine>, owned: Option<Mutex<HashSet<String>>>) -> Arc<Self> {
        Arc::new(Client {
            engine,
            owned,
            runs: Runs::default(),
            last_used: Mutex::new(Instant::now()),
            busy: Default::default(),
        })
    }

    /// `unknown_session` unless this client opened `session` (the sole client opened all).
    pub fn check(&self, session: &str) -> Result<(), Error> {
        self.touch();
        match &self.owned {
            Some(owned) if !lock(owned).contains(session) => {
                Err(deskpilot_core::session::unknown_session(session))
            }
            _ => Ok(()),
        }
    }

    /// Whether `session` is this client's.
    pub fn owns(&self, session: &str) -> bool {
        self.check(session).is_ok()
    }

    /// Records that this client opened `session`.
    pub fn adopt(&self, session: &str) {
        if let Some(owned) = &self.owned {
            lock(owned).insert(session.to_owned());
        }
    }

    /// Forgets `session` (closed by the client).
    pub fn release(&self, session: &str) {
        if let Some(owned) = &self.owned {
            lock(owned).remove(session);
        }
    }

    pub fn runs(&self) -> &Runs {
        &self.runs
    }

    fn touch(&self) {
        *lock(&self.last_used) = Instant::now();
    }

    /// Whether the client has sent nothing for `limit` and is serving nothing.
    fn idle(&self, limit: Duration) -> bool {
        self.busy.load(std::sync::atomic::Ordering::SeqCst) == 0
            && lock(&self.last_used).elapsed() >= limit
    }

    /// Marks the client busy until the guard is dropped.
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.busy.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Busy(self.clone())
    }
}

impl Drop for Client {
    /// A client's end closes its sessions: their refs are freed.
    fn drop(&mut self) {
        if let Some(owned) = &self.owned {
            for session in lock(owned).drain() {
                if let Ok(handle) = self.engine.session(&session) {
                    let _ = handle.disconnect();
                }
            }
        }
    }
}

/// The stateless era's clients, one per caller, each ended after `idle` without a request.
pub struct TokenClients {
    engine: Arc<Engine>,
    idle: Duration,
    clients: Mutex<HashMap<Option<Caller>, Arc<Client>>>,
}

impl TokenClients {
    pub fn new(engine: Arc<Engine>, idle: Duration) -> Arc<Self> {
        Arc::new(TokenClients {
            engine,
            idle,
            clients: Mutex::default(),
        })
    }

    /// The client of `caller` (`None`: a server that asks for no token has one such client).
    pub fn of(&self, caller: Option<Caller>) -> Arc<Client> {
        let client = lock(&self.clients)
            .entry(caller)
            .or_insert_with(|| Client::one_of_many(self.engine.clone()))
            .clone();
        client.touch();
        client
    }

    /// Ends the clients idle for longer than allowed.
    pub fn sweep(&self) {
        let idle = self.idle;
        lock(&self.clients).retain(|_, client| !client.idle(idle));
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_client_is_never_idle() {
        let engine = Arc::new(Engine::new(Arc::new(deskpilot_fake::FakeBackend::new())));
        let clients = TokenClients::new(engine, Duration::ZERO);
        let alice = clients.of(Some(Caller::Token(TokenIndex(0))));
        let listening = alice.busy();
        clients.sweep();
        assert!(Arc::ptr_eq(
            &alice,
            &clients.of(Some(Caller::Token(TokenIndex(0))))
        ));
        drop(listening);
        clients.sweep();
        assert!(!Arc::ptr_eq(
            &alice,
            &clients.of(Some(Caller::Token(TokenIndex(0))))
        ));
    }
}
