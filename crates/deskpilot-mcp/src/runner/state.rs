//! `capture_before` and its restore: an element's value and its checked, selected and
//! expanded states read before a step, put back after the run by the verbs that set each
//! (set_value, toggle with ensure, select or deselect, expand or collapse), then read again:
//! a restore is verified only by what the app shows afterwards. A password field's state is
//! never captured.

use deskpilot_core::act::same_number;
use deskpilot_core::model::{Node, NodeValue, State, control};
use deskpilot_core::{Action, Code, Engine, Error, InputText, OnOff, Session, ValueInput};

use crate::args;
use crate::call::Call;
use crate::pipeline::report::{RestoreOut, RestoreStatus};
use crate::pipeline::spec::Restore;

/// An element's state, as far as a restore can set it back.
#[derive(Debug, Clone, PartialEq)]
pub struct ElementState {
    pub value: Option<Held>,
    pub checked: Option<bool>,
    pub selected: Option<bool>,
    pub expanded: Option<bool>,
}

/// A value an element holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Held {
    Text(String),
    Number(f64),
}

/// What was captured before a step.
#[derive(Debug, Clone)]
pub struct Captured {
    pub step: String,
    pub session: String,
    pub target: String,
    pub restore: Restore,
    /// The state, or why none was taken.
    pub state: Result<ElementState, Error>,
}

impl RestoreOut {
    /// A restore the run's deadline cut short.
    pub fn timed_out(captured: &Captured) -> Self {
        RestoreOut {
            step: captured.step.clone(),
            target: captured.target.clone(),
            status: RestoreStatus::Failed,
            set: Vec::new(),
            verified: false,
            code: Some(Code::Timeout.name().to_owned()),
            message: Some("the run's deadline passed during the restore".into()),
            interaction: Vec::new(),
        }
    }
}

/// `node`'s state; a secret's is refused.
pub fn state_of(node: &Node) -> Result<ElementState, Error> {
    let value = match &node.value {
        Some(NodeValue::Redacted { .. }) => {
            return Err(Error::new(
                Code::InvalidArguments,
                "a password field's state is never captured",
                "capture another element, or none",
            ));
        }
        Some(NodeValue::Text { text }) => Some(Held::Text(text.clone())),
        Some(NodeValue::Number { current, .. }) => Some(Held::Number(*current)),
        None => None,
    };
    Ok(ElementState {
        value,
        checked: control::switch(node, false).and_then(|s| s.read(node)),
        selected: control::reads(node, State::Selected),
        expanded: control::reads(node, State::Expanded),
    })
}

/// Reads `target`'s state in `session`.
pub async fn read(handle: &Session<'_>, target: &str) -> Result<ElementState, Error> {
    let target = args::target(target)?;
    let resolved = handle.properties(&target).await?;
    if resolved.secret {
        return state_of(&Node {
            value: Some(NodeValue::Redacted { chars: None }),
            ..resolved.node
        });
    }
    state_of(&resolved.node)
}

/// The actions that take `now` back to `then`, each with what it sets.
fn actions(then: &ElementState, now: &ElementState) -> Vec<(Action, String)> {
    let mut out = Vec::new();
    let value_held = match (&then.value, &now.value) {
        (Some(Held::Number(set)), Some(Held::Number(read))) => same_number(*read, *set),
        (then, now) => then.is_none() || then == now,
    };
    if !value_held {
        match &then.value {
            Some(Held::Text(text)) => out.push((
                Action::SetValue(ValueInput::Text(InputText::plain(text.clone()))),
                "value".to_owned(),
            )),
            Some(Held::Number(n)) => {
                out.push((Action::SetValue(ValueInput::Number(*n)), "value".to_owned()))
            }
            None => {}
        }
    }
    let on_off = |on: bool| if on { OnOff::On } else { OnOff::Off };
    let word = |on: bool| if on { "on" } else { "off" };
    if let Some(on) = then.checked
        && now.checked != Some(on)
    {
        out.push((
            Action::Toggle {
                ensure: Some(on_off(on)),
            },
            format!("checked: {}", word(on)),
        ));
    }
    if let Some(on) = then.expanded
        && now.expanded != Some(on)
    {
        let action = if on { Action::Expand } else { Action::Collapse };
        out.push((action, format!("expanded: {}", word(on))));
    }
    if let Some(on) = then.selected
        && now.selected != Some(on)
    {
        let action = if on { Action::Select } else { Action::Deselect };
        out.push((action, format!("selected: {}", word(on))));
    }
    out
}

