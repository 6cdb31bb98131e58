//! The tools whose answer is fixed content: text, image, audio, embedded resources, a mix, a
//! failure. Also the two tools the suite only lists or validates headers against.

use rmcp::ErrorData;
use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::json;

use crate::route::{Call, plain_tool, route, tool};

/// A 1x1 PNG, the suite's own.
pub(super) const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A silent WAV, the suite's own.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

type Answer = Result<CallToolResult, ErrorData>;

pub fn routes<S: Send + Sync + 'static>() -> Vec<ToolRoute<S>> {
    vec![
        route(
            plain_tool("test_simple_text", "Returns a simple text"),
            simple_text,
        ),
        route(
            plain_tool("test_image_content", "Returns a PNG image"),
            image,
        ),
        route(
            plain_tool("test_audio_content", "Returns a WAV sound"),
            audio,
        ),
        route(
            plain_tool(
                "test_embedded_resource",
                "Returns an embedded text resource",
            ),
            embedded_resource,
        ),
        route(
            plain_tool(
                "test_multiple_content_types",
                "Returns text, an image and an embedded resource",
            ),
            mixed,
        ),
        route(
            plain_tool("test_error_handling", "Always fails, as a tool result"),
            error,
        ),
        route(json_schema_tool(), echo),
        route(custom_header_tool(), custom_header),
    ]
}

async fn simple_text(_: Call) -> Answer {
    Ok(CallToolResult::success(vec![ContentBlock::text(
        "This is a simple text response for testing.",
    )]))
}

async fn image(_: Call) -> Answer {
    Ok(CallToolResult::success(vec![ContentBlock::image(
        PNG,
        "image/png",
    )]))
}

async fn audio(_: Call) -> Answer {
    Ok(CallToolResult::success(vec![ContentBlock::audio(
        WAV,
        "audio/wav",
    )]))
}

async fn embedded_resource(_: Call) -> Answer {
    Ok(CallToolResult::success(vec![ContentBlock::resource(
        ResourceContents::text(
            "This is an embedded resource content.",
            "test://embedded-resource",
        ),
    )]))
}

async fn mixed(_: Call) -> Answer {
    let data = ResourceContents::text(
        json!({ "test": "data", "value": 123 }).to_string(),
        "test://mixed-content-resource",
    )
    .with_mime_type("application/json");
    Ok(CallToolResult::success(vec![
        ContentBlock::text("Multiple content types test:"),
        ContentBlock::image(PNG, "image/png"),
        ContentBlock::resource(data),
    ]))
}

async fn error(_: Call) -> Answer {
    Ok(CallToolResult::error(vec![ContentBlock::text(
        "This tool intentionally returns an error for testing",
    )]))
}

/// The suite's own JSON Schema 2020-12 document, which a server must list unchanged.
fn json_schema_tool() -> rmcp::model::Tool {
    tool(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {
                        "street": { "type": "string" },
                        "city": { "type": "string" }
                    }
                }
            },
            "properties": {
                "name": { "type": "string" },
                "address": { "$ref": "#/$defs/address" },
                "contactMethod": { "type": "string", "enum": ["phone", "email"] },
                "phone": { "type": "string" },
                "email": { "type": "string" }
            },
            "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
            "if": {
                "properties": { "contactMethod": { "const": "phone" } },
                "required": ["contactMethod"]
            },
            "then": { "required": ["phone"] },
            "else": { "required": ["email"] },
            "additionalProperties": false
        }),
    )
}

/// Its arguments, as text.
async fn echo(call: Call) -> Answer {
    Ok(CallToolResult::success(vec![ContentBlock::text(
        serde_json::Value::Object(call.arguments).to_string(),
    )]))
}

/// SEP-2243: `value` travels in the `Mcp-Param-Value` header too. rmcp's transport checks the
/// two agree, because the router's `get_tool` finds this schema.
fn custom_header_tool() -> rmcp::model::Tool {
    tool(
        "test_custom_header",
        "Validates SEP-2243 custom parameter headers",
        json!({
            "type": "object",
            "properties": { "value": { "type": "string", "x-mcp-header": "Value" } },
            "required": ["value"]
        }),
    )
}

async fn custom_header(call: Call) -> Answer {
    Ok(match call.arguments.get("value").and_then(|v| v.as_str()) {
        Some(value) => CallToolResult::success(vec![ContentBlock::text(value)]),
        None => CallToolResult::error(vec![ContentBlock::text("value must be a string")]),
    })
}
