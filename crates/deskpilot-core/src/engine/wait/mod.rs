//! `wait_for`: until an element matching a selector appears, disappears, or reaches a state or
//! value, with a deadline; each look a `find`, woken by the app's events or the fallback poll
//! (`looks`).

pub(crate) mod looks;
pub(crate) mod targeted;

use crate::engine::Engine;
use crate::engine::wait::targeted::targeted_look;
use crate::engine::wait::targeted::targeted_meanwhile;
use crate::error::{Code, Error, Result};
use crate::model::NodeValue;
use crate::read::{Match, Target};
use crate::selector::Selector;
use crate::wait::*;
use std::time::Duration;
use tokio::time::Instant;

impl Engine {}

impl crate::engine::Session<'_> {
    /// Waits until `condition` holds for `selector` (within `within`), or fails with `timeout`
    /// saying what was last seen. Dropping the future (a cancelled request) stops the work.
    pub async fn wait_for(
        &self,
        selector: &Selector,
        within: Option<&Target>,
        condition: &Condition,
        timeout: Duration,
    ) -> Result<WaitOutcome> {
        let session = self.id();
        let started = Instant::now();
        let deadline = started + timeout;
        let info = self.engine.session_info(session)?;
        let mut wake = self.engine.wake_on(&info.root, FALLBACK_POLL).await;
        let targeted = within.is_none() && crate::wait::targeted::applies(selector, condition);
        let done = |element, wake: &Wake| WaitOutcome {
            element,
            elapsed_ms: started.elapsed().as_millis() as u64,
            wakes: wake.wakes(),
        };
        // The mark of a look on events that did not settle the wait: the full look after it
        // says whether a flood came since.
        let mut flood_since: Option<u64> = None;
        loop {
            // The events after this mark are what the next wake is about.
            let mark = wake.mark();
            let left = timeout.saturating_sub(started.elapsed()).max(FALLBACK_POLL);
            let full = self.find_within_time(selector, within, 20, left);
            // A full look takes long on a big app (~180 ms on Qt 5): a change made while it
            // runs is looked for in what the events name meanwhile, and whichever confirms
            // first answers.
            let found = match mark.filter(|_| targeted) {
                Some(mark) => {
                    let quick = targeted_meanwhile(
                        self.engine,
                        session,
                        &info.app.id,
                        selector,
                        condition,
                        mark,
                    );
                    tokio::select! {
                        found = full => found,
                        element = quick => {
                            wake.targeted();
                            crate::engine::read::find::finish_apart(self.engine, session, left);
                            return Ok(done(element?, &wake));
                        }
                    }
                }
                None => full.await,
            };
            // An app busy past a call's timeout is looked at again until the deadline (its
            // calls fail at once meanwhile); a frozen one fails the wait at its end.
            let found = match found {
                Err(e) if e.code == Code::AppNotResponding && Instant::now() < deadline => {
                    wake.next(deadline).await;
                    continue;
                }
                found => found?,
            };
            if let Some(since) = flood_since.take()
                && self
                    .engine
                    .backend()
                    .events()
                    .named_since(&info.app.id, since)
                    .await
                    .is_none()
            {
                wake.flooded();
            }
            if let Some(element) = met(&found, condition, Look::Full)
                && let Some(element) = read_as_acted_on(self.engine, element, condition).await
            {
                return Ok(done(element, &wake));
            }
            if Instant::now() >= deadline {
                return Err(Error::new(
                    Code::Timeout,
                    format!(
                        "waited {} ms ({} looks) and the condition never held; last seen: {}{}",
                        started.elapsed().as_millis(),
                        wake.wakes().looks(),
                        last_seen(&found),
                        uncounted(&found, condition)
                    ),
                    "check the selector and condition against a fresh `snapshot`, or wait longer",
                ));
            }
            // Woken by events: first the elements they named, read afresh; a full look
            // follows when that does not settle it.
            let woke = wake.next(deadline).await;
            if woke == Woke::Event
                && targeted
                && let Some(mark) = mark
            {
                let named = self
                    .engine
                    .backend()
                    .events()
                    .named_since(&info.app.id, mark)
                    .await;
                let found = match &named {
                    Some(named) => targeted_look(self.engine, session, selector, named).await?,
                    None => None,
                };
                if let Some(element) = found.as_ref().and_then(|f| met(f, condition, Look::Named)) {
                    wake.targeted();
                    return Ok(done(element, &wake));
                }
                // The next look reads it all. A flood says so: more elements named than are
                // read one by one, or more events than are remembered by the time that look
                // is done (the first event of a flood wakes the wait).
                match found {
                    None => wake.flooded(),
                    Some(_) => flood_since = Some(mark),
                }
            }
        }
    }
}

/// The element that met a state or value condition, read afresh as an action reads it
/// (a walk's states may be a kept tree's); `None` when the fresh read no longer meets it.
async fn read_as_acted_on(
    engine: &Engine,
    element: Option<Match>,
    condition: &Condition,
) -> Option<Option<Match>> {
    let Some(mut m) = element else {
        return Some(None);
    };
    if !matches!(condition, Condition::State { .. } | Condition::Value(_)) {
        return Some(Some(m));
    }
    let secret = matches!(m.node.value, Some(NodeValue::Redacted { .. }));
    let fresh = engine
        .backend()
        .node(&m.node.id, crate::platform::Secrecy::of(secret))
        .await
        .ok()?;
    if !holds(condition, &fresh) {
        return None;
    }
    m.node.states = fresh.states;
    m.node.value = fresh.value;
    Some(Some(m))
}
