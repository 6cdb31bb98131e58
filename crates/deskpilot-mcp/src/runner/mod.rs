//! Running a pipeline on the server: each step's references resolved and type-checked, its
//! tool called as a client would call it (through the same gate), its `expect` waited for,
//! a retryable failure of a step safe to repeat tried again; then the captured states put
//! back and the cleanup steps run, whatever happened. The main steps stop at the first
//! failure, a cancel (at a step boundary) or the deadline; the cleanup keeps a share of the
//! deadline for itself.

use std::sync::Arc;
use std::time::Duration;

pub mod state;

use deskpilot_core::{Code, Error};
use rmcp::model::JsonObject;
use serde_json::Value;
use tokio::time::Instant;

use crate::call::{Call, Cx, Unknown, Wire};
use crate::catalog::Known;
use crate::condition::ConditionArgs;
use crate::outcome::{Failure, ToolOutcome};
use crate::packs::set::PackSet;
use crate::pipeline::refs;
use crate::pipeline::report::{RestoreOut, RunOut, StepOut, StepStatus};
use crate::pipeline::spec::{Capture, DEFAULT_DELAY_MS, Restore, RunStepsArgs, Step};
use crate::pipeline::trace::{SeenSession, Trace};
use crate::pipeline::validate::mismatch;
use state::Captured;

/// A kept step result larger than this is cut to its top-level scalars.
const KEPT_BYTES: usize = 1 << 20;
/// A run returns at most this much of its steps' results (`output: true`).
const OUTPUT_BYTES: usize = 512 << 10;
/// The share of the deadline kept for cleanup (restores and `finally`), at most 15 s.
const CLEANUP_SHARE: f64 = 0.2;
const CLEANUP_MAX: Duration = Duration::from_secs(15);

/// One run in progress.
pub struct Runner<'a> {
    cx: &'a Cx<'a>,
    /// The run's own call: its steps go through the gate as its client's, in its mode.
    call: Call,
    started: Instant,
    deadline: Instant,
    trace: Trace,
    captured: Vec<Captured>,
    done: u32,
    total: u32,
    /// What the steps did beside their elements.
    touched: std::collections::BTreeSet<String>,
    /// What is left of `OUTPUT_BYTES`.
    output_left: usize,
}

impl<'a> Runner<'a> {
    /// A run of `cx`'s call; its steps name controls by `packs` (the set the run started
    /// with), whatever a reload does meanwhile.
    pub fn new(cx: &'a Cx<'a>, timeout_ms: u64, trace: Trace, packs: Arc<PackSet>) -> Self {
        let started = Instant::now();
        let mut call = cx.call.clone();
        call.packs = Some(packs);
        Runner {
            cx,
            call,
            started,
            deadline: started + Duration::from_millis(timeout_ms),
            trace,
            captured: Vec::new(),
            done: 0,
            total: 0,
            touched: Default::default(),
            output_left: OUTPUT_BYTES,
        }
    }

