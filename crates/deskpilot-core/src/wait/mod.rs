//! `wait_for`: until an element matching a selector appears, disappears, or reaches a state or
//! value, with a deadline; each look a `find`, woken by the app's events or the fallback poll
//! (`looks`).

mod looks;
mod targeted;

pub use looks::{FALLBACK_POLL, Wake, Wakes, Woke};

use std::time::Duration;

use tokio::time::Instant;

use serde::Serialize;

use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::model::{NodeValue, State};
use crate::read::{FindResult, Match, Target};
use crate::selector::{Selector, TextMatch};

/// What `wait_for` waits for.
#[derive(Debug, Clone)]
pub enum Condition {
    /// At least one visible element matches (see `visibility`).
    Appears,
    /// At least one element matches, shown or not.
    Attached,
    /// No visible element matches (none at all, or all hidden).
    Disappears,
    /// A matching element has `state` known on (`on: true`) or known off (`on: false`).
    State { state: State, on: bool },
    /// A matching element's value (text or number) matches.
    Value(TextMatch),
    /// Exactly this many visible elements match, and nothing was left unsearched.
    Count(usize),
}

/// The words a face gives for a condition; at most one of them.
#[derive(Debug, Clone, Default)]
pub struct ConditionWords<'a> {
    /// appears, attached or disappears.
    pub until: Option<&'a str>,
    /// A state on (`checked`) or off (`!checked`).
    pub state: Option<&'a str>,
    /// An exact value.
    pub value: Option<String>,
    /// A part of the value, any case.
    pub value_contains: Option<String>,
    /// How many visible elements match.
    pub count: Option<usize>,
}

impl Condition {
    /// The condition the faces' words name: `until` (appears, attached, disappears), or a
    /// `state` (`checked`, `!checked`), a `value`, a part of one or a count; at most one.
    pub fn from_words(words: ConditionWords) -> Result<Condition> {
        let invalid = |message: String| {
            Error::new(
                Code::InvalidArguments,
                message,
                "give one of until (appears, attached, disappears), state, value, value_contains or count",
            )
        };
        let ConditionWords {
            until,
            state,
            value,
            value_contains,
            count,
        } = words;
        let others = usize::from(value_contains.is_some()) + usize::from(count.is_some());
        if others > 0 {
            if others > 1 || until.is_some() || state.is_some() || value.is_some() {
                return Err(invalid(
                    "give one of until, state, value, value_contains, count".into(),
                ));
            }
            return Ok(match (value_contains, count) {
                (Some(part), _) => Condition::Value(TextMatch::Contains(part)),
                (_, Some(n)) => Condition::Count(n),
                _ => unreachable!("one of them is given"),
            });
        }
        Ok(match (until, state, value) {
            (None | Some("appears"), None, None) => Condition::Appears,
            (Some("attached"), None, None) => Condition::Attached,
            (Some("disappears"), None, None) => Condition::Disappears,
            (None, Some(state), None) => {
                let (on, name) = match state.strip_prefix('!') {
                    Some(name) => (false, name),
                    None => (true, state),
                };
                let state = State::from_name(name)
                    .ok_or_else(|| invalid(format!("unknown state {name:?}")))?;
                Condition::State { state, on }
            }
            (None, None, Some(value)) => Condition::Value(TextMatch::Exact(value)),
            (Some(other), None, None) => {
                return Err(invalid(format!(
                    "until {other:?}: use appears, attached or disappears"
                )));
            }
            _ => return Err(invalid("give one of until, state, value".into())),
        })
    }
}

