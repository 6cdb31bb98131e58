//! A pipeline as a client writes it: named steps, each a tool with its arguments, what must
//! hold after it, when to try it again, what to capture before it; cleanup steps; one
//! deadline for the whole run.

use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::condition::Expect;

/// At most this many steps, and this many cleanup steps (`validate_steps` says so).
pub const MAX_STEPS: usize = 50;
pub const MAX_FINALLY: usize = 20;
/// A run's deadline: by default, and at most.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// Tries of one step, the first included.
pub const MAX_ATTEMPTS: u32 = 5;
/// The pause between tries.
pub const DEFAULT_DELAY_MS: u64 = 250;

/// The tools that run steps: never a step themselves.
pub const PIPELINE_TOOLS: [&str; 4] = [
    "run_steps",
    "continue_run",
    "validate_steps",
    "run_workflow",
];

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunStepsArgs {
    /// At most 50, until one fails.
    pub steps: Vec<Step>,
    /// At most 20, run after the steps whatever happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finally: Vec<Step>,
    /// For the whole run (default 120000, at most 600000).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// background: no window raised, no pointer moved (steps that must are refused);
    /// give_back: both put back after the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
}

// Whether a run may take the foreground.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Foreground,
    Background,
    GiveBack,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Unique; "${id.field.0.field}" in a later step is its result's.
    pub id: String,
    pub tool: String,
    #[serde(default)]
    pub args: JsonObject,
    /// wait_for's condition, held after the tool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
    /// Run only if this holds within its timeout_ms (default 0), else skipped (an optional
    /// dialog).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<Expect>,
    /// Tries (2-5) on a retryable failure; safe steps only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry: Option<u32>,
    /// Read before, restored after the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture_before: Option<Capture>,
    /// Return the tool's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<bool>,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Capture {
    pub target: String,
    /// always, on_failure (default) or never.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restore: Option<Restore>,
}

// When a captured state is put back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Restore {
    Always,
    OnFailure,
    Never,
}

impl Step {
    /// The step's `session` argument, when it names one (a reference is resolved first).
    pub fn session_arg(&self) -> Option<&str> {
        self.args.get("session").and_then(|v| v.as_str())
    }

    /// Whether the step's arguments carry text its caller marked secret.
    pub fn secret(&self) -> bool {
        self.args.get("secret").and_then(|v| v.as_bool()) == Some(true)
    }
}

impl RunStepsArgs {
    pub fn background(&self) -> bool {
        self.mode == Some(Mode::Background)
    }

    pub fn gives_back(&self) -> bool {
        self.mode == Some(Mode::GiveBack)
    }

    /// The run's deadline, in milliseconds, within its bounds.
    pub fn timeout_ms(&self) -> u64 {
        self.timeout_ms
            .unwrap_or(DEFAULT_TIMEOUT_MS)
            .clamp(1, MAX_TIMEOUT_MS)
    }

    /// Every step, the cleanup ones after, with whether each is cleanup.
    pub fn all_steps(&self) -> impl Iterator<Item = (&Step, bool)> {
        self.steps
            .iter()
            .map(|s| (s, false))
            .chain(self.finally.iter().map(|s| (s, true)))
    }
}
