//! Why a rung was not sent (`NotSent`), how focus was taken, and which roles take text: what
//! delivering a rung (`engine/act/deliver.rs`) reports.

use crate::error::{Code, Error};
use crate::model::Role;
use crate::platform::{InputError, WindowError};

/// Why a rung was not carried out.
pub(crate) enum NotSent {
    /// Not possible here; the next rung may be.
    Skip(String),
    /// Refused with a code (kept as the failure when no later rung works).
    Refuse(Error),
    /// The app is gone or frozen: stop.
    Fatal(Error),
}

/// How the element was given the focus before keys.
pub(crate) struct FocusedBy {
    pub(crate) how: String,
    /// By a click into it (which also opens a combo box's list).
    pub(crate) clicked: bool,
}

/// Roles a click focuses without doing anything else.
pub(crate) fn takes_text(role: Role) -> bool {
    matches!(
        role,
        Role::TextBox | Role::Password | Role::SpinButton | Role::ComboBox
    )
}

pub(crate) fn not_foreground(why: String) -> NotSent {
    NotSent::Refuse(Error::new(
        Code::WindowNotForeground,
        format!("cannot bring the element's window to the front: {why}"),
        "activate the window (`window_action` activate) or close what holds the focus, then retry",
    ))
}

/// A failure of the window system as the error a window request returns.
pub(crate) fn window_error(error: WindowError) -> Error {
    match window_failure(error) {
        NotSent::Refuse(e) | NotSent::Fatal(e) => e,
        NotSent::Skip(why) => Error::new(Code::Backend, why, "retry; the window system failed"),
    }
}

/// How a failure of the window system ends a rung.
pub(crate) fn window_failure(error: WindowError) -> NotSent {
    match error {
        WindowError::NotForeground { .. } => not_foreground(error.to_string()),
        WindowError::Unavailable(_) => NotSent::Refuse(Error::input_unavailable(error.to_string())),
        WindowError::Denied { .. } => NotSent::Refuse(Error::access_denied(error.to_string())),
        WindowError::Unsupported(_) => NotSent::Refuse(Error::new(
            Code::Unsupported,
            error.to_string(),
            "this window manager has no such request: act on the window's content instead",
        )),
        WindowError::Failed(_) => NotSent::Fatal(Error::new(
            Code::Backend,
            error.to_string(),
            "the window system failed; retry, or restart deskpilot",
        )),
    }
}

pub(crate) fn input_failure(error: InputError) -> NotSent {
    match error {
        InputError::Unavailable(_) => NotSent::Refuse(Error::input_unavailable(error.to_string())),
        InputError::Denied { .. } => NotSent::Refuse(Error::access_denied(error.to_string())),
        InputError::Untypable(_) => NotSent::Skip(error.to_string()),
        InputError::Display(_) => NotSent::Fatal(Error::new(
            Code::Backend,
            error.to_string(),
            "the display server failed; retry, or restart deskpilot",
        )),
        InputError::Incomplete { .. } => NotSent::Fatal(Error::new(
            Code::InputIncomplete,
            error.to_string(),
            "part of the text was typed: read the field (`get_properties`), then type only what is missing, or replace it all with `set_value`; do not repeat the call",
        )),
    }
}
