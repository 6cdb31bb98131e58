//! Tool results: success with structured content, failures as `isError` tool results with
//! `{ok: false, code, message, retryable, hint}`. Every output schema admits both shapes.

use deskpilot_core::hint::in_tool_names;
use std::sync::Arc;

use deskpilot_core::{Code, Error};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use schemars::JsonSchema;
use serde::Serialize;

/// The failure half of every tool's output.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Failure {
    /// A stable code (`deskpilot_core::Code::ALL`; the README's "Failures" lists them all).
    pub code: String,
    pub message: String,
    /// Whether the same call may succeed if repeated later.
    pub retryable: bool,
    /// What to do next.
    pub hint: String,
}

/// What a tool returns: `ok` plus the success fields, or `ok: false` plus a `Failure`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Outcome<T: JsonSchema> {
    /// True on success; false on failure (then `code`, `message`, `retryable`, `hint`).
    pub ok: bool,
    #[serde(flatten)]
    pub result: Option<T>,
    #[serde(flatten)]
    pub failure: Option<Failure>,
}

/// The output schema of a tool whose success is `T`. Output schemas are for programs: their
/// descriptions are dropped, and a field that may be absent is never null (results drop
/// their null fields: `structured`). The catalog's size is a budget
/// (`the_catalog_stays_within_32_kib`).
pub fn output_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let mut schema = (*rmcp::handler::server::tool::schema_for_output::<Outcome<T>>()).clone();
    strip(&mut schema, true);
    for (_, v) in schema.iter_mut() {
        never_null(v);
    }
    Arc::new(schema)
}

/// A result's structured content: `outcome` without its null fields (an absent field says
/// the same in fewer tokens, and the output schemas declare no null).
fn structured<T: Serialize>(outcome: &T) -> serde_json::Value {
    let mut value = serde_json::to_value(outcome).expect("outcomes serialize");
    drop_nulls(&mut value);
    value
}

