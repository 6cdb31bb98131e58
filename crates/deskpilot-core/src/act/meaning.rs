//! What a verb means on a given control, by the control model: a plain click on a row
//! selects it, and text that reads as a number sets a spin button's number. The ladder runs
//! the meant action and reports it under the verb asked for.

use super::action::{Action, MouseButton, ValueInput};
use crate::error::{Code, Error};
use crate::model::Node;
use crate::model::control::{self, ClickMeans};

/// The action the ladder runs for `action` on `node`, when it is another one.
pub(crate) fn meant(action: &Action, node: &Node) -> Result<Option<Action>, Error> {
    match action {
        Action::Click {
            button: MouseButton::Left,
            double: false,
        } if control::click_means(node) == ClickMeans::Select => Ok(Some(Action::Select)),
        Action::SetValue(ValueInput::Text(text)) if control::numeric(node) && !text.is_secret() => {
            let number = parse_number(text.expose()).ok_or_else(|| {
                Error::new(
                    Code::InvalidArguments,
                    format!(
                        "{} {} takes a number, and the value is not one",
                        node.role,
                        crate::escape::quoted(node.display_name(), 100)
                    ),
                    "give the value as a number, such as 7 or 2.5",
                )
            })?;
            Ok(Some(Action::SetValue(ValueInput::Number(number))))
        }
        _ => Ok(None),
    }
}

/// A number as a person types it: spaces around it aside, a finite decimal.
fn parse_number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Capability, ElementId, Role, State, StateSet};

    fn node(role: Role, on: &[State]) -> Node {
        let mut node = Node::new(ElementId::new(":1.1", "/n"), role);
        node.states = StateSet::all_known(on.iter().copied());
        node
    }

    fn click() -> Action {
        Action::Click {
            button: MouseButton::Left,
            double: false,
        }
    }

    #[test]
    fn a_click_on_a_row_selects_it_and_a_double_click_stays_a_click() {
        let row = node(Role::Cell, &[State::Selectable]);
        assert_eq!(meant(&click(), &row), Ok(Some(Action::Select)));
        let double = Action::Click {
            button: MouseButton::Left,
            double: true,
        };
        assert_eq!(meant(&double, &row), Ok(None));
        assert_eq!(meant(&click(), &node(Role::Button, &[])), Ok(None));
    }

    #[test]
    fn text_for_a_spin_button_is_set_as_its_number() {
        let mut spin = node(Role::SpinButton, &[State::Editable]);
        spin.capabilities.insert(Capability::Number);
        let set = |text: &str| Action::SetValue(ValueInput::Text(text.into()));
        assert_eq!(
            meant(&set(" 7 "), &spin),
            Ok(Some(Action::SetValue(ValueInput::Number(7.0))))
        );
        assert_eq!(
            meant(&set("seven"), &spin).unwrap_err().code,
            Code::InvalidArguments
        );
        assert_eq!(meant(&set("7"), &node(Role::TextBox, &[])), Ok(None));
    }
}
