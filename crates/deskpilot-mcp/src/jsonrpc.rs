//! What a JSON-RPC message is, for both transports: text that is no JSON gets a parse error
//! (-32700); JSON that is no message (a batch, a bare value, an object with neither a method
//! nor a result or error) gets an invalid-request error (-32600) with its `id` when it has a
//! usable one. rmcp answers these itself on neither transport the way JSON-RPC says.

/// `Ok` for a line rmcp should get (a request, notification or response); else the error
/// reply: -32700 for no JSON, -32600 (with the message's `id` when it has a usable one) for
/// JSON that is no JSON-RPC message.
pub(crate) fn check(line: &str) -> Result<(), serde_json::Value> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| {
        tracing::warn!(error = %e, "malformed JSON-RPC line");
        error_reply(
            serde_json::Value::Null,
            -32700,
            &format!("Parse error: {e}"),
        )
    })?;
    let Some(message) = value.as_object() else {
        // MCP has no batches since 2025-06-18; a bare value is no message either.
        let what = if value.is_array() {
            "a batch"
        } else {
            "a bare JSON value"
        };
        tracing::warn!("{what} received");
        return Err(error_reply(
            serde_json::Value::Null,
            -32600,
            &format!(
                "Invalid Request: {what} is no JSON-RPC message (MCP takes one message at a time, no batches)"
            ),
        ));
    };
    let id = match message.get("id") {
        Some(id @ (serde_json::Value::String(_) | serde_json::Value::Number(_))) => id.clone(),
        _ => serde_json::Value::Null,
    };
    let is_message = message.get("jsonrpc").and_then(|v| v.as_str()) == Some("2.0")
        && (message.get("method").is_some_and(|m| m.is_string())
            || message.contains_key("result")
            || message.contains_key("error"));
    if is_message {
        Ok(())
    } else {
        tracing::warn!("a JSON value that is no JSON-RPC message");
        Err(error_reply(
            id,
            -32600,
            "Invalid Request: a JSON-RPC 2.0 message needs \"jsonrpc\": \"2.0\" and a method (or a result or error)",
        ))
    }
}

pub(crate) fn error_reply(id: serde_json::Value, code: i32, message: &str) -> serde_json::Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_request_keeps_its_id() {
        let reply = check(r#"{"jsonrpc":"2.0","id":78}"#).unwrap_err();
        assert_eq!(reply["id"], 78);
        assert_eq!(reply["error"]["code"], -32600);
        let reply = check(r#"{"jsonrpc":"2.0","id":"a","params":{}}"#).unwrap_err();
        assert_eq!(reply["id"], "a");
        let reply = check(r#"{"id":{"x":1},"method":"ping"}"#).unwrap_err();
        assert_eq!(reply["id"], serde_json::Value::Null);
        assert_eq!(check("{").unwrap_err()["error"]["code"], -32700);
        assert!(check(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_ok());
        assert!(check(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#).is_ok());
    }
}
