//! Tool results: success with structured content, failures as `isError` tool results with
//! `{ok: false, code, message, retryable, hint}`. Every output schema admits both shapes
//! (`schema.rs`).

use deskpilot_core::hint::in_tool_names;

use deskpilot_core::{Code, Error};
use rmcp::model::{CallToolResult, ContentBlock};
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
        text.push_str(deskpilot_core::present::tree_update(tree).trim_end());
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
