//! What an agent or test can ask an element to do: a closed set of verbs, each with its
//! options in the variant.

use serde::{Deserialize, Serialize};

use deskpilot_platform::model::ActionName;
pub use deskpilot_platform::vocabulary::{
    Direction, MouseButton, NativeOp, WindowAction, WindowState,
};
use deskpilot_platform::{Chord, InputText};

/// On or off, for `toggle` with `ensure`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnOff {
    On,
    Off,
}

/// The value `set_value` puts in an element.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueInput {
    Number(f64),
    Text(InputText),
}

/// Which option `select_option` chooses among a combo box's (or list's) options.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// The option with this name, exactly as shown.
    Name(String),
    /// The option at this place, counted from 0 in the order the options are listed.
    Index(u32),
}

/// One verb, aimed at a resolved element.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A pointer click; only a left single click has a semantic rung.
    Click {
        button: MouseButton,
        double: bool,
    },
    /// Put this value in the element outright (text or number).
    SetValue(ValueInput),
    /// Keystrokes into the element (focused first).
    TypeText(InputText),
    /// A key or chord, sent to the element's window with the element focused first.
    PressKey(Chord),
    /// Flip a two-state control; with `ensure`, only when it is not already in that state.
    Toggle {
        ensure: Option<OnOff>,
    },
    Select,
    /// On a combo box: make this option the one it shows.
    SelectOption(Choice),
    AddToSelection,
    Deselect,
    Expand,
    Collapse,
    Focus,
    ScrollIntoView,
    /// One of the element's own actions: its default one, or one by the platform's name.
    Activate(ActionName),
    /// Turn the mouse wheel over the element.
    Scroll {
        direction: Direction,
        amount: u32,
    },
}

/// Whether a number read back is the one set (what a float's round trip through an app
/// leaves of it).
pub fn same_number(read: f64, set: f64) -> bool {
    (read - set).abs() <= 1e-9 * set.abs().max(1.0)
}

impl Action {
    /// The verb's name, as reported.
    pub fn verb(&self) -> &'static str {
        match self {
            Action::Click { .. } => "click",
            Action::SetValue(_) => "set_value",
            Action::TypeText(_) => "type_text",
            Action::PressKey(_) => "press_key",
            Action::Toggle { ensure: None } => "toggle",
            Action::Toggle {
                ensure: Some(OnOff::On),
            } => "check",
            Action::Toggle {
                ensure: Some(OnOff::Off),
            } => "uncheck",
            Action::Select => "select",
            Action::SelectOption(_) => "select_option",
            Action::AddToSelection => "add_to_selection",
            Action::Deselect => "deselect",
            Action::Expand => "expand",
            Action::Collapse => "collapse",
            Action::Focus => "focus",
            Action::ScrollIntoView => "scroll_into_view",
            Action::Activate(_) => "activate",
            Action::Scroll { .. } => "scroll",
        }
    }

    /// Whether the action carries text the caller asked to keep secret.
    pub fn secret(&self) -> bool {
        match self {
            Action::TypeText(text) | Action::SetValue(ValueInput::Text(text)) => text.is_secret(),
            _ => false,
        }
    }

    /// Whether sending the action again after a read-back showed no change is harmless: only
    /// then is the next rung of the ladder tried after a no-op. A plain click or typed text is
    /// never sent twice.
    pub fn safe_to_repeat(&self) -> bool {
        match self {
            Action::Toggle { ensure } => ensure.is_some(),
            Action::SetValue(_)
            | Action::Select
            | Action::SelectOption(_)
            | Action::AddToSelection
            | Action::Deselect
            | Action::Expand
            | Action::Collapse
            | Action::Focus
            | Action::ScrollIntoView => true,
            Action::Click { .. }
            | Action::TypeText(_)
            | Action::PressKey(_)
            | Action::Activate(_)
            | Action::Scroll { .. } => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Action, InputText, ValueInput};

    #[test]
    fn an_action_never_prints_its_text() {
        let text = InputText::secret("hunter2");
        for shown in [
            format!("{:?}", Action::TypeText(text.clone())),
            format!("{:?}", Action::SetValue(ValueInput::Text(text.clone()))),
        ] {
            assert!(!shown.contains("hunter2"), "{shown}");
        }
    }
}
