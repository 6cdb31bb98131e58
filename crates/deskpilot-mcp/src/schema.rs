//! Tool schemas as the catalog shows them: what a model reads to call a tool (inputs, with
//! their descriptions) and what a program checks a result against (outputs, without). Every
//! agent reads the catalog before its first call: its size is a budget
//! (`the_catalog_stays_within_27_kib`, and 19 KiB read-only in `mcp_stdio.rs`).

use std::sync::Arc;

use rmcp::model::JsonObject;
use schemars::JsonSchema;

use crate::outcome::Outcome;

/// The output schema of a tool whose success is `T`. Output schemas are for programs: their
/// descriptions are dropped, and a field that may be absent is never null (results drop
/// their null fields: `structured`). A failure's fields are declared once, in the server's
/// instructions, not in every tool (the schema admits them: it closes no object): only `ok`
/// stays. The catalog's size is a budget (`the_catalog_stays_within_27_kib`).
pub fn output_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let mut schema = (*rmcp::handler::server::tool::schema_for_output::<Outcome<T>>()).clone();
    strip(&mut schema, true);
    for (_, v) in schema.iter_mut() {
        never_null(v);
    }
    let own = schemars::SchemaGenerator::default().into_root_schema_for::<T>();
    let declared = |field: &str| own.get("properties").and_then(|p| p.get(field)).is_some();
    if let Some(serde_json::Value::Object(properties)) = schema.get_mut("properties") {
        for field in FAILURE_FIELDS {
            if !declared(field) {
                properties.remove(*field);
            }
        }
    }
    Arc::new(schema)
}

/// A failure's fields beside `ok` (`Failure`), as the instructions name them.
const FAILURE_FIELDS: &[&str] = &["code", "message", "retryable", "hint"];

