//! The ladder's policy, with no I/O: what a postcondition that held before the action means,
//! and what a rung's read-back decides (report, try the next rung, or fail). The ladder
//! (`ladder.rs`) runs these decisions against the app; they are unit-tested on observations
//! built by hand.

use super::action::{Action, OnOff, ValueInput};
use super::observe::{Change, Observation, change_lines, changes};
use super::plan::{Expect, NO_ON_OFF_STATE};
use super::report::{ActionReport, Effect};
use crate::error::{Code, Error};
use crate::escape::quoted;
use crate::model::control::{Switch, reads, switch};
use crate::model::{Node, NodeValue, Role, State};

/// The note of a selection the toolkit does not report on its own container.
pub(crate) const NO_SELECTION_STATE: &str =
    "the toolkit reports no selection here: the effect cannot be read back";

/// What the read-back after a rung saw.
#[derive(Debug)]
pub(crate) enum Verdict {
    Met(Observation),
    /// No postcondition of its own, and something changed.
    Changed(Observation),
    /// Nothing expected was seen: before the deadline, or (`quiet`) before the app's events
    /// said it was done.
    Missed {
        after: Observation,
        quiet: bool,
    },
}

impl Verdict {
    pub(crate) fn after(&self) -> &Observation {
        match self {
            Verdict::Met(after) | Verdict::Changed(after) | Verdict::Missed { after, .. } => after,
        }
    }
}

/// How the ladder starts, given the postcondition and the element before anything is sent.
#[derive(Debug, PartialEq)]
pub(crate) enum Start {
    /// The state the verb is for already holds: nothing is sent.
    NothingToDo { held: String },
    /// Send, and judge by `expect`.
    Send(Judging),
}

/// What a rung's read-back is judged by.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Judging {
    pub expect: Expect,
    /// The postcondition, when it held before the action (then only another change counts,
    /// and only while it still holds).
    pub held_before: Option<Expect>,
    /// Why a change cannot be confirmed precisely, when it cannot.
    pub unreported: Option<&'static str>,
}

/// What a rung's read-back decides.
#[derive(Debug)]
pub(crate) enum Next {
    Report {
        effect: Effect,
        note: Option<String>,
    },
    /// No effect, and the verb is safe to repeat: the next rung may do it.
    TryAnother {
        why: String,
    },
    Fail(Error),
}

/// A postcondition confirms only what the action did: one that already held says nothing.
/// Where holding it is the whole point (an idempotent verb), nothing is sent.
pub(crate) fn start(
    action: &Action,
    expect: Expect,
    unreported: Option<&'static str>,
    before: &Observation,
) -> Start {
    if expect != Expect::AnyChange && met(&expect, before) {
        if nothing_to_do_when_held(action) {
            return Start::NothingToDo {
                held: format!("{} already", expected(&expect)),
            };
        }
        return Start::Send(Judging {
            expect: Expect::AnyChange,
            held_before: Some(expect),
            unreported: Some(
                "its postcondition already held before: only another change confirms it",
            ),
        });
    }
    Start::Send(Judging {
        expect,
        held_before: None,
        unreported,
    })
}

