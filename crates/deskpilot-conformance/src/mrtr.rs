//! The 2026-07-28 era's fixtures: what a stateless server needs from its client, asked with
//! an input-required result (SEP-2322) and answered in a retry of the same request. Also the
//! two tools the server-stateless scenario probes: a client capability the call needs, and an
//! elicitation that must stay a result, never a request on the response stream.

// Sampling and roots are deprecated after 2025-11-25 (SEP-2577); input requests still use them.
#![allow(deprecated)]

use std::sync::LazyLock;

use rmcp::ErrorData;
use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, CreateMessageRequest,
    CreateMessageRequestParams, ElicitRequest, ElicitRequestParams, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, InputRequest, InputRequests, InputRequiredResult,
    InputResponses, JsonObject, ListRootsRequest, PromptMessage, RequestStateCodec, Role,
    SamplingMessage,
};
use serde_json::{Value, json};

use crate::route::{Call, plain_tool, route};

/// The key that seals `requestState`. Each stateless request has its own server, so the key is
/// the same for all; a constant is enough in a build for tests.
const KEY: &[u8] = b"deskpilot conformance fixtures, not a secret";
const _: () = assert!(KEY.len() >= RequestStateCodec::MIN_KEY_LENGTH);

static CODEC: LazyLock<RequestStateCodec> = LazyLock::new(|| RequestStateCodec::new_unchecked(KEY));

type Answer = Result<CallToolResponse, ErrorData>;

pub fn routes<S: Send + Sync + 'static>() -> Vec<ToolRoute<S>> {
    vec![
        route(
            plain_tool(
                "test_input_required_result_elicitation",
                "Asks the user's name with an input request",
            ),
            elicitation,
        ),
        route(
            plain_tool(
                "test_input_required_result_sampling",
                "Asks the client's model with an input request",
            ),
            sampling,
        ),
        route(
            plain_tool(
                "test_input_required_result_list_roots",
                "Asks the client's roots with an input request",
            ),
            list_roots,
        ),
        route(
            plain_tool(
                "test_input_required_result_request_state",
                "Asks for a confirmation and keeps its progress in a sealed requestState",
            ),
            confirmation,
        ),
        route(
            plain_tool(
                "test_input_required_result_tampered_state",
                "Refuses a requestState it did not seal",
            ),
            confirmation,
        ),
        route(
            plain_tool(
                "test_input_required_result_multiple_inputs",
                "Asks for an elicitation, a sampling and the roots at once",
            ),
            multiple_inputs,
        ),
        route(
            plain_tool(
                "test_input_required_result_multi_round",
                "Asks twice, one question per round",
            ),
            multi_round,
        ),
        route(
            plain_tool(
                "test_input_required_result_capabilities",
                "Asks only with what the client declared it can answer",
            ),
            capabilities,
        ),
        route(
            plain_tool(
                "test_streaming_elicitation",
                "Asks for a value with an input request, never a request on the stream",
            ),
            streaming_elicitation,
        ),
        route(
            plain_tool(
                "test_missing_capability",
                "Needs the client's sampling capability",
            ),
            missing_capability,
        ),
    ]
}

async fn elicitation(call: Call) -> Answer {
    Ok(
        match said(&call.responses, "user_name", "name").and_then(Value::as_str) {
            Some(name) => done(format!("Hello, {name}!")),
            None => ask([("user_name", ask_name())], None),
        },
    )
}

async fn sampling(call: Call) -> Answer {
    Ok(match answer(&call.responses, "capital_question") {
        Some(answer) => done(format!(
            "Sampling response: {}",
            answer
                .get("content")
                .and_then(|c| c.get("text"))
                .and_then(Value::as_str)
                .unwrap_or("(no text)")
        )),
        None => ask(
            [(
                "capital_question",
                sample("What is the capital of France?", 100),
            )],
            None,
        ),
    })
}

async fn list_roots(call: Call) -> Answer {
    let Some(answer) = answer(&call.responses, "client_roots") else {
        return Ok(ask([("client_roots", roots())], None));
    };
    let uris: Vec<&str> = answer
        .get("roots")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|root| root.get("uri").and_then(Value::as_str))
        .collect();
    Ok(done(format!("Client roots: {}", uris.join(", "))))
}

/// A confirmation whose progress travels in `requestState`: a state this server did not seal
/// is refused.
async fn confirmation(call: Call) -> Answer {
    if let Some(state) = &call.state {
        open(state)?;
        if said(&call.responses, "confirm", "ok").is_some() {
            return Ok(done("state-ok: confirmed"));
        }
    }
    let confirm = elicit("Please confirm", "ok", "boolean");
    Ok(ask(
        [("confirm", confirm)],
        Some(seal(json!({ "step": "confirm" }))?),
    ))
}

async fn multiple_inputs(call: Call) -> Answer {
    if let Some(state) = &call.state {
        open(state)?;
        let keys = ["user_name", "greeting", "client_roots"];
        if keys
            .iter()
            .all(|key| answer(&call.responses, key).is_some())
        {
            return Ok(done("All inputs received"));
        }
    }
    let requests = [
        ("user_name", ask_name()),
        ("greeting", sample("Generate a greeting", 50)),
        ("client_roots", roots()),
    ];
    Ok(ask(requests, Some(seal(json!({ "step": "gather" }))?)))
}