    /// Runs `spec`'s main steps from `from`, then its cleanup; the report and what to keep.
    pub async fn run(mut self, run_id: &str, spec: &RunStepsArgs, from: usize) -> (RunOut, Trace) {
        self.total = (spec.steps.len() - from + spec.finally.len()) as u32;
        self.call.background = spec.background();
        let before = if spec.gives_back() {
            Some(self.cx.engine.foreground().await)
        } else {
            None
        };
        let cleanup_needed = !spec.finally.is_empty()
            || spec.steps[from..]
                .iter()
                .any(|s| s.capture_before.is_some());
        let whole = self.deadline - self.started;
        let reserve = if cleanup_needed {
            whole.mul_f64(CLEANUP_SHARE).min(CLEANUP_MAX)
        } else {
            Duration::ZERO
        };
        let main_deadline = self.deadline - reserve;
        let mut steps: Vec<StepOut> = spec.steps[..from]
            .iter()
            .map(|s| {
                let mut out = StepOut::not_run(&s.id, &s.tool);
                out.status = StepStatus::Passed;
                out.text = Some("passed in the run continued".into());
                out
            })
            .collect();
        let mut stopped = None;
        let mut failed_step = None;
        self.trace.next = spec.steps.len();
        for (index, step) in spec.steps.iter().enumerate().skip(from) {
            if failed_step.is_some() || stopped.is_some() {
                steps.push(StepOut::not_run(&step.id, &step.tool));
                continue;
            }
            if self.cx.wire.cancel.is_cancelled() {
                stopped = Some("cancelled by the client".to_owned());
            } else if Instant::now() >= main_deadline {
                stopped = Some("the run's deadline passed".to_owned());
            }
            if stopped.is_some() {
                self.trace.next = index;
                steps.push(StepOut::not_run(&step.id, &step.tool));
                continue;
            }
            let out = self.step(step, main_deadline, true).await;
            if !out.passed() {
                failed_step = Some(step.id.clone());
                self.trace.next = index;
            }
            steps.push(out);
        }
        let passed = failed_step.is_none() && stopped.is_none();
        // Cleanup runs to the run's own deadline, whatever stopped the steps.
        let restores = self.restores(passed).await;
        let mut finally = Vec::new();
        for step in &spec.finally {
            finally.push(self.cleanup_step(step).await);
        }
        if let Some(before) = before {
            // Given back only when the run took it: not when nothing changed.
            let given = self.cx.engine.give_back(before).await;
            self.touched.extend(given);
        }
        let out = RunOut {
            run_id: run_id.to_owned(),
            passed,
            steps,
            failed_step,
            restores,
            finally,
            elapsed_ms: self.started.elapsed().as_millis() as u64,
            stopped,
            interaction: self.touched.iter().cloned().collect(),
        };
        (out, self.trace)
    }

    /// The captured states put back that are due, last captured first.
    async fn restores(&mut self, passed: bool) -> Vec<RestoreOut> {
        let mut restores = Vec::new();
        for captured in self.captured.iter().rev() {
            let due = match captured.restore {
                Restore::Always => true,
                Restore::OnFailure => !passed,
                Restore::Never => false,
            };
            if !due {
                continue;
            }
            let restore = tokio::time::timeout_at(
                self.deadline,
                Box::pin(state::restore(self.cx.engine, &self.call, captured)),
            );
            let out = restore
                .await
                .unwrap_or_else(|_| RestoreOut::timed_out(captured));
            self.touched
                .extend(out.interaction.iter().map(|s| (*s).to_owned()));
            restores.push(out);
        }
        restores
    }

    /// A `finally` step, unless the run's deadline passed.
    async fn cleanup_step(&mut self, step: &Step) -> StepOut {
        if Instant::now() >= self.deadline {
            let mut out = StepOut::not_run(&step.id, &step.tool);
            out.text = Some("the run's deadline passed".into());
            return out;
        }
        self.step(step, self.deadline, false).await
    }

