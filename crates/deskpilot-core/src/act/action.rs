//! What an agent or test can ask an element to do: a closed set of verbs, each with its
//! options in the variant.

use serde::{Deserialize, Serialize};

use super::keys::Chord;
use super::text::InputText;

/// A pointer button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MouseButton {
    #[default]
    Left,
    Middle,
    Right,
}

/// On or off, for `toggle` with `ensure`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnOff {
    On,
    Off,
}

/// A direction to scroll in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
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
    /// A named AT-SPI action, exactly as the element lists it.
    Activate(String),
    /// Turn the mouse wheel over the element.
    Scroll {
        direction: Direction,
        amount: u32,
    },
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

/// What the window manager is asked to do with a top-level window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowAction {
    Activate,
    Minimize,
    Maximize,
    Restore,
    Close,
}

/// A top-level window's state as the window manager has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowState {
    pub minimized: bool,
    pub maximized: bool,
}

/// What a backend does natively on one element (the semantic rung): closed verbs that each
/// backend maps to its toolkit's own operations (`NativeRoutes` says how, or why not).
#[derive(Debug, Clone, PartialEq)]
pub enum NativeOp {
    /// Press or click the element (a button, a link, a menu item).
    Press,
    /// Flip a two-state control.
    Toggle,
    /// Open a tree item or an expander.
    Expand,
    /// Close a tree item or an expander.
    Collapse,
    /// Run the action the element itself offers under this name (never picked by index).
    Named(String),
    /// Replace the element's whole text.
    SetText(InputText),
    /// Set the element's numeric value.
    SetNumber(f64),
    /// Move keyboard focus to the element.
    Focus,
    /// Put the text caret after the last character (nothing selected).
    CaretToEnd,
    /// Insert text after the last character.
    AppendText(InputText),
    /// Scroll the element's ancestors until it is visible.
    ScrollIntoView,
    /// Make the element the only selected one in its container (Selection, or a table's
    /// row selection).
    Select,
    /// Add the element to its container's selection.
    AddToSelection,
    /// Deselect the element in its container.
    Deselect,
    /// Select the container's child at this index (a combo box's option, through the combo
    /// box's own selection).
    ChooseAt(u32),
    /// Make the element, an option, the chosen one by its own action.
    Choose,
}
