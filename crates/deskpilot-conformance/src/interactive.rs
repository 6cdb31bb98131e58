//! The tools that talk to the client while they run: progress and log notifications (both
//! eras), and the 2025-11-25 session's requests back to the client (sampling, elicitation).
//! Each sends from the call's task, never a spawned one: rmcp puts what that task sends on
//! the call's response stream.

// Logging and sampling are deprecated after 2025-11-25 (SEP-2577); the suite still tests them.
#![allow(deprecated)]

use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::model::{
    CallToolResult, ContentBlock, CreateMessageRequestParams, ElicitRequestParams,
    ElicitationSchema, LoggingLevel, LoggingMessageNotificationParam, ProgressNotificationParam,
    ProtocolVersion, SamplingMessage,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

use crate::route::{Call, plain_tool, route, tool};

/// How long a tool waits between two notifications.
const PAUSE: Duration = Duration::from_millis(50);

type Answer = Result<CallToolResult, ErrorData>;

pub fn routes<S: Send + Sync + 'static>() -> Vec<ToolRoute<S>> {
    vec![
        route(
            plain_tool(
                "test_tool_with_progress",
                "Reports progress 0, 50 and 100 before it answers",
            ),
            progress,
        ),
        route(
            plain_tool(
                "test_tool_with_logging",
                "Logs three messages before it answers",
            ),
            logging,
        ),
        route(
            plain_tool(
                "test_logging_tool",
                "Logs one message, only at a level the request asks for",
            ),
            log_if_asked,
        ),
        route(
            tool(
                "test_sampling",
                "Asks the client's model to answer a prompt (2025-11-25)",
                json!({
                    "type": "object",
                    "properties": { "prompt": { "type": "string", "description": "What to ask" } },
                    "required": ["prompt"]
                }),
            ),
            sampling,
        ),
        route(
            tool(
                "test_elicitation",
                "Asks the user for a name and an email address (2025-11-25)",
                json!({
                    "type": "object",
                    "properties": { "message": { "type": "string", "description": "What to say" } },
                    "required": ["message"]
                }),
            ),
            elicitation,
        ),
        route(
            plain_tool(
                "test_elicitation_sep1034_defaults",
                "Asks the user for values that all have defaults (SEP-1034)",
            ),
            elicitation_defaults,
        ),
        route(
            plain_tool(
                "test_elicitation_sep1330_enums",
                "Asks the user to choose, in every enum form (SEP-1330)",
            ),
            elicitation_enums,
        ),
    ]
}

async fn progress(call: Call) -> Answer {
    let token = call.context.meta.get_progress_token();
    for (done, step) in [(0.0, "Starting"), (50.0, "Halfway"), (100.0, "Done")] {
        if let Some(token) = &token {
            let update = ProgressNotificationParam::new(token.clone(), done)
                .with_total(100.0)
                .with_message(step);
            let _ = call.context.peer.notify_progress(update).await;
        }
        tokio::time::sleep(PAUSE).await;
    }
    Ok(text("Progress test completed"))
}

async fn logging(call: Call) -> Answer {
    for message in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ] {
        log(&call.context, LoggingLevel::Info, message).await;
        tokio::time::sleep(PAUSE).await;
    }
    Ok(text("Logging test completed"))
}

/// On 2026-07-28, a message only when the request's `_meta` names a log level.
async fn log_if_asked(call: Call) -> Answer {
    if let Some(level) = call.context.meta.log_level() {
        log(&call.context, level, "a log level was asked for").await;
    }
    Ok(text("Logging tool completed"))
}

/// Sends `message` at `level`, if the client wants it. On 2026-07-28 it wants only what
/// the request's `_meta` asks for. Before, `logging/setLevel` is accepted and filters nothing.
async fn log(context: &RequestContext<RoleServer>, level: LoggingLevel, message: &str) {
    let stateless = context
        .protocol_version()
        .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
    let wanted = !stateless
        || context
            .meta
            .log_level()
            .is_some_and(|least| level as u8 >= least as u8);
    if wanted {
        let param = LoggingMessageNotificationParam::new(level, json!(message))
            .with_logger("deskpilot-conformance");
        let _ = context.peer.notify_logging_message(param).await;
    }
}

