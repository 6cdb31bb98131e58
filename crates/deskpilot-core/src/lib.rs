//! deskpilot's platform-neutral engine.
//!
//! `deskpilot-core` names no platform: it reads and drives the world only through the traits
//! in [`platform`], and owns what every front end shares (the model, sessions and refs,
//! selectors, reading, the action ladder, the agent rendering).

// Nothing here prints to stdout: the faces decide where text goes.
#![deny(clippy::print_stdout)]

pub mod act;
pub use deskpilot_platform::app;
pub mod capture;
mod derive;
pub mod engine;
pub mod error;
pub use deskpilot_platform::escape;
pub mod filter;
pub mod hint;
pub mod launch;
pub mod live;
pub use deskpilot_platform::model;
pub mod platform;
pub mod present;
pub mod read;
pub mod render;
mod scope;
pub mod selector;
pub mod session;
pub mod tree_update;
pub mod visibility;
pub mod wait;

pub use act::{
    Action, ActionReport, Choice, Chord, Direction, Effect, InputText, MouseButton, NativeOp,
    OnOff, Route, Rung, Skipped, ValueInput,
};
pub use app::{AppInfo, WindowId, WindowInfo};
pub use engine::read::locate::{Located, locator_of};
pub use engine::{DevicesMissing, Engine, Session, Wiring};
pub use error::{Code, Error};
pub use filter::Filter;
pub use model::{TableSlice, TextSlice};
pub use platform::{
    Backend, BackendError, Caret, ClientWindow, InputDevice, InputError, LaunchError, Launcher,
    NativeRoute, NativeRoutes, NoDesktop, ProgressSink, Secrecy, WalkLimits, WindowError,
    WindowSystem,
};
pub use read::{
    FindResult, ListedApp, ListedWindow, Match, Resolved, Snapshot, SnapshotRequest, TableRead,
    Target, TextRead, Truncation, WindowPick,
};
pub use render::{Rendered, escape, render, render_with_notes};
pub use selector::{Selector, SelectorError, Step, TextMatch};
#[cfg(test)]
mod selector_tests;
pub use session::{ConnectTarget, SessionInfo};
pub use wait::{Condition, ConditionWords, FALLBACK_POLL, Until, WaitOutcome, Wake, Wakes, Woke};
