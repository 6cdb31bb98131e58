//! Acting on elements: the verbs, the route ladder (semantic, keyboard, pointer), synthetic
//! input as a trait, and effects read back.

pub(crate) mod action;
pub(crate) mod after;
pub(crate) mod choose;
pub(crate) mod deliver;
pub(crate) mod drag;
pub(crate) mod exited;
pub(crate) mod interaction;
pub(crate) mod keys_to;
pub(crate) mod ladder;
pub(crate) mod meaning;
pub(crate) mod observe;
pub mod plan;
pub(crate) mod policy;
pub(crate) mod preflight;
pub(crate) mod ready;
pub(crate) mod report;
pub(crate) mod subject;
pub(crate) mod verbs;
pub(crate) mod window;

pub use crate::platform::{InputDevice, InputError};
pub use action::{
    Action, Choice, Direction, MouseButton, NativeOp, OnOff, ValueInput, WindowAction, WindowState,
    same_number,
};
pub use after::MAX_UPDATE_LINES;
pub use deskpilot_platform::{Chord, InputText, Key, KeyError, Modifier, NamedKey};
pub use drag::DragEnd;
pub use interaction::{Foreground, Interaction};
pub use observe::{Change, ObservedWindow};
pub use ready::{Needs, NotReady, Still};
pub use report::{ActionReport, Effect, Route, Rung, Skipped, effect_name, rung_name};
pub use verbs::{Named, Verb, VerbOptions};