/// A failure to reach the client is a tool result too: a protocol error would end the
/// scenario before its checks.
async fn sampling(call: Call) -> Answer {
    let prompt = call
        .arguments
        .get("prompt")
        .and_then(|p| p.as_str())
        .unwrap_or("Hello");
    let request = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], 100);
    Ok(match call.context.peer.create_message(request).await {
        Ok(answer) => {
            let said = answer.message.content.first().and_then(|c| c.as_text());
            text(format!(
                "LLM response: {}",
                said.map_or("(no text)", |t| t.text.as_str())
            ))
        }
        Err(e) => CallToolResult::error(vec![ContentBlock::text(format!("sampling failed: {e}"))]),
    })
}

async fn elicitation(call: Call) -> Answer {
    let message = call
        .arguments
        .get("message")
        .and_then(|m| m.as_str())
        .unwrap_or("Please provide your information");
    let schema = json!({
        "type": "object",
        "properties": {
            "username": { "type": "string", "description": "User's response" },
            "email": { "type": "string", "description": "User's email address" }
        },
        "required": ["username", "email"]
    });
    elicit(&call, message, schema).await
}

/// SEP-1034: a default for every primitive type.
async fn elicitation_defaults(call: Call) -> Answer {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": { "type": "string", "description": "User name", "default": "John Doe" },
            "age": { "type": "integer", "description": "User age", "default": 30 },
            "score": { "type": "number", "description": "User score", "default": 95.5 },
            "status": {
                "type": "string",
                "description": "User status",
                "enum": ["active", "inactive", "pending"],
                "default": "active"
            },
            "verified": {
                "type": "boolean",
                "description": "Verification status",
                "default": true
            }
        },
        "required": []
    });
    elicit(&call, "Please review these values", schema).await
}

/// SEP-1330: single and multiple choice, with and without titles, and the legacy form.
async fn elicitation_enums(call: Call) -> Answer {
    let titled = |first: &str, second: &str, third: &str| {
        json!([
            { "const": "value1", "title": first },
            { "const": "value2", "title": second },
            { "const": "value3", "title": third }
        ])
    };
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {
                "type": "string",
                "description": "Select one option",
                "enum": ["option1", "option2", "option3"]
            },
            "titledSingle": {
                "type": "string",
                "description": "Select one option with titles",
                "oneOf": titled("First Option", "Second Option", "Third Option")
            },
            "legacyEnum": {
                "type": "string",
                "description": "Select one option (legacy)",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {
                "type": "array",
                "description": "Select multiple options",
                "minItems": 1,
                "maxItems": 3,
                "items": { "type": "string", "enum": ["option1", "option2", "option3"] }
            },
            "titledMulti": {
                "type": "array",
                "description": "Select multiple options with titles",
                "minItems": 1,
                "maxItems": 3,
                "items": { "anyOf": titled("First Choice", "Second Choice", "Third Choice") }
            }
        },
        "required": []
    });
    elicit(&call, "Please choose", schema).await
}

/// Asks the user, with a form of `schema`; the answer, or the failure, as a tool result.
async fn elicit(call: &Call, message: &str, schema: serde_json::Value) -> Answer {
    let requested_schema: ElicitationSchema = serde_json::from_value(schema)
        .map_err(|e| ErrorData::internal_error(format!("a fixture's schema: {e}"), None))?;
    let request = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.to_owned(),
        requested_schema,
    };
    Ok(match call.context.peer.create_elicitation(request).await {
        Ok(answer) => text(format!(
            "Elicitation completed: {}",
            serde_json::to_string(&answer).unwrap_or_default()
        )),
        Err(e) => {
            CallToolResult::error(vec![ContentBlock::text(format!("elicitation failed: {e}"))])
        }
    })
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}
