//! A workflow made ready to run. Its inputs are checked against their schema, its defaults
//! filled in first. The names it refers to beside earlier steps are filled in, its own
//! control names given its pack's, and the pack's contracts applied to its steps. What
//! comes out is a pipeline `run_steps` runs.

use std::collections::HashMap;

use deskpilot_core::{Code, Error};
use serde_json::{Map, Value};

use super::format::{Contract, Pack, Workflow};
use crate::condition::Expect;
use crate::pipeline::refs;
use crate::pipeline::spec::{Mode, RunStepsArgs, Step};
use deskpilot_packs::named;

/// The arguments that hold a selector or a target, where a control may be named.
pub const SELECTOR_ARGS: [&str; 5] = ["target", "selector", "within", "from", "to"];

/// One input that does not match the schema: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputProblem {
    /// A JSON pointer into the inputs (`/path`, `` for the whole).
    pub path: String,
    pub message: String,
}

/// Problems, `path: message` each (at most 10), joined by `; `.
pub fn problem_lines(problems: &[InputProblem]) -> String {
    let line = |p: &InputProblem| {
        let path = if p.path.is_empty() { "/" } else { &p.path };
        format!("{path}: {}", p.message)
    };
    let lines: Vec<String> = problems.iter().take(10).map(line).collect();
    lines.join("; ")
}

/// `given` with the schema's defaults for the properties left out, checked against it.
pub fn inputs(
    workflow: &Workflow,
    mut given: Map<String, Value>,
) -> Result<Map<String, Value>, Vec<InputProblem>> {
    let declared = workflow.inputs.get("properties").and_then(Value::as_object);
    for (name, property) in declared.into_iter().flatten() {
        if let Some(default) = property.get("default")
            && !given.contains_key(name)
        {
            given.insert(name.clone(), default.clone());
        }
    }
    let instance = Value::Object(given);
    let validator = jsonschema::draft202012::new(&workflow.inputs).map_err(|e| {
        vec![InputProblem {
            path: String::new(),
            message: format!("the workflow's input schema does not compile: {e}"),
        }]
    })?;
    let problems: Vec<InputProblem> = validator
        .iter_errors(&instance)
        // Masked: an input may be a secret, and its value is never echoed.
        .map(|e| InputProblem {
            path: e.instance_path().to_string(),
            message: e.masked().to_string(),
        })
        .collect();
    match instance {
        Value::Object(map) if problems.is_empty() => Ok(map),
        _ => Err(problems),
    }
}

pub use deskpilot_packs::resolve::recognises;

/// What a run of a workflow is given: its inputs, how it runs.
pub struct Given {
    pub inputs: Map<String, Value>,
    pub timeout_ms: Option<u64>,
    pub mode: Option<Mode>,
}

/// The names a workflow's steps refer to that the run is given when it starts (its
/// session, once known, and the environment), not filled in beforehand: a continued run
/// resolves them again, and a secret step keeps no environment value.
pub const AT_RUN: [&str; 2] = ["session", "env"];

/// `workflow` of `pack` as the pipeline `run_steps` runs: its inputs and pack filled in,
/// `${session}` and `${env.NAME}` left for the run (`AT_RUN`).
pub fn pipeline(pack: &Pack, workflow: &Workflow, given: Given) -> Result<RunStepsArgs, Error> {
    let values = HashMap::from([
        ("inputs".to_owned(), Value::Object(given.inputs)),
        (
            "pack".to_owned(),
            serde_json::json!({"id": pack.app.manifest.id}),
        ),
    ]);
    let id = &pack.app.manifest.id;
    let fill_step = |step: &Step| -> Result<Step, Error> {
        let mut step = fill(step, &values, id).map_err(|e| not_filled(&step.id, e))?;
        apply_contract(&mut step, pack);
        Ok(step)
    };
    let steps = workflow.steps.iter().map(fill_step);
    let finally = workflow.finally.iter().map(fill_step);
    Ok(RunStepsArgs {
        steps: steps.collect::<Result<_, _>>()?,
        finally: finally.collect::<Result<_, _>>()?,
        timeout_ms: given.timeout_ms.or(workflow.timeout_ms),
        mode: given.mode.or(pack.app.profile.interaction.map(Mode::from)),
    })
}

fn not_filled(step: &str, e: refs::RefError) -> Error {
    Error::new(
        Code::WorkflowInputInvalid,
        format!("step {step:?}: {e}"),
        "give the input the step needs (`packs {pack}` shows the workflow's inputs)",
    )
}