/// Removes every object member whose value is null (list items stay).
fn drop_nulls(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// A schema's `"type": [T, "null"]`, `enum` with null and `anyOf: [S, {"type": "null"}]`
/// without the null: results carry no null field.
fn never_null(value: &mut serde_json::Value) {
    use serde_json::{Value, json};
    if let Value::Object(map) = value {
        if let Some(Value::Array(types)) = map.get("type")
            && types.len() == 2
            && types.contains(&json!("null"))
        {
            let other = types.iter().find(|t| *t != &json!("null")).cloned();
            if let Some(other) = other {
                map.insert("type".into(), other);
            }
        }
        if let Some(Value::Array(values)) = map.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
        if let Some(Value::Array(any)) = map.get("anyOf").cloned()
            && any.len() == 2
            && any[1] == json!({"type": "null"})
            && let Value::Object(first) = &any[0]
        {
            map.remove("anyOf");
            for (k, v) in first {
                map.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        map.values_mut().for_each(never_null);
    } else if let Value::Array(items) = value {
        items.iter_mut().for_each(never_null);
    }
}

/// The input schema of a tool: what a model reads to call it, descriptions kept.
pub fn input_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let mut schema = (*rmcp::handler::server::tool::schema_for_type::<T>()).clone();
    strip(&mut schema, false);
    Arc::new(schema)
}

/// Removes what no host needs (`$schema`, the root `title`, number formats, and for outputs
/// the descriptions) and, for inputs, writes enums in place instead of behind `$ref` (the
/// catalog's size is a budget: every tool within 25 KB).
fn strip(schema: &mut JsonObject, output: bool) {
    use serde_json::Value;
    schema.remove("$schema");
    schema.remove("title");
    fn walk(value: &mut Value, output: bool) {
        match value {
            Value::Object(map) => {
                map.remove("format");
                if map.get("minimum").is_some_and(|m| m.as_f64() == Some(0.0)) {
                    map.remove("minimum");
                }
                if output && map.get("description").is_some_and(Value::is_string) {
                    map.remove("description");
                }
                for (_, v) in map.iter_mut() {
                    walk(v, output);
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| walk(v, output)),
            _ => {}
        }
    }
    for (_, v) in schema.iter_mut() {
        walk(v, output);
    }
    if !output {
        inline_enums(schema);
    }
}

/// Replaces `{"$ref": "#/$defs/E"}` (and `anyOf: [{$ref}, {type: null}]`) by E's enum when E
/// is a plain string enum, keeping the property's own description; drops `$defs` once unused.
fn inline_enums(schema: &mut JsonObject) {
    use serde_json::{Value, json};
    let Some(Value::Object(defs)) = schema.get("$defs").cloned() else {
        return;
    };
    let enum_of = |reference: &Value| -> Option<Value> {
        let name = reference.as_str()?.strip_prefix("#/$defs/")?;
        let def = defs.get(name)?;
        (def.get("type") == Some(&json!("string"))).then(|| def.get("enum").cloned())?
    };
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for (_, property) in properties.iter_mut() {
            let Value::Object(map) = property else {
                continue;
            };
            if let Some(values) = map.get("$ref").and_then(enum_of) {
                map.remove("$ref");
                map.insert("type".into(), json!("string"));
                map.insert("enum".into(), values);
            } else if let Some(Value::Array(any)) = map.get("anyOf").cloned()
                && any.len() == 2
                && any[1] == json!({"type": "null"})
                && let Some(Value::Array(mut values)) = any[0].get("$ref").and_then(enum_of)
            {
                values.push(Value::Null);
                map.remove("anyOf");
                map.insert("type".into(), json!(["string", "null"]));
                map.insert("enum".into(), Value::Array(values));
            }
        }
    }
    let text = serde_json::to_string(&schema).unwrap_or_default();
    if !text.contains("#/$defs/") {
        schema.remove("$defs");
    }
}

/// A success: `text` is what a model reads (compact), `value` the structured content (which
/// repeats the compact text in a field where the tool has one).
pub fn success<T: Serialize + JsonSchema>(text: String, value: T) -> CallToolResult {
    let outcome = Outcome {
        ok: true,
        result: Some(value),
        failure: None,
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured(&outcome));
    result
}

impl Failure {
    /// `error` as a tool's failure, its verbs in this face's words (tool names).
    pub fn of(error: &Error) -> Self {
        Failure {
            code: error.code.name().to_owned(),
            message: in_tool_names(&error.message),
            retryable: error.retryable(),
            hint: in_tool_names(&error.hint),
        }
    }
}

/// A failure as a tool result (not a protocol error).
pub fn failure(error: &Error) -> CallToolResult {
    let failure = Failure::of(error);
    let mut text = format!(
        "{} ({}): {} Hint: {}",
        failure.code,
        if failure.retryable {
            "retryable"
        } else {
            "not retryable"
        },
        failure.message,
        failure.hint
    );
    // What an action that failed after sending its input changed in the tree.
    if let Some(tree) = &error.tree {
        text.push('\n');
        text.push_str(tree.trim_end());
    }
    let outcome: Outcome<()> = Outcome {
        ok: false,
        result: None,
        failure: Some(failure),
    };
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured(&outcome));
    result
}

/// A failure that carries a result too (a pipeline stopped part way): `ok: false`, the
/// failure's fields and the result's.
pub fn failure_with<T: Serialize + JsonSchema>(
    failure: Failure,
    text: String,
    value: T,
) -> CallToolResult {
    let outcome = Outcome {
        ok: false,
        result: Some(value),
        failure: Some(failure),
    };
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured(&outcome));
    result
}

/// Arguments that do not fit the tool's schema (unknown or misspelled fields included).
pub fn invalid_arguments(message: impl Into<String>) -> Error {
    Error::new(
        Code::InvalidArguments,
        message,
        "check the argument names and types against the tool's inputSchema",
    )
}
