//! `validate_steps`: everything about a pipeline that can be checked without running it,
//! as a list of problems each naming its step.

use deskpilot_core::Selector;
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::refs;
use super::safety;
use super::spec::{
    MAX_ATTEMPTS, MAX_FINALLY, MAX_STEPS, PIPELINE_TOOLS, Restore, RunStepsArgs, Step,
};
use crate::catalog::Known;
use crate::condition::ConditionArgs;
use crate::grants::Capability;

/// One thing wrong with a pipeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Problem {
    /// The step's id (none: the pipeline as a whole).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// What kind: too_many_steps, bad_id, duplicate_id, unknown_tool, not_a_step,
    /// needs_capability, unknown_argument, missing_argument, wrong_type, dangling_reference,
    /// unsafe_retry, bad_retry, bad_expect, bad_when, bad_capture, needs_foreground.
    pub problem: String,
    pub message: String,
}

impl Problem {
    fn new(step: Option<&str>, problem: &str, message: impl Into<String>) -> Self {
        Problem {
            step: step.map(str::to_owned),
            problem: problem.to_owned(),
            message: message.into(),
        }
    }
}

/// The problems of `spec` for a server that knows tools as `known` says and holds the
/// capabilities `granted` says; every step may also refer to the names `bound` (a pack
/// workflow's `${session}` and `${env.NAME}`, a pack's `${inputs.x}` and `${pack.id}`).
pub fn validate_with(
    spec: &RunStepsArgs,
    known: &dyn Fn(&str) -> Option<Known>,
    granted: &dyn Fn(Capability) -> bool,
    bound: &[&str],
) -> Vec<Problem> {
    let mut problems = Vec::new();
    if spec.steps.is_empty() {
        problems.push(Problem::new(None, "too_many_steps", "a run needs a step"));
    }
    if spec.steps.len() > MAX_STEPS || spec.finally.len() > MAX_FINALLY {
        problems.push(Problem::new(
            None,
            "too_many_steps",
            format!(
                "{} steps and {} cleanup steps: at most {MAX_STEPS} and {MAX_FINALLY}",
                spec.steps.len(),
                spec.finally.len()
            ),
        ));
    }
    let mut seen: Vec<&str> = Vec::new();
    let main_ids: Vec<&str> = spec.steps.iter().map(|s| s.id.as_str()).collect();
    for (index, (step, cleanup)) in spec.all_steps().enumerate() {
        let id = step.id.as_str();
        if !refs::is_step_id(id) {
            problems.push(Problem::new(
                Some(id),
                "bad_id",
                "an id is letters, digits, `_` and `-`, a letter or `_` first",
            ));
        }
        if seen.contains(&id) {
            problems.push(Problem::new(
                Some(id),
                "duplicate_id",
                "ids are unique in a run",
            ));
        }
        // What a step may refer to: the steps before it (a cleanup step: every main step,
        // which may not all have run, and the cleanup steps before it).
        let earlier: Vec<&str> = if cleanup {
            main_ids
                .iter()
                .copied()
                .chain(seen[main_ids.len()..].iter().copied())
                .collect()
        } else {
            main_ids[..index].to_vec()
        };
        let earlier: Vec<&str> = earlier.into_iter().chain(bound.iter().copied()).collect();
        check_step(step, &earlier, known, granted, &mut problems);
        if spec.background()
            && let Some(why) = safety::needs_foreground(&step.tool, &step.args)
        {
            problems.push(Problem::new(
                Some(id),
                "needs_foreground",
                format!("background mode: {why}"),
            ));
        }
        seen.push(id);
    }
    problems
}

