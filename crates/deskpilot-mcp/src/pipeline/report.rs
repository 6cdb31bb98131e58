//! What a run reports: each step's outcome, the first failure, the cleanup's outcomes, and
//! one text line per step for a reader.

use deskpilot_core::act::{effect_name, rung_name};
use deskpilot_core::escape;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::outcome::{Failure, ToolOutcome};

/// A step's text is cut at this many characters (the result is what an agent reads).
const TEXT_CHARS: usize = 300;

/// How a step ended (not run: after a failure, a cancel or the deadline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Passed,
    Failed,
    NotRun,
    /// Its `when` did not hold: not needed, not failed.
    Skipped,
}

impl StepStatus {
    pub fn name(self) -> &'static str {
        match self {
            StepStatus::Passed => "passed",
            StepStatus::Failed => "failed",
            StepStatus::NotRun => "not_run",
            StepStatus::Skipped => "skipped",
        }
    }
}

/// How a restore ended: restored (changed back, and read back), unchanged (it already
/// held), failed, or not captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RestoreStatus {
    Restored,
    Unchanged,
    Failed,
    NotCaptured,
}

impl RestoreStatus {
    pub fn name(self) -> &'static str {
        match self {
            RestoreStatus::Restored => "restored",
            RestoreStatus::Unchanged => "unchanged",
            RestoreStatus::Failed => "failed",
            RestoreStatus::NotCaptured => "not_captured",
        }
    }
}

/// How one step went.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct StepOut {
    pub id: String,
    pub tool: String,
    pub status: StepStatus,
    pub attempts: u32,
    pub ms: u64,
    /// The tool's text, cut at 300 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// An action's effect (confirmed, unverified, noop) and route.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// held (after how long), or why the step is not done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect: Option<String>,
    /// Why it failed (the run's failure gives the first failure's hint too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip)]
    #[schemars(skip)]
    pub failure: Option<Failure>,
    /// The tool's whole result, when the step asked for it (`output: true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

impl StepOut {
    pub fn not_run(id: &str, tool: &str) -> Self {
        StepOut {
            id: id.to_owned(),
            tool: tool.to_owned(),
            status: StepStatus::NotRun,
            attempts: 0,
            ms: 0,
            text: None,
            effect: None,
            route: None,
            expect: None,
            code: None,
            message: None,
            failure: None,
            output: None,
        }
    }

    /// Its failure's code and message in its fields.
    pub fn settled(mut self) -> Self {
        self.code = self.failure.as_ref().map(|f| f.code.clone());
        self.message = self.failure.as_ref().map(|f| f.message.clone());
        self
    }

    /// Whether the run may go on after it: it passed, or was not needed.
    pub fn passed(&self) -> bool {
        matches!(self.status, StepStatus::Passed | StepStatus::Skipped)
    }

    /// Fills in what the tool's outcome says.
    pub fn read_outcome(&mut self, outcome: &ToolOutcome) {
        self.text = (!outcome.text.is_empty()).then(|| cut(&outcome.text));
        self.effect = outcome
            .acted
            .as_ref()
            .map(|a| effect_name(a.effect).to_owned());
        self.route = outcome
            .acted
            .as_ref()
            .and_then(|a| a.route)
            .map(|r| rung_name(r).to_owned());
        self.failure = outcome.failure.clone();
    }
}

/// `text` cut at `TEXT_CHARS` characters, saying so.
fn cut(text: &str) -> String {
    match text.char_indices().nth(TEXT_CHARS) {
        Some((at, _)) => format!("{}... (cut)", &text[..at]),
        None => text.to_owned(),
    }
}

/// A whole run.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RunOut {
    /// For continue_run.
    pub run_id: String,
    /// Every step passed.
    pub passed: bool,
    pub steps: Vec<StepOut>,
    /// The first step that failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_step: Option<String>,
    /// Captured states put back, last captured first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub restores: Vec<RestoreOut>,
    /// The cleanup steps; their failures never replace the first failure.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub finally: Vec<StepOut>,
    pub elapsed_ms: u64,
    /// Stopped early: cancelled, or the deadline passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// What the run did beside its elements: raised_window, pointer_moved,
    /// foreground_changed (the active window changed); in give_back mode what it gave back
    /// (foreground_given_back, pointer_given_back, or why not).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub interaction: Vec<String>,
}

/// The run in lines: a headline, then one line per step and per cleanup.
pub fn text(run: &RunOut) -> String {
    let count = |status: StepStatus| run.steps.iter().filter(|s| s.status == status).count();
    let skipped = match count(StepStatus::Skipped) {
        0 => String::new(),
        n => format!(", {n} skipped"),
    };
    let mut lines = vec![format!(
        "run {}: {} in {} ms ({} passed, {} failed, {} not run{skipped}){}{}",
        run.run_id,
        if run.passed { "passed" } else { "failed" },
        run.elapsed_ms,
        count(StepStatus::Passed),
        count(StepStatus::Failed),
        count(StepStatus::NotRun),
        run.stopped
            .as_ref()
            .map(|s| format!("; stopped: {s}"))
            .unwrap_or_default(),
        if run.interaction.is_empty() {
            "; took no foreground".to_owned()
        } else {
            format!("; {}", run.interaction.join(", "))
        }
    )];
    let line = |s: &StepOut| {
        let mut line = format!(
            "{} {} ({})",
            s.status.name(),
            escape::quoted(&s.id, 60),
            s.tool
        );
        if s.attempts > 1 {
            line.push_str(&format!(" after {} tries", s.attempts));
        }
        if let Some(effect) = &s.effect {
            line.push_str(&format!(" {effect}"));
        }
        if let Some(expect) = &s.expect {
            line.push_str(&format!("; expect {expect}"));
        }
        if let Some(f) = &s.failure {
            line.push_str(&format!("; {}: {}", f.code, f.message));
        }
        line
    };
    lines.extend(run.steps.iter().map(|s| format!("  {}", line(s))));
    for r in &run.restores {
        lines.push(format!(
            "  restore of {} ({}): {}{}",
            escape::quoted(&r.target, 60),
            r.step,
            r.status.name(),
            r.message
                .as_ref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        ));
    }
    lines.extend(run.finally.iter().map(|s| format!("  finally {}", line(s))));
    lines.join("\n")
}

/// How one restore went.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RestoreOut {
    pub step: String,
    pub target: String,
    pub status: RestoreStatus,
    /// What was set back (`value`, `checked: on`, ...; a value's text is never shown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<String>,
    /// The state read afterwards equals the one captured.
    pub verified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// What its actions did beside the element (raised_window, pointer_moved).
    #[serde(skip)]
    #[schemars(skip)]
    pub interaction: Vec<&'static str>,
}
