//! The engine's failures: data with a stable code, whether retrying can help, and what to do
//! next.

use serde::Serialize;

use crate::platform::BackendError;

/// Stable failure codes (part of the MCP contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    StaleRef,
    NotFound,
    Ambiguous,
    Timeout,
    AppNotResponding,
    AppGone,
    InvalidSelector,
    InvalidArguments,
    UnknownSession,
    InputNotAllowed,
    Unsupported,
    Backend,
    /// The element has no bounds on screen (pointer input needs them), or is scrolled out of
    /// view and cannot be scrolled into it.
    Offscreen,
    /// The element is not shown (an item of a closed menu, a hidden page): the message says
    /// what to open first.
    NotVisible,
    /// Something else is at the element's position.
    Obscured,
    /// The element is disabled.
    Disabled,
    /// The element does not take text or a value.
    NotEditable,
    /// The element's window could not be brought to the front.
    WindowNotForeground,
    /// The app kept a different value than the one set.
    ValueClamped,
    /// Every route was tried and none changed anything.
    NoEffect,
    /// The action changed the element, but not to what was asked (the report says what it
    /// holds now); it is not repeated.
    UnexpectedEffect,
    /// Synthetic input stopped part way (a timeout): some of it was delivered, not all; the
    /// message says how much. Not retryable: repeating would deliver the first part twice.
    InputIncomplete,
    /// No synthetic input or screen capture here (no display that takes it).
    InputUnavailable,
    /// The client cancelled the request before it finished.
    Cancelled,
    /// No desktop session was found to read (no session bus): nothing can be read or done
    /// until deskpilot is told where it is.
    NoDesktop,
    /// The app runs with more rights than deskpilot (elevated): the system hides its tree
    /// and drops input sent to it.
    AccessDenied,
    /// A pipeline step's tool succeeded but its `expect` did not hold in time.
    StepPostconditionTimeout,
    /// No kept run has this id (never started, or expired).
    UnknownRun,
    /// A run cannot go on: the window it worked in is gone or replaced.
    WindowChanged,
    /// No app pack, workflow or pack control has this name.
    UnknownPack,
    /// A workflow's inputs do not match its schema (the message gives each JSON path).
    WorkflowInputInvalid,
    /// A workflow's app is not running, and this server may not start it.
    AppNotRunning,
    /// A pack's control or workflow was used in a session of another app.
    PackMismatch,
    /// The server is at its limit of tool calls in flight (`--max-calls`): the call was
    /// refused at once, not queued.
    Busy,
}

impl Code {
    /// Every code, in the order the documentation lists them.
    pub const ALL: &[Code] = &[
        Code::StaleRef,
        Code::NotFound,
        Code::Ambiguous,
        Code::Timeout,
        Code::AppNotResponding,
        Code::AppGone,
        Code::InvalidSelector,
        Code::InvalidArguments,
        Code::UnknownSession,
        Code::InputNotAllowed,
        Code::Unsupported,
        Code::Backend,
        Code::Offscreen,
        Code::NotVisible,
        Code::Obscured,
        Code::Disabled,
        Code::NotEditable,
        Code::WindowNotForeground,
        Code::ValueClamped,
        Code::NoEffect,
        Code::UnexpectedEffect,
        Code::InputIncomplete,
        Code::InputUnavailable,
        Code::Cancelled,
        Code::NoDesktop,
        Code::AccessDenied,
        Code::StepPostconditionTimeout,
        Code::UnknownRun,
        Code::WindowChanged,
        Code::UnknownPack,
        Code::WorkflowInputInvalid,
        Code::AppNotRunning,
        Code::PackMismatch,
        Code::Busy,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Code::StaleRef => "stale_ref",
            Code::NotFound => "not_found",
            Code::Ambiguous => "ambiguous",
            Code::Timeout => "timeout",
            Code::AppNotResponding => "app_not_responding",
            Code::AppGone => "app_gone",
            Code::InvalidSelector => "invalid_selector",
            Code::InvalidArguments => "invalid_arguments",
            Code::UnknownSession => "unknown_session",
            Code::InputNotAllowed => "input_not_allowed",
            Code::Unsupported => "unsupported",
            Code::Backend => "backend",
            Code::Offscreen => "offscreen",
            Code::NotVisible => "not_visible",
            Code::Obscured => "obscured",
            Code::Disabled => "disabled",
            Code::NotEditable => "not_editable",
            Code::WindowNotForeground => "window_not_foreground",
            Code::ValueClamped => "value_clamped",
            Code::NoEffect => "no_effect",
            Code::UnexpectedEffect => "unexpected_effect",
            Code::InputIncomplete => "input_incomplete",
            Code::InputUnavailable => "input_unavailable",
            Code::Cancelled => "cancelled",
            Code::NoDesktop => "no_desktop",
            Code::AccessDenied => "access_denied",
            Code::StepPostconditionTimeout => "step_postcondition_timeout",
            Code::UnknownRun => "unknown_run",
            Code::WindowChanged => "window_changed",
            Code::UnknownPack => "unknown_pack",
            Code::WorkflowInputInvalid => "workflow_input_invalid",
            Code::AppNotRunning => "app_not_running",
            Code::PackMismatch => "pack_mismatch",
            Code::Busy => "busy",
        }
    }

    /// Whether the same call may succeed if simply repeated later.
    pub fn retryable(self) -> bool {
        matches!(
            self,
            Code::Timeout
                | Code::AppNotResponding
                | Code::NotFound
                | Code::Disabled
                | Code::Backend
                | Code::Obscured
                | Code::WindowNotForeground
                | Code::StepPostconditionTimeout
                | Code::Busy
        )
    }
}

