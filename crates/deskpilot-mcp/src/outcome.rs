//! Tool results: success with structured content, failures as `isError` tool results with
//! `{ok: false, code, message, retryable, hint}`. Every output schema admits both shapes
//! (`schema.rs`).

use deskpilot_core::hint::in_tool_names;

use base64::Engine as _;
use deskpilot_core::act::Interaction;
use deskpilot_core::{ActionReport, Code, Effect, Error, Rung, present};
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;

use crate::output::ActionOut;
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
fn structured<T: Serialize>(outcome: &T) -> Value {
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

/// What a tool call ended in, as types. It holds the text a model reads, the structured
/// content (the result's fields, or the failure's), and what a pipeline judges a step by.
/// `call_tool` turns it into the wire's result; a pipeline reads its fields, never its JSON.
#[derive(Debug, Clone)]
pub struct ToolOutcome {
    pub text: String,
    /// A PNG shown after the text (a screenshot without a path).
    pub image: Option<Vec<u8>>,
    /// The structured content: `{ok, ...}` without its null fields.
    pub structured: Value,
    pub failure: Option<Failure>,
    /// What an action did, when the tool acted.
    pub acted: Option<Acted>,
    /// The session the call opened (`connect`).
    pub opened: Option<String>,
    /// The pid of the app the call started (`launch_app`).
    pub started: Option<u32>,
}

/// What an action did: its effect, the rung that did it, and what it did beside its element.
#[derive(Debug, Clone)]
pub struct Acted {
    pub effect: Effect,
    pub route: Option<Rung>,
    pub interaction: Interaction,
    /// The active window changed (None: the window system could not tell).
    pub foreground_changed: Option<bool>,
    /// What changed, a line each, and as types.
    pub changes: Vec<String>,
    pub observed: Vec<deskpilot_core::act::Change>,
}

impl ToolOutcome {
    /// A success: `text` is what a model reads (compact), `value` the structured content
    /// (which repeats the compact text in a field where the tool has one).
    pub fn success<T: Serialize + JsonSchema>(text: String, value: T) -> Self {
        let outcome = Outcome {
            ok: true,
            result: Some(value),
            failure: None,
        };
        Self::of(text, structured(&outcome), None)
    }

    /// A failure (not a protocol error), with what the tree showed after a failed action.
    pub fn failure(error: &Error) -> Self {
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
        if let Some(tree) = &error.tree {
            text.push('\n');
            text.push_str(deskpilot_core::present::tree_update(tree).trim_end());
        }
        let outcome: Outcome<()> = Outcome {
            ok: false,
            result: None,
            failure: Some(failure.clone()),
        };
        Self::of(text, structured(&outcome), Some(failure))
    }

    /// A failure that carries a result too (a pipeline stopped part way): `ok: false`, the
    /// failure's fields and the result's.
    pub fn failure_with<T: Serialize + JsonSchema>(
        failure: Failure,
        text: String,
        value: T,
    ) -> Self {
        let outcome = Outcome {
            ok: false,
            result: Some(value),
            failure: Some(failure.clone()),
        };
        Self::of(text, structured(&outcome), Some(failure))
    }

    /// An action's report.
    pub fn acted(report: &ActionReport) -> Self {
        let mut outcome = Self::success(present::action(report), ActionOut::from(report));
        outcome.acted = Some(Acted {
            effect: report.effect,
            route: report.route.as_ref().map(|r| r.rung),
            interaction: report.interaction,
            foreground_changed: report.foreground_changed,
            changes: report.changes.clone(),
            observed: report.observed.clone(),
        });
        outcome
    }

    fn of(text: String, structured: Value, failure: Option<Failure>) -> Self {
        ToolOutcome {
            text,
            image: None,
            structured,
            failure,
            acted: None,
            opened: None,
            started: None,
        }
    }

    /// The result on the wire.
    pub fn into_result(self) -> CallToolResult {
        let mut content = vec![ContentBlock::text(self.text)];
        if let Some(png) = self.image {
            let data = base64::engine::general_purpose::STANDARD.encode(png);
            content.push(ContentBlock::image(data, "image/png"));
        }
        let mut result = match self.failure {
            None => CallToolResult::success(content),
            Some(_) => CallToolResult::error(content),
        };
        result.structured_content = Some(self.structured);
        result
    }
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

/// Arguments that do not fit the tool's schema (unknown or misspelled fields included).
pub fn invalid_arguments(message: impl Into<String>) -> Error {
    Error::new(
        Code::InvalidArguments,
        message,
        "check the argument names and types against the tool's inputSchema",
    )
}