fn check_step(
    step: &Step,
    earlier: &[&str],
    known: &dyn Fn(&str) -> Option<Known>,
    granted: &dyn Fn(Capability) -> bool,
    problems: &mut Vec<Problem>,
) {
    let id = Some(step.id.as_str());
    let mut problem = |kind: &str, message: String| problems.push(Problem::new(id, kind, message));
    // References, wherever a step may hold them.
    let mut holders: Vec<Value> = vec![Value::Object(step.args.clone())];
    for condition in step.expect.iter().chain(&step.when) {
        holders.push(serde_json::to_value(condition).unwrap_or_default());
    }
    if let Some(capture) = &step.capture_before {
        holders.push(Value::String(capture.target.clone()));
    }
    for holder in &holders {
        match refs::references(holder) {
            Ok(found) => {
                for r in found.iter().filter(|r| !earlier.contains(&r.step.as_str())) {
                    problem(
                        "dangling_reference",
                        format!("{r} names no step before this one"),
                    );
                }
            }
            Err(e) => problem("dangling_reference", e.to_string()),
        }
    }
    if PIPELINE_TOOLS.contains(&step.tool.as_str()) {
        problem(
            "not_a_step",
            format!("{} runs steps; it is not one", step.tool),
        );
        return;
    }
    let (schema, read_only) = match known(&step.tool) {
        None => {
            problem("unknown_tool", format!("no tool {:?}", step.tool));
            return;
        }
        Some(Known::Withheld(capability)) => {
            problem(
                "needs_capability",
                format!(
                    "{} needs the capability {} (`--allow {}`), which this server was not given",
                    step.tool,
                    capability.name(),
                    capability.name()
                ),
            );
            return;
        }
        Some(Known::Listed { schema, read_only }) => (schema, read_only),
    };
    for message in argument_problems(&step.args, &schema) {
        let kind = message.0;
        problem(kind, message.1);
    }
    if let Some(tries) = step.retry {
        if !(2..=MAX_ATTEMPTS).contains(&tries) {
            problem(
                "bad_retry",
                format!("retry is the tries in all: 2 to {MAX_ATTEMPTS}"),
            );
        }
        if let Err(why) = safety::repeatable(&step.tool, read_only, &step.args) {
            problem("unsafe_retry", why);
        }
    }
    let conditions = [
        ("bad_when", "a when", &step.when),
        ("bad_expect", "an expect", &step.expect),
    ];
    for (kind, what, condition) in conditions {
        let Some(condition) = condition else { continue };
        if let Err(why) = check_expect(&condition.0) {
            problem(kind, why);
        }
        if step.session_arg().is_none() {
            let why =
                format!("{what} waits in the step's session: the step needs a `session` argument");
            problem(kind, why);
        }
    }
    if let Some(capture) = &step.capture_before {
        if step.session_arg().is_none() {
            problem(
                "bad_capture",
                "capture_before reads in the step's session: the step needs a `session` argument"
                    .into(),
            );
        }
        if capture.restore != Some(Restore::Never) && !granted(Capability::Input) {
            problem(
                "needs_capability",
                "restoring a captured state acts on the app: it needs `--allow input` (or restore: never)"
                    .into(),
            );
        }
    }
}

/// The expectation's selector and condition, checked as `wait_for` would (references in
/// them are taken as they will be: text).
fn check_expect(expect: &ConditionArgs) -> Result<(), String> {
    // A control by name is resolved when the step runs.
    let literal =
        refs::references(&Value::String(expect.selector.clone())).is_ok_and(|r| r.is_empty());
    if literal && deskpilot_packs::named::named(&expect.selector).is_empty() {
        Selector::parse(&expect.selector).map_err(|e| e.message)?;
    }
    expect.condition().map(|_| ()).map_err(|e| e.message)
}

/// The arguments' problems against the tool's input schema: unknown and missing arguments,
/// and literal values of the wrong type or outside an enum (a reference's value is checked
/// when the step runs).
pub fn argument_problems(args: &JsonObject, schema: &JsonObject) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for (name, value) in args {
        let Some(property) = properties.get(name) else {
            out.push((
                "unknown_argument",
                format!(
                    "no argument {name:?}; it takes {}",
                    properties.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            ));
            continue;
        };
        // A null optional argument is taken as absent, as the tool takes it.
        let absent = value.is_null() && !required.contains(&name.as_str());
        if refs::whole_reference(value).is_some() || absent {
            continue;
        }
        if let Some(why) = mismatch(value, property) {
            out.push(("wrong_type", format!("{name}: {why}")));
        }
    }
    for required in required {
        if !args.contains_key(required) {
            out.push(("missing_argument", format!("{required} is required")));
        }
    }
    out
}

/// Why `value` does not fit `property` (`type` and `enum` only; `anyOf` fits when a branch
/// does).
pub fn mismatch(value: &Value, property: &Value) -> Option<String> {
    if let Some(branches) = property.get("anyOf").and_then(Value::as_array) {
        return branches
            .iter()
            .all(|b| mismatch(value, b).is_some())
            .then(|| format!("{} fits none of its forms", kind(value)));
    }
    if let Some(types) = property.get("type") {
        let types: Vec<&str> = match types {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let fits = types.iter().any(|t| match *t {
            "integer" => value.as_i64().is_some() || value.as_u64().is_some(),
            "number" => value.is_number(),
            other => kind(value) == other,
        });
        if !types.is_empty() && !fits {
            return Some(format!(
                "{} given, {} expected",
                kind(value),
                types.join(" or ")
            ));
        }
    }
    if let Some(allowed) = property.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        let names: Vec<String> = allowed.iter().map(Value::to_string).collect();
        return Some(format!("{value} is not one of {}", names.join(", ")));
    }
    None
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
