//! `wait_for`: until an element matching a selector appears, disappears, or reaches a state or
//! value, with a deadline; each look a `find`, woken by the app's events or the fallback poll
//! (`looks`).

pub(crate) mod looks;
pub(crate) mod targeted;

pub use looks::{FALLBACK_POLL, Wake, Wakes, Woke};

use serde::Serialize;

use crate::error::{Code, Error, Result};
use crate::model::{NodeValue, State};
use crate::read::{FindResult, Match};
use crate::selector::TextMatch;

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

/// Whether an element is awaited shown, present at all, or gone (`wait_for`'s `until`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    Appears,
    Attached,
    Disappears,
}

/// The words a face gives for a condition; at most one of them.
#[derive(Debug, Clone, Default)]
pub struct ConditionWords<'a> {
    pub until: Option<Until>,
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
            (None | Some(Until::Appears), None, None) => Condition::Appears,
            (Some(Until::Attached), None, None) => Condition::Attached,
            (Some(Until::Disappears), None, None) => Condition::Disappears,
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

/// Which matches a look holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Look {
    /// Every match (a full look).
    Full,
    /// Only the elements events named: a visible match elsewhere is not known.
    Named,
}

/// `Some(element)` when the condition holds (`Some(None)` for a disappearance). A state or a
/// value is judged on the element an action would resolve: a visible match when there is one
/// (a hidden one only when none is visible, and never in a look on what events named).
pub(crate) fn met(found: &FindResult, condition: &Condition, look: Look) -> Option<Option<Match>> {
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
pub(crate) fn holds(condition: &Condition, node: &crate::model::Node) -> bool {
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
pub(crate) fn uncounted(found: &FindResult, condition: &Condition) -> String {
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