/// A schema's `"type": [T, ..., "null"]`, `enum` with null and `anyOf: [S, {"type": "null"}]`
/// without the null: results carry no null field.
fn never_null(value: &mut serde_json::Value) {
    use serde_json::{Value, json};
    if let Value::Object(map) = value {
        if let Some(Value::Array(types)) = map.get_mut("type")
            && types.contains(&json!("null"))
        {
            types.retain(|t| t != &json!("null"));
            if let [one] = types.as_slice() {
                let one = one.clone();
                map.insert("type".into(), one);
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

/// The input schema of a tool: what a model reads to call it, descriptions kept. An
/// optional argument is declared without `null`: one leaves it out (decoding still takes a
/// null as absent).
pub fn input_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let mut schema = (*rmcp::handler::server::tool::schema_for_type::<T>()).clone();
    strip(&mut schema, false);
    for (_, v) in schema.iter_mut() {
        never_null(v);
    }
    Arc::new(schema)
}

/// Removes what no host needs (`$schema`, the root `title`, number formats, what JSON Schema
/// assumes anyway, and for outputs the descriptions) and, for inputs, writes enums in place
/// instead of behind `$ref`. The catalog's size is a budget (`the_catalog_stays_within_27_kib`).
fn strip(schema: &mut JsonObject, output: bool) {
    schema.remove("$schema");
    schema.remove("title");
    strip_keywords(schema, output);
    if !output {
        inline_enums(schema);
    }
    inline_single_refs(schema);
}

/// Writes each definition used once in place of its `$ref` (a name and a pointer cost more
/// than they share), until none is left; drops `$defs` once empty.
fn inline_single_refs(schema: &mut JsonObject) {
    use serde_json::Value;
    loop {
        let Some(Value::Object(defs)) = schema.get("$defs") else {
            return;
        };
        let text = serde_json::to_string(&schema).unwrap_or_default();
        let once = defs.iter().find(|(name, def)| {
            let pointer = format!("\"#/$defs/{name}\"");
            let inside = serde_json::to_string(def).unwrap_or_default();
            text.matches(&pointer).count() == 1 && !inside.contains(&pointer)
        });
        let Some((name, def)) = once.map(|(n, d)| (n.clone(), d.clone())) else {
            return;
        };
        if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
            defs.remove(&name);
            if defs.is_empty() {
                schema.remove("$defs");
            }
        }
        let pointer = Value::String(format!("#/$defs/{name}"));
        for (_, value) in schema.iter_mut() {
            replace_ref(value, &pointer, &def);
        }
    }
}

/// Replaces the object `{"$ref": pointer, ...}` inside `value` by `def` (its other members
/// kept, such as a description).
fn replace_ref(
    value: &mut serde_json::Value,
    pointer: &serde_json::Value,
    def: &serde_json::Value,
) {
    use serde_json::Value;
    match value {
        Value::Object(map) if map.get("$ref") == Some(pointer) => {
            map.remove("$ref");
            if let Value::Object(members) = def {
                for (k, v) in members {
                    map.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        Value::Object(map) => map.values_mut().for_each(|v| replace_ref(v, pointer, def)),
        Value::Array(items) => items.iter_mut().for_each(|v| replace_ref(v, pointer, def)),
        _ => {}
    }
}

/// `strip` on one schema object and the schemas inside it (never on a `properties` map's
/// names: an argument may be called `format` or `description`).
fn strip_keywords(map: &mut JsonObject, output: bool) {
    use serde_json::Value;
    map.remove("format");
    // JSON Schema's defaults: any member allowed; an empty default says nothing. An input's
    // unknown members are refused by the tool, as the instructions say.
    let open = map.get("additionalProperties") == Some(&Value::Bool(true));
    let closed_input = !output && map.get("additionalProperties") == Some(&Value::Bool(false));
    if open || closed_input {
        map.remove("additionalProperties");
    }
    if map.get("default") == Some(&serde_json::json!({})) {
        map.remove("default");
    }
    if map.get("minimum").is_some_and(|m| m.as_f64() == Some(0.0)) {
        map.remove("minimum");
    }
    if output && map.get("description").is_some_and(Value::is_string) {
        map.remove("description");
    }
    for (keyword, value) in map.iter_mut() {
        let inner: Vec<&mut Value> = match (keyword.as_str(), value) {
            ("properties" | "$defs", Value::Object(named)) => named.values_mut().collect(),
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(list)) => {
                list.iter_mut().collect()
            }
            ("items" | "additionalProperties" | "not", v) => vec![v],
            _ => Vec::new(),
        };
        for schema in inner {
            if let Value::Object(inner) = schema {
                strip_keywords(inner, output);
            }
        }
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
                && let Some(values) = any[0].get("$ref").and_then(enum_of)
            {
                map.remove("anyOf");
                map.insert("type".into(), json!("string"));
                map.insert("enum".into(), values);
            }
        }
    }
    let text = serde_json::to_string(&schema).unwrap_or_default();
    if !text.contains("#/$defs/") {
        schema.remove("$defs");
    }
}

/// The schema of an object whose fields a tool's description names (MCP wants an object
/// schema for every property, never `true`).
pub(crate) fn object(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "object"})
}

/// The schema of a list of such objects.
pub(crate) fn objects(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "array", "items": {"type": "object"}})
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        x: i32,
    }

    /// An argument may be called `format`; an optional one declares no null.
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        /// "text" or "json".
        format: Option<String>,
        since: Option<u64>,
        inner: Option<Inner>,
    }

    #[test]
    fn inputs_keep_every_argument_and_declare_no_null_or_single_use_definition() {
        let schema = input_schema::<Args>();
        let properties = &schema["properties"];
        assert_eq!(properties["format"]["type"], "string", "{schema:?}");
        assert_eq!(properties["format"]["description"], "\"text\" or \"json\".");
        assert_eq!(properties["since"], json!({"type": "integer"}));
        assert_eq!(properties["inner"]["properties"]["x"]["type"], "integer");
        assert!(!schema.contains_key("$defs"), "{schema:?}");
        assert!(!schema.contains_key("additionalProperties"));
    }

    /// A failure's fields are left to the instructions; `ok` stays required.
    #[test]
    fn outputs_declare_ok_and_their_own_fields() {
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Out {
            message: String,
            count: u32,
        }
        let schema = output_schema::<Out>();
        let properties = schema["properties"].as_object().unwrap();
        let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
        names.sort();
        assert_eq!(names, ["count", "message", "ok"], "its own message stays");
        assert_eq!(schema["required"], json!(["ok"]));
    }
}
