//! The pipeline tools: `run_steps`, `continue_run`, `validate_steps`. Listed on every
//! server: a run's steps pass the same gate as calls, so a read-only server runs pipelines
//! that only read, and refuses the others before their first step.

use std::collections::HashMap;

use deskpilot_core::model::ElementId;
use deskpilot_core::{Code, Error};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::success;
use crate::call::Cx;
use crate::outcome::{Failure, ToolOutcome, invalid_arguments};
use crate::pipeline::report::{self, RunOut};
use crate::pipeline::spec::RunStepsArgs;
use crate::pipeline::trace::Trace;
use crate::pipeline::validate::{Problem, validate_with};
use crate::runner::Runner;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContinueRunArgs {
    pub run_id: String,
    /// Default: the first step not passed.
    pub from: Option<String>,
    /// Secret steps' texts by id (never kept).
    pub secrets: Option<HashMap<String, String>>,
    /// Default: the run's.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValidateStepsArgs {
    /// As run_steps takes them.
    pub steps: Vec<Value>,
    pub finally: Option<Vec<Value>>,
    pub timeout_ms: Option<u64>,
    pub mode: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ValidateOut {
    pub valid: bool,
    pub problems: Vec<Problem>,
}

pub(crate) async fn run_steps(cx: &Cx<'_>, a: RunStepsArgs) -> Result<ToolOutcome, Error> {
    let spec = a;
    refuse_problems(cx, &spec, &[])?;
    let run_id = cx.call.client.runs().issue();
    let packs = cx.packs.current();
    let runner = Runner::new(cx, spec.timeout_ms(), Trace::default(), packs.clone());
    let (out, trace) = runner.run(&run_id, &spec, 0).await;
    cx.call.client.runs().keep(&run_id, &spec, trace, packs);
    Ok(answer(out))
}

pub(crate) async fn continue_run(cx: &Cx<'_>, a: ContinueRunArgs) -> Result<ToolOutcome, Error> {
    let kept = cx.call.client.runs().get(&a.run_id).ok_or_else(|| {
        Error::new(
            Code::UnknownRun,
            format!("no kept run {:?}", a.run_id),
            "runs are kept 10 minutes (the last 20): run the steps again with run_steps",
        )
    })?;
    let mut spec = kept.spec.clone();
    let from = match &a.from {
        Some(id) => spec
            .steps
            .iter()
            .position(|s| &s.id == id)
            .filter(|&i| i <= kept.trace.next)
            .ok_or_else(|| {
                invalid_arguments(format!("from: {id:?} is not a main step the run reached"))
            })?,
        None if kept.trace.next >= spec.steps.len() => {
            return Err(invalid_arguments(
                "the run passed: give `from` to run its steps again from one",
            ));
        }
        None => kept.trace.next,
    };
    let secrets = a.secrets.unwrap_or_default();
    let later: Vec<String> = spec.steps[from..]
        .iter()
        .chain(&spec.finally)
        .map(|s| s.id.clone())
        .collect();
    for (id, arg) in kept
        .secret_steps
        .iter()
        .filter(|(id, _)| later.contains(id))
    {
        let text = secrets.get(id).ok_or_else(|| {
            invalid_arguments(format!(
                "step {id:?} types secret text, which a run never keeps: give it in `secrets`"
            ))
        })?;
        let step = spec
            .steps
            .iter_mut()
            .chain(spec.finally.iter_mut())
            .find(|s| &s.id == id)
            .expect("a kept secret step is in its run");
        step.args.insert((*arg).into(), Value::String(text.clone()));
    }
    unchanged(cx, &kept.trace).await?;
    refuse_problems(cx, &spec, &kept.trace.bound())?;
    let mut trace = kept.trace.clone();
    let earlier: Vec<&str> = spec.steps[..from].iter().map(|s| s.id.as_str()).collect();
    let given = trace.given.clone();
    trace
        .results
        .retain(|id, _| earlier.contains(&id.as_str()) || given.contains(id));
    let timeout = a.timeout_ms.map_or_else(
        || spec.timeout_ms(),
        |t| t.clamp(1, crate::pipeline::spec::MAX_TIMEOUT_MS),
    );
    let runner = Runner::new(cx, timeout, trace, kept.packs.clone());
    let (out, trace) = runner.run(&a.run_id, &spec, from).await;
    cx.call.client.runs().update(&a.run_id, trace);
    Ok(answer(out))
}

pub(crate) async fn validate_steps(
    cx: &Cx<'_>,
    a: ValidateStepsArgs,
) -> Result<ToolOutcome, Error> {
    let raw = serde_json::json!({
        "steps": a.steps,
        "finally": a.finally.unwrap_or_default(),
        "timeout_ms": a.timeout_ms,
        "mode": a.mode,
    });
    let problems = match serde_json::from_value::<RunStepsArgs>(raw) {
        Ok(spec) => problems(cx, &spec, &[]),
        Err(e) => vec![Problem {
            step: None,
            problem: "invalid".into(),
            message: e.to_string(),
        }],
    };
    let text = if problems.is_empty() {
        "valid: no problem found".to_owned()
    } else {
        problem_lines(&problems)
    };
    Ok(success(
        text,
        ValidateOut {
            valid: problems.is_empty(),
            problems,
        },
    ))
}

fn problems(cx: &Cx<'_>, spec: &RunStepsArgs, bound: &[&str]) -> Vec<Problem> {
    validate_with(
        spec,
        &|name| cx.steps.known(name),
        &|c| cx.grants.has(c),
        bound,
    )
}

/// `invalid_arguments` listing the problems, before any step runs; steps may refer to
/// `bound` beside earlier steps.
pub(super) fn refuse_problems(
    cx: &Cx<'_>,
    spec: &RunStepsArgs,
    bound: &[&str],
) -> Result<(), Error> {
    let problems = problems(cx, spec, bound);
    if problems.is_empty() {
        return Ok(());
    }
    let needs = problems.iter().find(|p| p.problem == "needs_capability");
    let code = if needs.is_some() {
        Code::InputNotAllowed
    } else {
        Code::InvalidArguments
    };
    Err(Error::new(
        code,
        format!("no step ran: {}", problem_lines(&problems)),
        "fix the steps (`validate_steps` lists every problem) and run them again",
    ))
}

/// Refuses to go on when a session the run worked in, its app or its window is gone.
async fn unchanged(cx: &Cx<'_>, trace: &Trace) -> Result<(), Error> {
    let engine = cx.engine;
    for seen in &trace.sessions {
        let info = engine
            .session(&seen.session)
            .and_then(|s| s.info())
            .map_err(|_| {
                Error::new(
                    Code::UnknownSession,
                    format!("the run's session {} has ended", seen.session),
                    "run the steps again with run_steps",
                )
            })?;
        let app = match engine.backend().app(&seen.app).await {
            Ok(app) if info.app.id == seen.app => app,
            _ => {
                return Err(Error::new(
                    Code::AppGone,
                    format!(
                        "the app of session {} has exited since the run",
                        seen.session
                    ),
                    "start it again and run the steps again with run_steps",
                ));
            }
        };
        let now: Vec<&ElementId> = app.windows.iter().map(|w| &w.id).collect();
        if let Some((_, title)) = seen.windows.iter().find(|(w, _)| !now.contains(&w)) {
            return Err(Error::new(
                Code::WindowChanged,
                format!(
                    "window {} of session {} is gone or was replaced since the run",
                    deskpilot_core::escape::quoted(title, 80),
                    seen.session
                ),
                "open it again and run the steps again with run_steps",
            ));
        }
    }
    Ok(())
}

/// Problems, one line each (at most 10, saying how many more).
fn problem_lines(problems: &[Problem]) -> String {
    let mut lines: Vec<String> = problems
        .iter()
        .take(10)
        .map(|p| match &p.step {
            Some(step) => format!("step {step:?}: {} ({})", p.message, p.problem),
            None => format!("{} ({})", p.message, p.problem),
        })
        .collect();
    if problems.len() > 10 {
        lines.push(format!("and {} more", problems.len() - 10));
    }
    lines.join("; ")
}

/// A run's result: a success when every step passed, else a failure with the first
/// failure's code (or the cancel's, or the deadline's) and the whole run.
fn answer(out: RunOut) -> ToolOutcome {
    answered(out, |run| run)
}

/// `answer`, its structured content `wrap`'s of the run.
pub(super) fn answered<T: Serialize + JsonSchema>(
    out: RunOut,
    wrap: impl FnOnce(RunOut) -> T,
) -> ToolOutcome {
    let text = report::text(&out);
    if out.passed {
        return success(text, wrap(out));
    }
    let failure: Failure = out
        .failed_step
        .as_ref()
        .and_then(|id| out.steps.iter().find(|s| &s.id == id))
        .and_then(|s| s.failure.clone())
        .unwrap_or_else(|| {
            let cancelled = out.stopped.as_deref().is_some_and(|s| s.contains("cancel"));
            Failure::of(&Error::new(
                if cancelled {
                    Code::Cancelled
                } else {
                    Code::Timeout
                },
                out.stopped.clone().unwrap_or_default(),
                "continue the run (`continue_run`)",
            ))
        });
    ToolOutcome::failure_with(failure, text, wrap(out))
}
