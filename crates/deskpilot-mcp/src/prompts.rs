//! Workflows as MCP prompts. Each listed workflow of a listed pack is a prompt named
//! `pack.workflow`, whose arguments are its inputs. `prompts/get` converts each argument
//! (text, as MCP sends them) to its input's type and checks the inputs as `run_workflow`
//! would. It answers with the message that asks for `run_workflow` with them.

use rmcp::ErrorData;
use rmcp::model::{GetPromptResult, JsonObject, Prompt, PromptArgument, PromptMessage, Role};
use serde_json::{Map, Value};

use crate::packs::format::{Pack, Visibility, Workflow};
use crate::packs::run;
use crate::packs::set::PackSet;

/// Every listed workflow of every listed pack, as a prompt.
pub fn listed(set: &PackSet) -> Vec<Prompt> {
    let mut prompts = Vec::new();
    for loaded in set.packs.values() {
        let pack = &loaded.pack;
        let workflows = pack.workflows.workflows.iter();
        for workflow in workflows.filter(|w| listed_workflow(pack, w)) {
            prompts.push(prompt(pack, workflow));
        }
    }
    prompts
}

fn prompt(pack: &Pack, workflow: &Workflow) -> Prompt {
    let required = required(workflow);
    let arguments: Vec<PromptArgument> = properties(workflow)
        .map(|(name, property)| {
            let mut argument = PromptArgument::new(name);
            argument.description = property
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .or_else(|| {
                    property
                        .get("type")
                        .map(|t| format!("a {}", t.as_str().unwrap_or("value")))
                });
            argument.required = Some(required.contains(&name.as_str()));
            argument
        })
        .collect();
    let name = pack
        .app
        .manifest
        .name
        .as_deref()
        .unwrap_or(&pack.app.manifest.id);
    let description = workflow
        .description
        .clone()
        .unwrap_or_else(|| format!("{name}: {}", workflow.id));
    Prompt::new(
        format!("{}.{}", pack.app.manifest.id, workflow.id),
        Some(description),
        Some(arguments),
    )
}

fn properties(workflow: &Workflow) -> impl Iterator<Item = (&String, &Value)> {
    let declared = workflow.inputs.get("properties").and_then(Value::as_object);
    declared.into_iter().flatten()
}

fn required(workflow: &Workflow) -> Vec<&str> {
    let list = workflow.inputs.get("required").and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The prompt `name` with `arguments`: the message asking for `run_workflow`.
pub fn get(
    set: &PackSet,
    name: &str,
    arguments: Option<JsonObject>,
) -> Result<GetPromptResult, ErrorData> {
    let invalid = |message: String| ErrorData::invalid_params(message, None);
    let (pack_id, workflow_id) = name
        .split_once('.')
        .ok_or_else(|| invalid(format!("no prompt {name:?} (prompts/list lists them)")))?;
    let (pack, workflow) = find(set, pack_id, workflow_id).map_err(invalid)?;
    if !listed_workflow(pack, workflow) {
        return Err(invalid(format!(
            "no prompt {name:?} (prompts/list lists them)"
        )));
    }
    let inputs = typed(workflow, arguments.unwrap_or_default()).map_err(invalid)?;
    let call = serde_json::json!({"pack": pack_id, "workflow": workflow_id, "inputs": inputs});
    let what = workflow.description.as_deref().unwrap_or(&workflow.id);
    let text = format!(
        "Run the workflow {workflow_id:?} of the app pack {pack_id:?} ({what}): call the tool run_workflow with {call}. If it fails, read its failure's hint; continue_run goes on from the failed step."
    );
    let message = PromptMessage::new_text(Role::User, text);
    Ok(GetPromptResult::new(vec![message]).with_description(what.to_owned()))
}

/// The pack `pack_id` and its workflow `workflow_id`.
fn find<'a>(
    set: &'a PackSet,
    pack_id: &str,
    workflow_id: &str,
) -> Result<(&'a Pack, &'a Workflow), String> {
    let pack = &set
        .get(pack_id)
        .ok_or_else(|| format!("no app pack {pack_id:?}"))?
        .pack;
    let workflow = pack
        .workflows
        .workflows
        .iter()
        .find(|w| w.id == workflow_id)
        .ok_or_else(|| format!("pack {pack_id:?} has no workflow {workflow_id:?}"))?;
    Ok((pack, workflow))
}

/// Whether a workflow is a prompt: it and its pack are listed.
fn listed_workflow(pack: &Pack, workflow: &Workflow) -> bool {
    pack.app.manifest.visibility == Visibility::Listed && workflow.visibility == Visibility::Listed
}

/// The inputs of `pack_id`'s `workflow_id` from text (a prompt's arguments, the CLI's
/// `--input NAME=VALUE`), each converted to its input's type and all checked by the schema.
pub fn text_inputs(
    set: &PackSet,
    pack_id: &str,
    workflow_id: &str,
    texts: JsonObject,
) -> Result<JsonObject, String> {
    let (_, workflow) = find(set, pack_id, workflow_id)?;
    typed(workflow, texts)
}

/// `arguments` converted to their inputs' types and checked by the input schema.
fn typed(workflow: &Workflow, arguments: JsonObject) -> Result<JsonObject, String> {
    let mut inputs = Map::new();
    for (key, value) in arguments {
        let property = workflow.inputs.get("properties").and_then(|p| p.get(&key));
        inputs.insert(key.clone(), converted(&key, value, property)?);
    }
    run::inputs(workflow, inputs).map_err(|problems| {
        let lines = run::problem_lines(&problems);
        format!("the inputs do not match the workflow's schema: {lines}")
    })
}

/// An argument as its input's type: MCP sends prompt arguments as text.
fn converted(key: &str, value: Value, property: Option<&Value>) -> Result<Value, String> {
    let Value::String(text) = value else {
        return Ok(value);
    };
    let kind = property.and_then(|p| p.get("type")).and_then(Value::as_str);
    // The text is not echoed: it may be a secret.
    let refused = |what: &str| format!("argument {key} is not {what}");
    Ok(match kind {
        Some("integer") => text
            .trim()
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| refused("an integer"))?,
        Some("number") => text
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| refused("a number"))?,
        Some("boolean") => match text.trim() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => return Err(refused("true or false")),
        },
        Some("array" | "object") => serde_json::from_str(&text).map_err(|_| refused("JSON"))?,
        _ => Value::String(text),
    })
}
