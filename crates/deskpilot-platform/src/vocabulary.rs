//! The words of the contract for acting: pointer buttons, scroll directions, what the window
//! manager is asked, and the native operations a backend performs on one element.

use serde::{Deserialize, Serialize};

use crate::keys::{Chord, Key, Modifier, NamedKey};
use crate::text::InputText;

/// A pointer button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MouseButton {
    #[default]
    Left,
    Middle,
    Right,
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
    /// Run the element's default action.
    DefaultAction,
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

/// The keys a platform's text fields take for editing, as a person presses them: the
/// keyboard rung of setting a value or typing at the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditKeys {
    /// Selects all of a field's text.
    pub select_all: Chord,
    /// Puts the caret after the last character.
    pub caret_to_end: Chord,
}

impl EditKeys {
    /// The keys of desktops whose shortcuts use Ctrl (ctrl+a, ctrl+End).
    pub fn ctrl() -> Self {
        let ctrl = |key| Chord {
            modifiers: vec![Modifier::Ctrl],
            key,
        };
        EditKeys {
            select_all: ctrl(Key::Char('a')),
            caret_to_end: ctrl(Key::Named(NamedKey::End)),
        }
    }
}