/// Round 1 asks a name, round 2 a colour; the sealed state says which round is next.
async fn multi_round(call: Call) -> Answer {
    let round = match &call.state {
        None => 0,
        Some(state) => open(state)?
            .get("round")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    };
    let round = match round {
        1 if answer(&call.responses, "step1").is_some() => 2,
        2 if answer(&call.responses, "step2").is_some() => {
            return Ok(done("Multi-round flow complete"));
        }
        0 => 1,
        same => same,
    };
    let question = if round == 1 {
        (
            "step1",
            elicit("Step 1: What is your name?", "name", "string"),
        )
    } else {
        let colour = elicit("Step 2: What is your favorite color?", "color", "string");
        ("step2", colour)
    };
    Ok(ask([question], Some(seal(json!({ "round": round }))?)))
}

/// Asks only with the capabilities the request's `_meta` declares.
async fn capabilities(call: Call) -> Answer {
    let declared = call.context.client_capabilities().unwrap_or_default();
    let requests: Vec<(&str, InputRequest)> = [
        (declared.elicitation.is_some(), "user_name", ask_name()),
        (
            declared.sampling.is_some(),
            "greeting",
            sample("Generate a greeting", 50),
        ),
        (declared.roots.is_some(), "client_roots", roots()),
    ]
    .into_iter()
    .filter_map(|(declared, key, request)| declared.then_some((key, request)))
    .collect();
    if requests
        .iter()
        .all(|(key, _)| answer(&call.responses, key).is_some())
    {
        return Ok(done(format!(
            "Answered with {} declared capabilities",
            requests.len()
        )));
    }
    Ok(ask(requests, None))
}

async fn streaming_elicitation(_: Call) -> Answer {
    let value = elicit("Provide a value", "value", "string");
    Ok(ask([("streaming_elicitation", value)], None))
}

/// -32021 (HTTP 400) unless the request's `_meta` declares sampling.
async fn missing_capability(call: Call) -> Answer {
    let declared = call.context.client_capabilities().unwrap_or_default();
    if declared.sampling.is_none() {
        return Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_sampling().build(),
        ));
    }
    Ok(done("The client declared sampling"))
}

/// The input-required prompt: it asks for a context, then uses it.
pub(super) fn prompt(request: &GetPromptRequestParams) -> GetPromptResponse {
    let responses = &request.input_responses;
    match said(responses, "user_context", "context").and_then(Value::as_str) {
        Some(context) => GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            format!("Answer with this context in mind: {context}"),
        )])
        .with_description("A prompt built from the user's context")
        .into(),
        None => {
            let context = elicit("What context should the prompt use?", "context", "string");
            InputRequiredResult::new(Some(requests([("user_context", context)])), None).into()
        }
    }
}

/// The answer to the input request `key`: an object, or none (another value is no answer).
fn answer<'r>(responses: &'r Option<InputResponses>, key: &str) -> Option<&'r JsonObject> {
    responses.as_ref()?.get(key)?.as_object()
}

/// What an accepted elicitation `key` said for `field`.
fn said<'r>(responses: &'r Option<InputResponses>, key: &str, field: &str) -> Option<&'r Value> {
    answer(responses, key)?.get("content")?.get(field)
}

fn done(text: impl Into<String>) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text)]).into()
}

fn ask<'k>(
    asked: impl IntoIterator<Item = (&'k str, InputRequest)>,
    state: Option<String>,
) -> CallToolResponse {
    InputRequiredResult::new(Some(requests(asked)), state).into()
}

fn requests<'k>(asked: impl IntoIterator<Item = (&'k str, InputRequest)>) -> InputRequests {
    asked
        .into_iter()
        .map(|(key, request)| (key.to_owned(), request))
        .collect()
}

fn ask_name() -> InputRequest {
    elicit("What is your name?", "name", "string")
}

/// A form with one required field.
fn elicit(message: &str, field: &str, kind: &str) -> InputRequest {
    let schema = json!({
        "type": "object",
        "properties": { field: { "type": kind } },
        "required": [field]
    });
    InputRequest::Elicitation(ElicitRequest::new(
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: message.to_owned(),
            requested_schema: serde_json::from_value(schema).expect("a one-field form"),
        },
    ))
}

fn sample(prompt: &str, max_tokens: u32) -> InputRequest {
    InputRequest::CreateMessage(CreateMessageRequest::new(CreateMessageRequestParams::new(
        vec![SamplingMessage::user_text(prompt)],
        max_tokens,
    )))
}

fn roots() -> InputRequest {
    InputRequest::ListRoots(ListRootsRequest::default())
}

fn seal(state: Value) -> Result<String, ErrorData> {
    CODEC
        .seal_json(&state)
        .map_err(|e| ErrorData::internal_error(format!("sealing requestState: {e}"), None))
}

/// The state this server sealed; anything else is refused (-32602).
fn open(state: &str) -> Result<Value, ErrorData> {
    CODEC
        .open_json(state)
        .map_err(|_| ErrorData::invalid_params("requestState failed integrity verification", None))
}
