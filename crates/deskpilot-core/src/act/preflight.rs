//! Refusals that need no input: a disabled element, a field that takes no text or number, an
//! action the element does not offer.

use super::action::{Action, ValueInput};
use super::subject::Subject;
use crate::error::{Code, Error, Result};
use crate::model::{ActionName, Capability, State};

/// Refusals that need no input: a disabled element, a field that takes no text.
pub(crate) fn preflight(action: &Action, subject: &Subject) -> Result<()> {
    let node = subject.node();
    let reference = &subject.resolved.reference;
    if node.states.is_not(State::Enabled) && *action != Action::ScrollIntoView {
        return Err(Error::new(
            Code::Disabled,
            format!(
                "{reference} ({} {}) is disabled",
                node.role,
                crate::escape::quoted(node.display_name(), 100)
            ),
            "wait until it is enabled (`wait_for` state enabled), or do what enables it first",
        ));
    }
    match action {
        Action::SetValue(ValueInput::Text(_)) => {
            let takes_text = node.capabilities.contains(Capability::TakesText)
                || node.states.is(State::Editable);
            if !takes_text || node.states.is(State::ReadOnly) {
                return Err(Error::new(
                    Code::NotEditable,
                    format!(
                        "{reference} ({} {}) does not take text",
                        node.role,
                        crate::escape::quoted(node.display_name(), 100)
                    ),
                    "`set_value` needs an editable field; use `click` or `act` on other controls",
                ));
            }
        }
        Action::SetValue(ValueInput::Number(_)) => {
            let takes_number = node.capabilities.contains(Capability::Number)
                || node.capabilities.contains(Capability::TakesText);
            if !takes_number || node.states.is(State::ReadOnly) {
                return Err(Error::new(
                    Code::NotEditable,
                    format!(
                        "{reference} ({} {}) does not take a number",
                        node.role,
                        crate::escape::quoted(node.display_name(), 100)
                    ),
                    "set a number on a slider, spin button or text field",
                ));
            }
        }
        Action::Activate(name) if !node.offers(name) => {
            let wanted = match name {
                ActionName::Default => "default action".to_owned(),
                ActionName::Named(name) => format!("action {name:?}"),
            };
            return Err(Error::new(
                Code::Unsupported,
                format!(
                    "{reference} has no {wanted} (it offers: {})",
                    crate::model::action_list(&node.actions)
                ),
                "use one of the actions it offers (`get_properties` lists them)",
            ));
        }
        _ => {}
    }
    Ok(())
}
