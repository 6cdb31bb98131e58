//! deskpilot's platform-neutral engine.
//!
//! `deskpilot-core` knows no D-Bus, no X11 and no MCP: it reads the world only through
//! [`Backend`], and owns what every front end shares (the model, sessions and refs, selectors,
//! the agent rendering).

pub mod act;
pub mod app;
pub mod backend;
pub mod capture;
mod derive;
pub mod details;
pub mod engine;
pub mod error;
pub mod filter;
pub mod launch;
pub mod model;
pub mod refs;
pub mod render;
mod scope;
pub mod selector;
pub mod session;
pub mod visibility;
pub mod wait;
pub mod window_system;

pub use act::{
    Action, ActionReport, Chord, Direction, Effect, InputDevice, InputError, InputText,
    MouseButton, NativeOp, OnOff, Route, Rung, Skipped, ValueInput,
};
pub use app::{AppInfo, WindowInfo};
pub use backend::{Backend, BackendError, Caret, ProgressSink, Secrecy, WalkLimits};
pub use filter::Filter;
pub use render::{Rendered, escape, render, render_with_notes};
pub use selector::{Selector, SelectorError, Step, TextMatch};
#[cfg(test)]
mod selector_tests;
pub use details::{TableSlice, TextSlice};
pub use engine::{
    Engine, FindResult, Match, Resolved, Snapshot, SnapshotRequest, TableRead, Target, TextRead,
    Truncation,
};
pub use error::{Code, Error};
pub use scope::WindowPick;
pub use session::{ConnectTarget, SessionInfo};
pub use wait::{Condition, WaitOutcome};
pub use window_system::{ClientWindow, WindowSystem};