/// Judges one rung's read-back. `how` is the route taken, `reference` the element's ref.
pub(crate) fn judge(
    action: &Action,
    judging: &Judging,
    before: &Observation,
    verdict: &Verdict,
    reference: &str,
    how: &str,
) -> Next {
    let report = |effect, note| Next::Report { effect, note };
    match verdict {
        Verdict::Met(_) => report(Effect::Confirmed, None),
        // What the read-back saw is no evidence of this verb's effect (typed text never is).
        Verdict::Changed(after) if evidence(action, before, after).is_empty() => report(
            Effect::Unverified,
            Some(missed(action, before, after).to_owned()),
        ),
        Verdict::Changed(after) => match &judging.held_before {
            // It held before and the action undid it: nothing to confirm.
            Some(held) if !met(held, after) => report(
                Effect::Unverified,
                Some(format!(
                    "{} held before, and no longer does",
                    expected(held)
                )),
            ),
            // Only a selection is evidence of a selection verb: seen, it needs no excuse.
            _ if judging.unreported == Some(NO_SELECTION_STATE) => report(Effect::Confirmed, None),
            // A change is no evidence of an on/off that cannot be read.
            _ if judging.unreported == Some(NO_ON_OFF_STATE) => {
                report(Effect::Unverified, Some(NO_ON_OFF_STATE.to_owned()))
            }
            _ => report(Effect::Confirmed, judging.unreported.map(str::to_owned)),
        },
        Verdict::Missed { after, quiet } => {
            if let Some(error) = clamped(action, before, after) {
                return Next::Fail(error);
            }
            let expect = &judging.expect;
            if matches!(expect, Expect::Chars(_)) && !length_shown(before) && !length_shown(after) {
                // A password field whose length the platform never gives (UI Automation):
                // nothing confirms or refutes it, and another rung would send it again.
                return report(
                    Effect::Unverified,
                    Some("the field's length cannot be read here: nothing can confirm it".into()),
                );
            }
            if *expect == Expect::AnyChange {
                let mut note = judging
                    .unreported
                    .unwrap_or_else(|| missed(action, before, after))
                    .to_owned();
                if *quiet {
                    note.push_str(" (the app's events said it was done)");
                }
                report(Effect::Unverified, Some(note))
            } else if matches!(action, Action::SetValue(_) | Action::SelectOption(_))
                && value_moved(expect, before, after)
            {
                // A wrong effect is its own outcome: never "no effect", never another rung on
                // top of it.
                Next::Fail(Error::new(
                    Code::UnexpectedEffect,
                    format!(
                        "{} {reference}: the element changed, but not to {} ({}), via {how}",
                        action.verb(),
                        expected(expect),
                        change_lines(before, after).join("; "),
                    ),
                    "read the element with `get_properties`: it holds something else than asked; set it again (perhaps other text or another way) only after checking",
                ))
            } else if action.safe_to_repeat() {
                Next::TryAnother {
                    why: format!("{how}: no effect ({})", expected(expect)),
                }
            } else {
                let effect = if changes(before, after).is_empty() {
                    Effect::Noop
                } else {
                    Effect::Unverified
                };
                report(
                    effect,
                    Some(format!(
                        "{} not seen; not sent again (repeating it is not safe)",
                        expected(expect)
                    )),
                )
            }
        }
    }
}

/// Whether the target shows its hidden text's length (AT-SPI gives it, UI Automation not).
fn length_shown(observation: &Observation) -> bool {
    let value = observation.target.as_ref().and_then(|n| n.value.as_ref());
    matches!(value, Some(NodeValue::Redacted { chars: Some(_) }))
}

/// Whether the postcondition holds in `now`.
pub(crate) fn met(expect: &Expect, now: &Observation) -> bool {
    let Some(node) = &now.target else {
        return false;
    };
    match expect {
        Expect::AnyChange => false,
        Expect::OnOff { switch, on } => switch.read(node) == Some(*on),
        Expect::Flipped { switch, was } => switch.read(node) == Some(!*was),
        Expect::State { state, on } => reads(node, *state) == Some(*on),
        Expect::Text(text) => {
            matches!(&node.value, Some(NodeValue::Text { text: t }) if t == text.expose())
        }
        Expect::Chars(n) => {
            matches!(node.value, Some(NodeValue::Redacted { chars: Some(c) }) if c == *n)
        }
        // Where the caret was is unknown: the typed text in the field may have been there
        // before. Never confirms.
        Expect::Contains(_) => false,
        Expect::Number(n) => matches!(
            node.value,
            Some(NodeValue::Number { current, .. }) if super::action::same_number(current, *n)
        ),
        Expect::Shown(name) => now.shown.as_deref() == Some(name.as_str()),
        // A menu selected whose items were read hidden did not open: GTK 3 selects a menu
        // bar's item before its popup grabs, and a popup that cannot grab never shows.
        Expect::MenuOpen => match now.showing_items {
            Some(showing) => showing > 0 || node.states.is(State::Expanded),
            None => {
                node.states.is(State::Expanded)
                    || (node.role == Role::Menu && node.states.is(State::Selected))
            }
        },
    }
}

/// What holds already, when the control's on/off is known to be `want`.
pub(crate) fn already(node: &Node, want: OnOff) -> Option<String> {
    let switch = switch(node, false)?;
    let on = want == OnOff::On;
    if switch.read(node) != Some(on) {
        return None;
    }
    let state = if on { "on" } else { "off" };
    Some(match switch {
        Switch::Selected => format!("already {state} (selected)"),
        _ => format!("already {state}"),
    })
}

/// The report of an action whose state already held: confirmed, nothing sent.
pub(crate) fn nothing_sent(action: &Action, reference: String, held: String) -> ActionReport {
    ActionReport {
        verb: action.verb(),
        reference,
        route: None,
        skipped: Vec::new(),
        effect: Effect::Confirmed,
        changes: Vec::new(),
        foreground_changed: Some(false),
        note: Some(format!("{held}: nothing sent")),
        tree: None,
        observed: Vec::new(),
        interaction: Default::default(),
    }
}

/// What changed that is evidence of `action`'s effect, where no postcondition of its own
/// can be read (or it held before).
pub(crate) fn evidence(action: &Action, before: &Observation, after: &Observation) -> Vec<Change> {
    changes(before, after)
        .into_iter()
        .filter(|change| counts_for(action, change))
        .collect()
}