/// The environment variables `workflow`'s steps refer to, read with `env`; a missing one is
/// an error naming the step.
pub fn environment(
    workflow: &Workflow,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Map<String, Value>, Error> {
    let mut environment = Map::new();
    for (_, step) in workflow.placed("") {
        for r in references(step).into_iter().filter(|r| r.step == "env") {
            let [name] = r.path.as_slice() else { continue };
            let value = env(name).ok_or_else(|| {
                Error::new(
                    Code::InvalidArguments,
                    format!("step {:?} needs the environment variable {name}", step.id),
                    "set it in the server's environment and run the workflow again",
                )
            })?;
            environment.insert(name.clone(), Value::String(value));
        }
    }
    Ok(environment)
}

/// Every reference a step holds: its arguments, its expect, what it captures.
pub fn references(step: &Step) -> Vec<refs::Reference> {
    let mut holders = vec![Value::Object(step.args.clone())];
    let conditions = step.expect.iter().chain(&step.when);
    holders.extend(conditions.filter_map(|e| serde_json::to_value(e).ok()));
    holders.extend(
        step.capture_before
            .as_ref()
            .map(|c| Value::String(c.target.clone())),
    );
    holders
        .iter()
        .flat_map(|h| refs::references(h).unwrap_or_default())
        .collect()
}

/// `step` with `values` filled in (text put in a selector escaped as a quoted value's)
/// and its control names given `pack`'s.
fn fill(step: &Step, values: &HashMap<String, Value>, pack: &str) -> Result<Step, refs::RefError> {
    let mut step = step.clone();
    let filled = |t: &str, escape: &dyn Fn(&str) -> String| -> Result<String, refs::RefError> {
        match refs::fill(&Value::String(t.to_owned()), values, escape)? {
            Value::String(s) => Ok(s),
            other => Ok(other.to_string()),
        }
    };
    // A whole selector given as an input is the caller's; one written into a quoted value
    // stays inside the quotes (the validator refuses one written in elsewhere).
    let selector = |t: &str| -> Result<String, refs::RefError> {
        let whole = refs::whole_reference(&Value::String(t.to_owned())).is_some();
        let escape: &dyn Fn(&str) -> String = if whole {
            &refs::as_text
        } else {
            &refs::in_selector
        };
        Ok(named::qualify(&filled(t, escape)?, pack))
    };
    let mut args = Map::new();
    for (key, value) in &step.args {
        let value = match value {
            Value::String(t) if SELECTOR_ARGS.contains(&key.as_str()) => {
                Value::String(selector(t)?)
            }
            other => refs::fill(other, values, &refs::as_text)?,
        };
        args.insert(key.clone(), value);
    }
    step.args = args;
    for Expect(expect) in step.expect.iter_mut().chain(step.when.iter_mut()) {
        expect.selector = selector(&expect.selector)?;
        if let Some(within) = &mut expect.within {
            *within = selector(within)?;
        }
        let texts = [
            &mut expect.state,
            &mut expect.value,
            &mut expect.value_contains,
        ];
        for t in texts.into_iter().flatten() {
            *t = filled(t, &refs::as_text)?;
        }
    }
    if let Some(capture) = &mut step.capture_before {
        capture.target = selector(&capture.target)?;
    }
    Ok(step)
}

/// The pack's contract for what `step` does, applied: its expect when the step has none,
/// and no second try when it may not be sent again.
fn apply_contract(step: &mut Step, pack: &Pack) {
    let Some(contract) = pack
        .actions
        .contracts
        .iter()
        .find(|c| about(c, step, &pack.app.manifest.id))
    else {
        return;
    };
    if step.expect.is_none()
        && let Some(Expect(expect)) = &contract.expect
    {
        let mut expect = expect.clone();
        expect.selector = named::qualify(&expect.selector, &pack.app.manifest.id);
        step.expect = Some(Expect(expect));
    }
    if contract.safe_to_repeat == Some(false) {
        step.retry = None;
    }
}

/// Whether `contract` is about what `step` does: its tool (and verb) on its control.
fn about(contract: &Contract, step: &Step, pack: &str) -> bool {
    let control = format!("@{pack}/{}", contract.control);
    let target = step
        .args
        .get("target")
        .or_else(|| step.args.get("from"))
        .and_then(Value::as_str);
    let verb = match &contract.verb {
        Some(verb) => serde_json::to_value(verb).ok() == step.args.get("verb").cloned(),
        None => true,
    };
    step.tool == contract.tool.name() && target == Some(control.as_str()) && verb
}

/// The failure of `pack`'s name used on `app`, another app.
pub fn mismatch(pack: &Pack, app: &str) -> Error {
    deskpilot_packs::resolve::mismatch(&pack.app.manifest.id, app)
}
