//! A recording as an app pack workflow. Each element is a control of the pack, its locator
//! the control's selector. Each text the agent typed is an input, its recorded text the
//! default (a secret a required input with none). Each confirmed state is the step's
//! `expect` on the control. What is written is the workflow and the `controls.json` entries
//! it needs.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::ExportError;
use super::plan::{Plan, Planned, Step};
use crate::record::line::{Evidence, Header};

/// The workflow and the controls it names.
#[derive(Serialize)]
struct Written {
    /// Entries for the pack's `controls.json`.
    controls: BTreeMap<String, Value>,
    /// An entry for the pack's `workflows.json`.
    workflow: Value,
}

/// What the workflow is being made of: controls by locator, inputs, steps.
#[derive(Default)]
struct Making {
    /// Locator to control name.
    controls: BTreeMap<String, String>,
    inputs: Map<String, Value>,
    required: Vec<String>,
    steps: Vec<Value>,
}

impl Making {
    /// The control `locator` is, named once.
    fn control(&mut self, locator: &str) -> String {
        if let Some(name) = self.controls.get(locator) {
            return format!("@{name}");
        }
        let taken = |n: &str| self.controls.values().any(|v| v == n);
        let name = free(control_name(locator), taken);
        self.controls.insert(locator.to_owned(), name.clone());
        format!("@{name}")
    }

    /// An input for the text `value` of a step on `control`.
    fn input(&mut self, value: &str, control: &str) -> String {
        let base = format!("{}_text", control.trim_start_matches('@'));
        let name = free(base, |n| self.inputs.contains_key(n));
        match value.strip_prefix("${secret.") {
            Some(_) => {
                self.inputs.insert(name.clone(), json!({"type": "string", "description": "A secret: give it as an input, never in the pack."}));
                self.required.push(name.clone());
            }
            None => {
                self.inputs
                    .insert(name.clone(), json!({"type": "string", "default": value}));
            }
        }
        format!("${{inputs.{name}}}")
    }
}

/// `base`, or `base_2`, `base_3`, ... when `taken` says it is.
fn free(base: String, taken: impl Fn(&str) -> bool) -> String {
    let numbered = |n: u32| match n {
        1 => base.clone(),
        n => format!("{base}_{n}"),
    };
    (1..).map(numbered).find(|n| !taken(n)).unwrap_or_default()
}

/// The workflow's JSON text: `{controls, workflow}`.
pub fn workflow(header: &Header, plan: &Plan) -> Result<String, ExportError> {
    let mut making = Making::default();
    for (index, step) in plan.steps.iter().enumerate() {
        if let Step::Call(planned) = step {
            let step = one(&mut making, planned, index + 1);
            making.steps.push(step);
        }
    }
    let controls = making
        .controls
        .iter()
        .map(|(locator, name)| {
            (
                name.clone(),
                json!({"selectors": [locator], "confidence": "verified"}),
            )
        })
        .collect();
    let app = crate::packs::probe::logical_name("", &header.app.name);
    let workflow = json!({
        "id": format!("{}_recorded", app.trim_start_matches('_')),
        "description": format!("What an agent did in {}, recorded.", header.app.name),
        "inputs": {
            "type": "object",
            "properties": making.inputs,
            "required": making.required,
            "additionalProperties": false
        },
        "steps": making.steps
    });
    let written = Written { controls, workflow };
    Ok(format!(
        "{}\n",
        serde_json::to_string_pretty(&written).unwrap_or_default()
    ))
}

/// One call as a workflow step on controls.
fn one(making: &mut Making, planned: &Planned, n: usize) -> Value {
    let entry = &planned.entry;
    let mut args = entry.args.clone();
    args.insert("session".into(), Value::String("${session}".into()));
    let mut target = None;
    for (arg, locator) in &planned.elements {
        let control = making.control(locator);
        if arg == "target" {
            target = Some(control.clone());
        }
        args.insert(arg.clone(), Value::String(control));
    }
    let on = target.clone().unwrap_or_else(|| "focused".into());
    let mut secret = false;
    for key in ["text", "value"] {
        if let Some(Value::String(text)) = args.get(key).cloned() {
            secret |= text.starts_with("${secret.");
            let input = making.input(&text, &on);
            args.insert(key.into(), Value::String(input));
        }
    }
    if secret {
        args.insert("secret".into(), Value::Bool(true));
    }
    let mut step = Map::new();
    step.insert("id".into(), json!(format!("{}_{n}", entry.tool)));
    step.insert("tool".into(), json!(entry.tool));
    step.insert("args".into(), Value::Object(args));
    let earned = match entry.effect.as_deref() {
        Some("confirmed") if !secret => entry
            .evidence
            .iter()
            .find_map(|e| expect(e, target.as_deref())),
        _ => None,
    };
    if let Some(expect) = earned {
        step.insert("expect".into(), expect);
    }
    Value::Object(step)
}

/// What was read back as the step's condition on its control: a state, or its going. A
/// value read back is the input's, which the step's tool already checks.
fn expect(evidence: &Evidence, target: Option<&str>) -> Option<Value> {
    match evidence {
        Evidence::State { .. } | Evidence::Gone => super::pipeline::expect(evidence, target),
        _ => None,
    }
}

/// A control's name from its locator: its last step's role and name words.
fn control_name(locator: &str) -> String {
    let last = locator.rsplit(">>").next().unwrap_or(locator).trim();
    let role_end = last.find(['[', ':']).unwrap_or(last.len());
    let role = if last[..role_end].is_empty() || &last[..role_end] == "*" {
        "element"
    } else {
        &last[..role_end]
    };
    let name = last
        .find("name")
        .map(|at| &last[at..])
        .and_then(|rest| rest.split('"').nth(1))
        .unwrap_or("");
    crate::packs::probe::logical_name(role, name)
}