/// A failure of an engine operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    pub code: Code,
    pub message: String,
    /// What to do next, written for the reader (an agent or a person).
    pub hint: String,
    /// For an action that sent input and then failed: what changed in the session's tree
    /// since it last saw it (as an action's result shows it: `present::tree_update`).
    pub tree: Option<Box<crate::tree_update::TreeUpdate>>,
}

impl Error {
    pub fn new(code: Code, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            hint: hint.into(),
            tree: None,
        }
    }

    /// Whether the action sent its input before failing (so the app may have changed).
    pub fn after_input(&self) -> bool {
        matches!(
            self.code,
            Code::ValueClamped | Code::NoEffect | Code::UnexpectedEffect | Code::InputIncomplete
        )
    }

    pub fn retryable(&self) -> bool {
        self.code.retryable()
    }

    /// `input_unavailable` as a device reports it (the display refuses input).
    pub fn input_unavailable(why: impl Into<String>) -> Self {
        Error::new(
            Code::InputUnavailable,
            why,
            "semantic actions still work; this display takes no synthetic input or screenshots",
        )
    }

    /// `access_denied`: the app runs elevated, above deskpilot's rights.
    pub fn access_denied(message: impl Into<String>) -> Self {
        Error::new(
            Code::AccessDenied,
            message,
            "the app runs elevated (with more rights than deskpilot): run deskpilot with the same rights, or the app without them",
        )
    }

    pub fn stale(message: impl Into<String>) -> Self {
        Error::new(
            Code::StaleRef,
            message,
            "take a new `snapshot` (or `find`) and use the refs it returns",
        )
    }
}

impl From<BackendError> for Error {
    fn from(error: BackendError) -> Self {
        let message = error.to_string();
        match error {
            BackendError::AppNotResponding { .. } => Error::new(
                Code::AppNotResponding,
                message,
                "the app may be busy or frozen (a modal dialog?); retry shortly, or check it with `list_apps`",
            ),
            BackendError::AppGone { .. } => Error::new(
                Code::AppGone,
                message,
                "the app quit or crashed; `list_apps`, then `connect` again",
            ),
            BackendError::Defunct { .. } => Error::stale(message),
            BackendError::Unsupported { .. } => Error::new(
                Code::Unsupported,
                message,
                "this element does not offer that; `get_properties` lists what it supports",
            ),
            BackendError::System(_) => Error::new(
                Code::Backend,
                message,
                "retry; if it persists, restart deskpilot",
            ),
            BackendError::AccessDenied { .. } => Error::access_denied(message),
            BackendError::PlatformUnsupported(_) => Error::new(
                Code::Unsupported,
                message,
                "deskpilot drives apps on Linux today; Windows is next",
            ),
            BackendError::NoDesktop { hint, .. } => Error::new(Code::NoDesktop, message, hint),
        }
    }
}

impl From<crate::selector::SelectorError> for Error {
    fn from(error: crate::selector::SelectorError) -> Self {
        Error::new(
            Code::InvalidSelector,
            error.to_string(),
            "fix the selector; see the selector grammar in the tool description",
        )
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
