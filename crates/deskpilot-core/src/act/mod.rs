//! Acting on elements: the verbs, the route ladder (semantic, keyboard, pointer), synthetic
//! input as a trait, and effects read back.

mod action;
mod actionable;
mod after;
mod choose;
mod deliver;
mod drag;
mod exited;
mod interaction;
mod keys_to;
pub(crate) mod ladder;
mod meaning;
mod multiselection;
mod observe;
pub mod plan;
mod policy;
mod preflight;
mod ready;
mod report;
mod subject;
mod verbs;
mod verify;
mod window;

pub use crate::platform::{InputDevice, InputError};
pub use action::{
    Action, Choice, Direction, MouseButton, NativeOp, OnOff, ValueInput, WindowAction, WindowState,
    same_number,
};
pub use after::MAX_UPDATE_LINES;
pub use deskpilot_platform::{Chord, InputText, Key, KeyError, Modifier, NamedKey};
pub use drag::DragEnd;
pub use interaction::{Foreground, Interaction, background, in_background};
pub use observe::ObservedWindow;
pub use ready::{Needs, NotReady, Still};
pub use report::{ActionReport, Effect, Route, Rung, Skipped, effect_name, rung_name};
pub use verbs::{Named, Verb, VerbOptions};
