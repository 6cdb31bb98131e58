//! A recording as a pipeline for `deskpilot run` / `run_steps`. The app is started and
//! connected to as the session had it. Then each call is a step on its locator, with the
//! `expect` its effect earned (the first thing read back that a condition can say).

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::ExportError;
use super::plan::{Plan, Planned, Step};
use crate::record::line::{Evidence, Header};

/// The id of the step that connects; later steps name its session.
const CONNECT: &str = "app";

/// A step as a person writes one: its id and tool first.
#[derive(Serialize)]
struct Written {
    id: String,
    tool: String,
    args: Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expect: Option<Value>,
}

fn written(id: &str, tool: &str, args: Map<String, Value>) -> Written {
    Written {
        id: id.to_owned(),
        tool: tool.to_owned(),
        args,
        expect: None,
    }
}

#[derive(Serialize)]
struct Spec {
    steps: Vec<Written>,
}

/// The pipeline's JSON text.
pub fn pipeline(header: &Header, plan: &Plan) -> Result<String, ExportError> {
    let mut steps = Vec::new();
    if let Some(argv) = &header.app.launched {
        let mut args = Map::new();
        args.insert("argv".into(), json!(argv));
        steps.push(written("start", "launch_app", args));
    }
    let mut connect = header.connect.clone();
    connect.remove("window_id");
    if connect.is_empty() {
        connect.insert("app".into(), Value::String(header.app.name.clone()));
    }
    steps.push(written(CONNECT, "connect", connect));
    for (index, step) in plan.steps.iter().enumerate() {
        if let Step::Call(planned) = step {
            steps.push(one(planned, index + 1)?);
        }
    }
    let spec = Spec { steps };
    Ok(format!(
        "{}\n",
        serde_json::to_string_pretty(&spec).unwrap_or_default()
    ))
}

/// One call as a step: its session the connected one, its elements their locators.
fn one(planned: &Planned, n: usize) -> Result<Written, ExportError> {
    let entry = &planned.entry;
    let mut args: Map<String, Value> = entry.args.clone();
    let secret = args
        .values()
        .any(|v| v.as_str().is_some_and(|t| t.starts_with("${secret.")));
    if secret {
        return Err(ExportError::Call {
            seq: entry.seq,
            tool: entry.tool.clone(),
            why: "it typed a secret, which a pipeline cannot hold: export it `--as test`".into(),
        });
    }
    args.insert(
        "session".into(),
        Value::String(format!("${{{CONNECT}.session}}")),
    );
    for (arg, locator) in &planned.elements {
        args.insert(arg.clone(), Value::String(escaped(locator)));
    }
    let mut step = written(&format!("{}_{n}", entry.tool), &entry.tool, args);
    let target = planned.elements.iter().find(|(a, _)| a == "target");
    let earned = match entry.effect.as_deref() {
        Some("confirmed") => entry
            .evidence
            .iter()
            .find_map(|e| expect(e, target.map(|(_, l)| l.as_str()))),
        _ => None,
    };
    step.expect = earned;
    Ok(step)
}

/// What was read back as a step's condition.
pub(super) fn expect(evidence: &Evidence, target: Option<&str>) -> Option<Value> {
    let window = |role: &str, title: &str| {
        format!("{role}[name={}]", deskpilot_core::selector::quote(title))
    };
    Some(match evidence {
        Evidence::State { state, on } => {
            let state = if *on {
                state.clone()
            } else {
                format!("!{state}")
            };
            json!({"selector": escaped(target?), "state": state})
        }
        Evidence::Value { value } => json!({"selector": escaped(target?), "value": value}),
        Evidence::Gone => json!({"selector": escaped(target?), "until": "disappears"}),
        Evidence::WindowOpened { role, title } => {
            json!({"selector": escaped(&window(role, title))})
        }
        Evidence::WindowClosed { role, title } => {
            json!({"selector": escaped(&window(role, title)), "until": "disappears"})
        }
        Evidence::Name { .. } => return None,
    })
}

/// `text` with each `$` doubled: a pipeline reads `${...}` in it as a reference.
fn escaped(text: &str) -> String {
    text.replace('$', "$$")
}