    /// The state `capture` names, read before `step` runs.
    async fn capture(&mut self, step: &Step, capture: &Capture, session: &str) {
        let target = refs::resolve(&Value::String(capture.target.clone()), &self.trace.results)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| capture.target.clone());
        let mut target = target;
        let named = self.named(session, &mut target).await;
        // Another client's session is not read (nor, then, restored): unknown here.
        let state = match named.and_then(|()| self.call.session(self.cx.engine, session)) {
            Ok(handle) => state::read(&handle, &target).await,
            Err(unknown) => Err(unknown),
        };
        self.captured.push(Captured {
            step: step.id.clone(),
            session: session.to_owned(),
            target,
            restore: capture.restore.unwrap_or(Restore::OnFailure),
            state,
        });
    }

    /// One step, tried as often as it may be.
    async fn step(&mut self, step: &Step, deadline: Instant, main: bool) -> StepOut {
        let started = Instant::now();
        let mut out = StepOut::not_run(&step.id, &step.tool);
        out.status = StepStatus::Failed;
        let args = match self.arguments(step) {
            Ok(args) => args,
            Err(e) => {
                out.failure = Some(Failure::of(&e));
                out.ms = started.elapsed().as_millis() as u64;
                self.progress(&out);
                return out.settled();
            }
        };
        let session = args
            .get("session")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let (Some(when), Some(session)) = (&step.when, &session) {
            match self.holds(&when.0, session, deadline).await {
                Ok(true) => {}
                Ok(false) => {
                    out.status = StepStatus::Skipped;
                    out.text = Some("skipped: its `when` did not hold".into());
                    out.ms = started.elapsed().as_millis() as u64;
                    self.progress(&out);
                    return out.settled();
                }
                Err(e) => {
                    out.failure = Some(Failure::of(&e));
                    out.ms = started.elapsed().as_millis() as u64;
                    self.progress(&out);
                    return out.settled();
                }
            }
        }
        if let (Some(capture), Some(session), true) = (&step.capture_before, &session, main) {
            self.capture(step, capture, session).await;
        }
        let tries = step
            .retry
            .unwrap_or(1)
            .clamp(1, crate::pipeline::spec::MAX_ATTEMPTS);
        let read_only = matches!(
            self.cx.steps.known(&step.tool),
            Some(Known::Listed {
                read_only: true,
                ..
            })
        );
        let repeatable = crate::pipeline::safety::repeatable(&step.tool, read_only, &args).is_ok();
        loop {
            out.attempts += 1;
            out.failure = None;
            out.expect = None;
            let result = self.call_within(step, args.clone(), deadline).await;
            match result {
                Err(e) => out.failure = Some(Failure::of(&e)),
                Ok(outcome) => {
                    out.read_outcome(&outcome);
                    self.touch(&outcome);
                    if out.failure.is_none() {
                        if let (Some(expect), Some(session)) = (&step.expect, &session) {
                            match self.expect(&expect.0, session, deadline).await {
                                Ok(held) => out.expect = Some(held),
                                Err(e) => {
                                    out.expect = Some("not held".into());
                                    out.failure = Some(Failure::of(&e));
                                }
                            }
                        }
                        if out.failure.is_none() {
                            self.passed(step, &mut out, session.as_deref(), outcome)
                                .await;
                            break;
                        }
                    }
                }
            }
            let retryable = out.failure.as_ref().is_some_and(|f| f.retryable);
            let delay = Duration::from_millis(DEFAULT_DELAY_MS);
            if !(retryable && repeatable && out.attempts < tries)
                || Instant::now() + delay >= deadline
                || self.cx.wire.cancel.is_cancelled()
            {
                break;
            }
            tokio::time::sleep(delay).await;
        }
        out.ms = started.elapsed().as_millis() as u64;
        self.progress(&out);
        out.settled()
    }

    /// The step's arguments with references resolved, each checked against the type its
    /// argument takes.
    fn arguments(&self, step: &Step) -> Result<JsonObject, Error> {
        let invalid = |message: String| {
            Error::new(
                Code::InvalidArguments,
                message,
                "fix the reference: it names an earlier step's result field (`${step.field.0.field}`)",
            )
        };
        let resolved = refs::resolve(&Value::Object(step.args.clone()), &self.trace.results)
            .map_err(|e| invalid(e.to_string()))?;
        let Value::Object(resolved) = resolved else {
            return Err(invalid("arguments are an object".into()));
        };
        if let Some(Known::Listed { schema, .. }) = self.cx.steps.known(&step.tool) {
            let properties = schema.get("properties").and_then(Value::as_object);
            for (name, value) in &step.args {
                let Some(reference) = refs::whole_reference(value) else {
                    continue;
                };
                let (Some(property), Some(got)) =
                    (properties.and_then(|p| p.get(name)), resolved.get(name))
                else {
                    continue;
                };
                if let Some(why) = mismatch(got, property) {
                    return Err(invalid(format!("{name} = {reference}: {why}")));
                }
            }
        }
        Ok(resolved)
    }

    /// Calls `step`'s tool as a client would, through the gate; the step runs to its end even when
    /// the run is cancelled (a cancelled run stops between steps), and reports no progress.
    async fn call(&self, step: &Step, args: JsonObject) -> Result<ToolOutcome, Error> {
        let tool = step.tool.as_str();
        let mut call = self.call.clone();
        call.step = Some(step.id.clone());
        let called = self.cx.steps.dispatch(call, tool, args, Wire::default());
        called.await.map_err(|Unknown| {
            Error::new(
                Code::InvalidArguments,
                format!("no tool {tool:?}"),
                "check the step's tool and arguments (`validate_steps`)",
            )
        })
    }

    /// `call`, failed `timeout` when the run's deadline passes first.
    async fn call_within(
        &self,
        step: &Step,
        args: JsonObject,
        deadline: Instant,
    ) -> Result<ToolOutcome, Error> {
        let called = tokio::time::timeout_at(deadline, self.call(step, args)).await;
        called.unwrap_or_else(|_| {
            Err(Error::new(
                Code::Timeout,
                "the run's deadline passed during this step",
                "give the run a longer timeout_ms, or split it",
            ))
        })
    }

    /// Keeps a passed step's result: for references, and in the report when it asked.
    async fn passed(
        &mut self,
        step: &Step,
        out: &mut StepOut,
        session: Option<&str>,
        outcome: ToolOutcome,
    ) {
        let kept = outcome.structured;
        if step.output == Some(true) {
            let size = serde_json::to_string(&kept).map_or(0, |t| t.len());
            if size <= self.output_left {
                self.output_left -= size;
                out.output = Some(kept.clone());
            } else {
                out.text = Some(format!(
                    "{} (its result is left out: a run returns at most 512 KiB of results)",
                    out.text.take().unwrap_or_default()
                ));
            }
        }
        self.seen(session, outcome.opened.as_deref()).await;
        let (kept, cut) = keep(kept);
        if cut {
            out.text = Some(format!(
                "{} (its result is over 1 MiB: only its top-level values can be referred to)",
                out.text.take().unwrap_or_default()
            ));
        }
        self.trace.results.insert(step.id.clone(), kept);
        out.status = StepStatus::Passed;
    }

    /// Waits for `expect` in `session` (its references resolved); a wait that ends in a
    /// timeout is `step_postcondition_timeout`.
    async fn expect(
        &self,
        expect: &ConditionArgs,
        session: &str,
        deadline: Instant,
    ) -> Result<String, Error> {
        match self.wait(expect, session, deadline, None).await {
            Ok(elapsed) => Ok(format!("held after {elapsed} ms")),
            Err(e) if e.code == Code::Timeout => Err(Error::new(
                Code::StepPostconditionTimeout,
                format!(
                    "the step's tool succeeded but its expect did not hold: {}",
                    e.message
                ),
                "check the expect against a fresh `snapshot`; the step may need longer (expect.timeout_ms) or another action",
            )),
            Err(e) => Err(e),
        }
    }

    /// Whether a step's `when` holds in `session` within its timeout (none: now).
    async fn holds(
        &self,
        when: &ConditionArgs,
        session: &str,
        deadline: Instant,
    ) -> Result<bool, Error> {
        let now = Duration::from_millis(when.timeout_ms.unwrap_or(0));
        match self.wait(when, session, deadline, Some(now)).await {
            Ok(_) => Ok(true),
            Err(e) if e.code == Code::Timeout => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Waits for `condition` in `session`, its references and controls resolved, at most
    /// `timeout` (else its own) and never past `deadline`; the milliseconds it took.
    async fn wait(
        &self,
        condition: &ConditionArgs,
        session: &str,
        deadline: Instant,
        timeout: Option<Duration>,
    ) -> Result<u64, Error> {
        let mut condition = self.resolved(condition)?;
        self.named(session, &mut condition.selector).await?;
        if let Some(within) = &mut condition.within {
            self.named(session, within).await?;
        }
        let wait = condition.wait()?;
        let timeout = timeout
            .unwrap_or(wait.timeout)
            .min(deadline.saturating_duration_since(Instant::now()));
        let handle = self.call.session(self.cx.engine, session)?;
        let waited = tokio::select! {
            waited = handle.wait_for(&wait.selector, wait.within.as_ref(), &wait.condition, timeout) => waited,
            _ = self.cx.wire.cancel.cancelled() => Err(Error::new(Code::Cancelled, "cancelled by the client while the step waited", "continue the run (`continue_run`)")),
        };
        waited.map(|outcome| outcome.elapsed_ms)
    }

    /// `selector` with the controls it names resolved in `session`.
    async fn named(&self, session: &str, selector: &mut String) -> Result<(), Error> {
        if deskpilot_packs::named::named(selector).is_empty() {
            return Ok(());
        }
        let packs = self
            .call
            .packs
            .clone()
            .unwrap_or_else(|| self.cx.packs.current());
        let engine = self.cx.engine;
        let (resolved, _) =
            crate::controls::resolve_text(engine, &self.call, &packs, session, selector).await?;
        *selector = resolved;
        Ok(())
    }

    /// `expect` with the references in its texts replaced by their values.
    fn resolved(&self, expect: &ConditionArgs) -> Result<ConditionArgs, Error> {
        let text = |field: &str, text: &str| -> Result<String, Error> {
            let invalid =
                |why: String| Error::new(Code::InvalidArguments, why, "fix the reference");
            match refs::resolve(&Value::String(text.to_owned()), &self.trace.results) {
                Ok(Value::String(resolved)) => Ok(resolved),
                Ok(_) => Err(invalid(format!(
                    "expect.{field}: the reference is not text"
                ))),
                Err(e) => Err(invalid(e.to_string())),
            }
        };
        let optional = |field: &str, value: &Option<String>| {
            value.as_deref().map(|t| text(field, t)).transpose()
        };
        Ok(ConditionArgs {
            selector: text("selector", &expect.selector)?,
            within: optional("within", &expect.within)?,
            until: expect.until,
            state: optional("state", &expect.state)?,
            value: optional("value", &expect.value)?,
            value_contains: optional("value_contains", &expect.value_contains)?,
            count: expect.count,
            timeout_ms: expect.timeout_ms,
        })
    }

    /// Notes the sessions a step worked in (its `session` argument, or the one it opened),
    /// with their app's windows then.
    async fn seen(&mut self, argument: Option<&str>, opened: Option<&str>) {
        for session in [argument, opened].into_iter().flatten() {
            if self.trace.sessions.iter().any(|s| s.session == session) {
                continue;
            }
            let engine = self.cx.engine;
            let Ok(info) = engine.session(session).and_then(|s| s.info()) else {
                continue;
            };
            let windows = match engine.backend().app(&info.app.id).await {
                Ok(app) => app.windows.into_iter().map(|w| (w.id, w.title)).collect(),
                Err(_) => Vec::new(),
            };
            self.trace.sessions.push(SeenSession {
                session: session.to_owned(),
                app: info.app.id,
                windows,
            });
        }
    }

    /// Notes what a step did beside its element.
    fn touch(&mut self, outcome: &ToolOutcome) {
        let Some(acted) = &outcome.acted else { return };
        let names = acted.interaction.names().into_iter().map(str::to_owned);
        self.touched.extend(names);
        if acted.foreground_changed == Some(true) {
            self.touched.insert("foreground_changed".into());
        }
    }

    /// Progress after each step, when the client asked for it.
    fn progress(&mut self, out: &StepOut) {
        self.done += 1;
        if let Some(progress) = &self.cx.wire.progress {
            let message = format!("{} {}", out.id, out.status.name());
            (progress.0)(f64::from(self.done), Some(f64::from(self.total)), message);
        }
    }
}

/// `value`, cut to its top-level scalars when it is larger than `KEPT_BYTES`, and whether
/// it was.
fn keep(value: Value) -> (Value, bool) {
    let size = serde_json::to_string(&value).map_or(0, |s| s.len());
    match value {
        Value::Object(map) if size > KEPT_BYTES => (
            Value::Object(
                map.into_iter()
                    .filter(|(_, v)| !v.is_array() && !v.is_object())
                    .collect(),
            ),
            true,
        ),
        other => (other, false),
    }
}