/// What a finished wait saw.
#[derive(Debug, Clone, Serialize)]
pub struct WaitOutcome {
    /// The element that met the condition (none for `Disappears`).
    pub element: Option<Match>,
    pub elapsed_ms: u64,
    /// What woke each look after the first: the app's events or the fallback poll.
    pub wakes: Wakes,
}

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
        let targeted = within.is_none() && targeted::applies(selector, condition);
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
                    let quick = self.engine.targeted_meanwhile(
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
                && let Some(element) = self.engine.read_as_acted_on(element, condition).await
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
                    Some(named) => self.engine.targeted_look(session, selector, named).await?,
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

impl Engine {
    /// The element that met a state or value condition, read afresh as an action reads it
    /// (a walk's states may be a kept tree's); `None` when the fresh read no longer meets it.
    async fn read_as_acted_on(
        &self,
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
        let fresh = self
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
}

/// Which matches a look holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// Every match (a full look).
    Full,
    /// Only the elements events named: a visible match elsewhere is not known.
    Named,
}

/// `Some(element)` when the condition holds (`Some(None)` for a disappearance). A state or a
/// value is judged on the element an action would resolve: a visible match when there is one
/// (a hidden one only when none is visible, and never in a look on what events named).
fn met(found: &FindResult, condition: &Condition, look: Look) -> Option<Option<Match>> {
    let meant = |m: &&Match| m.visible || (look == Look::Full && found.visible == 0);
    match condition {
        // Visible matches come first.
        Condition::Appears => found
            .matches
            .first()
            .filter(|m| m.visible)
            .cloned()
            .map(Some),
        Condition::Attached => found.matches.first().cloned().map(Some),
        // Gone only when nothing visible matched and nothing was left unsearched.
        Condition::Disappears => {
            (found.visible == 0 && found.unsearched.is_empty()).then_some(None)
        }
        // Counted on a full look only: what events named is not all there is.
        Condition::Count(n) => {
            (look == Look::Full && found.visible == *n && found.unsearched.is_empty())
                .then(|| found.matches.iter().find(|m| m.visible).cloned())
        }
        Condition::State { state, on } => found
            .matches
            .iter()
            .filter(meant)
            .find(|m| crate::model::control::reads(&m.node, *state) == Some(*on))
            .cloned()
            .map(Some),
        Condition::Value(_) => found
            .matches
            .iter()
            .filter(meant)
            .find(|m| holds(condition, &m.node))
            .cloned()
            .map(Some),
    }
}

/// Whether a state or value condition holds on `node` (true for the other conditions).
fn holds(condition: &Condition, node: &crate::model::Node) -> bool {
    match condition {
        Condition::State { state, on } => crate::model::control::reads(node, *state) == Some(*on),
        Condition::Value(want) => match &node.value {
            Some(NodeValue::Text { text }) => want.matches(text),
            Some(NodeValue::Number { current, .. }) => want.matches(&current.to_string()),
            // A secret's value is never compared.
            Some(NodeValue::Redacted { .. }) | None => false,
        },
        _ => true,
    }
}

/// Why a count could not hold: containers left unsearched.
fn uncounted(found: &FindResult, condition: &Condition) -> String {
    match (condition, found.unsearched.len()) {
        (Condition::Count(_), n) if n > 0 => {
            format!(
                "; {n} container(s) not searched, so no count is certain: wait within one element"
            )
        }
        _ => String::new(),
    }
}

/// The matches of a look in one line, at most three shown with their states and values (what
/// a wait or an actionability wait last saw).
pub fn last_seen(found: &FindResult) -> String {
    if found.total == 0 {
        return "no element matched".into();
    }
    let shown: Vec<String> = found
        .matches
        .iter()
        .take(3)
        .map(|m| {
            let states: Vec<&str> = m.node.states.iter_on().map(|s| s.name()).collect();
            let value = match &m.node.value {
                Some(crate::model::NodeValue::Text { text }) => {
                    format!(": {}", crate::escape::quoted(text, 100))
                }
                Some(crate::model::NodeValue::Number { current, .. }) => format!(": {current}"),
                _ => String::new(),
            };
            format!(
                "{} {}{value} [{}] [ref={}]",
                m.role,
                crate::escape::quoted(&m.name, 100),
                states.join(", "),
                m.reference
            )
        })
        .collect();
    format!("{} match(es): {}", found.total, shown.join("; "))
}