/// Whether `now` holds what `then` held, for every part `then` knew: nothing to set back.
fn holds(then: &ElementState, now: &ElementState) -> bool {
    actions(then, now).is_empty()
}

/// Puts `captured` back and reads it again.
pub async fn restore(engine: &Engine, call: &Call, captured: &Captured) -> RestoreOut {
    let mut out = RestoreOut {
        step: captured.step.clone(),
        target: captured.target.clone(),
        status: RestoreStatus::Failed,
        set: Vec::new(),
        verified: false,
        code: None,
        message: None,
        interaction: Vec::new(),
    };
    let fail = |mut out: RestoreOut, e: &Error| {
        out.code = Some(e.code.name().to_owned());
        out.message = Some(e.message.clone());
        out
    };
    let then = match &captured.state {
        Ok(state) => state,
        Err(e) => {
            out.status = RestoreStatus::NotCaptured;
            return fail(out, e);
        }
    };
    let target = captured.target.as_str();
    let handle = match call.session(engine, &captured.session) {
        Ok(handle) => handle,
        Err(e) => return fail(out, &e),
    };
    let now = match read(&handle, target).await {
        Ok(now) => now,
        Err(e) => return fail(out, &e),
    };
    let todo = actions(then, &now);
    if todo.is_empty() {
        out.status = RestoreStatus::Unchanged;
        out.verified = holds(then, &now);
        return out;
    }
    let resolved = match args::target(target) {
        Ok(t) => t,
        Err(e) => return fail(out, &e),
    };
    for (action, what) in todo {
        let acted = handle
            .act_when_ready(&resolved, &action, args::actionable_wait(None))
            .await;
        match acted {
            Err(e) => return fail(out, &e),
            Ok(report) => out.interaction.extend(report.interaction.names()),
        }
        out.set.push(what);
    }
    match read(&handle, target).await {
        Ok(after) => {
            out.verified = holds(then, &after);
            out.status = if out.verified {
                RestoreStatus::Restored
            } else {
                RestoreStatus::Failed
            };
            if !out.verified {
                out.message = Some("read back, the element does not hold what was captured".into());
            }
            out
        }
        Err(e) => fail(out, &e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(value: Option<Held>, checked: Option<bool>) -> ElementState {
        ElementState {
            value,
            checked,
            selected: None,
            expanded: Some(false),
        }
    }

    /// Only what differs is set back, each by its own verb; a state the capture did not know
    /// is not judged.
    #[test]
    fn what_differs_is_set_back_by_its_verb() {
        let then = state(Some(Held::Text("Ada".into())), Some(true));
        let now = state(Some(Held::Text("Bob".into())), Some(false));
        let todo: Vec<String> = actions(&then, &now).into_iter().map(|(_, w)| w).collect();
        assert_eq!(todo, ["value", "checked: on"]);
        assert!(actions(&then, &then).is_empty());
        // A number read back through the app's float is the one set: nothing to do.
        let set = state(Some(Held::Number(0.3)), None);
        let read = state(Some(Held::Number(0.1 + 0.2)), None);
        assert!(actions(&set, &read).is_empty());
        assert!(holds(&then, &then));
        assert!(!holds(&then, &now));
        let unknown = state(None, None);
        assert!(holds(&unknown, &now));
    }
}