/// Whether one change is evidence of `action`'s effect. Each rule has its unit test.
fn counts_for(action: &Action, change: &Change) -> bool {
    if let Change::State {
        state: State::Focused,
        ..
    } = change
    {
        // deskpilot's own route moves the focus: a click that only focused a button did
        // nothing.
        return false;
    }
    match action {
        // Typed text is confirmed by the text alone, read back where it went: a window that
        // opened or closed, a name or an element gone are what a key pressed elsewhere does.
        Action::TypeText(_) => false,
        // A selection verb by a selection.
        Action::Select | Action::AddToSelection | Action::Deselect => matches!(
            change,
            Change::State {
                state: State::Selected,
                ..
            }
        ),
        // An option by what the combo box shows (or its own name, value or selection).
        Action::SelectOption(_) => change.on_target(),
        // A scroll by the element itself moving, not by a window.
        Action::Scroll { .. } | Action::ScrollIntoView => change.on_target(),
        // Anything else the element or the app shows: a click that opens a dialog did its
        // work.
        Action::Click { .. }
        | Action::PressKey(_)
        | Action::Activate(_)
        | Action::SetValue(_)
        | Action::Toggle { .. }
        | Action::Expand
        | Action::Collapse
        | Action::Focus => true,
    }
}

/// The note of an action with no postcondition of its own, when nothing seen was evidence.
fn missed(action: &Action, before: &Observation, after: &Observation) -> &'static str {
    match (action, changes(before, after).is_empty()) {
        (Action::TypeText(_), _) => {
            "sent; typed text is confirmed only by the text read back where it went, and none could be read here"
        }
        (_, true) => "sent; nothing visible changed on the element or the app's windows",
        (_, false) => "sent; what changed (below) is no evidence of this action's effect",
    }
}

/// Verbs whose whole point is a state: when it already holds, nothing is sent.
fn nothing_to_do_when_held(action: &Action) -> bool {
    matches!(
        action,
        Action::SetValue(_)
            | Action::Select
            | Action::SelectOption(_)
            | Action::AddToSelection
            | Action::Deselect
            | Action::Expand
            | Action::Collapse
            | Action::Focus
            | Action::Click { .. }
    )
}

fn bound(value: Option<f64>) -> String {
    value.map_or_else(|| "unknown".to_owned(), |v| v.to_string())
}

/// A number that read back different from the one set, when the app was asked outright.
fn clamped(action: &Action, before: &Observation, after: &Observation) -> Option<Error> {
    let Action::SetValue(ValueInput::Number(wanted)) = action else {
        return None;
    };
    let Some(Node {
        value: Some(NodeValue::Number {
            current, min, max, ..
        }),
        ..
    }) = &after.target
    else {
        return None;
    };
    let outside = min.is_some_and(|m| *wanted < m) || max.is_some_and(|m| *wanted > m);
    let value = |o: &Observation| o.target.as_ref().and_then(super::observe::value_text);
    (outside || value(before) != value(after)).then(|| {
        Error::new(
            Code::ValueClamped,
            format!(
                "asked for {wanted}, the app kept {current} (range {} to {})",
                bound(*min),
                bound(*max)
            ),
            "choose a value within the range",
        )
    })
}

/// True when the value a value postcondition watches changed, yet not as expected.
fn value_moved(expect: &Expect, before: &Observation, after: &Observation) -> bool {
    if let Expect::Shown(_) = expect {
        return after.shown.is_some() && before.shown != after.shown;
    }
    let watches_value = matches!(
        expect,
        Expect::Text(_) | Expect::Chars(_) | Expect::Number(_)
    );
    let value = |o: &Observation| o.target.as_ref().map(|t| t.value.clone());
    watches_value && value(before) != value(after)
}

/// The postcondition in words.
pub(super) fn expected(expect: &Expect) -> String {
    match expect {
        Expect::AnyChange => "a change".into(),
        Expect::OnOff { switch, on } => {
            format!("{} {}", switch.state(), if *on { "on" } else { "off" })
        }
        Expect::Flipped { switch, .. } => format!("{} flipped", switch.state()),
        Expect::State { state, on } => format!("{state} {}", if *on { "on" } else { "off" }),
        Expect::Text(_) => "the new text".into(),
        Expect::Chars(n) => format!("{n} characters"),
        Expect::Contains(_) => "the typed text".into(),
        Expect::Number(n) => format!("the value {n}"),
        Expect::MenuOpen => "the menu open".into(),
        Expect::Shown(name) => format!("the combo box showing {}", quoted(name, 100)),
    }
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "policy_length_tests.rs"]
mod length_tests;

#[cfg(test)]
#[path = "policy_switch_tests.rs"]
mod switch_tests;
