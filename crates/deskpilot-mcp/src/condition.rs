//! What `wait_for` waits for and a pipeline step's `expect` holds after its tool: one set of
//! condition arguments, decoded and checked once. `wait_for` adds its session (serde cannot
//! flatten into a struct that rejects unknown fields, so its decoding and schema are written
//! out here).

use std::borrow::Cow;
use std::time::Duration;

use deskpilot_core::{Condition, ConditionWords, Error, Selector, Target, Until};
use rmcp::model::JsonObject;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::args::{self, OneOf};

/// A wait's longest time, in milliseconds.
pub const MAX_WAIT_MS: u64 = 60_000;
/// A wait's time when none is given, in milliseconds.
pub const DEFAULT_WAIT_MS: u64 = 5_000;

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionArgs {
    pub selector: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// "appears" (visible; default), "attached" (shown or not) or "disappears".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<OneOf<Until>>,
    /// On (`checked`) or off (`!checked`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Exactly this value (a number as text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// This text in the value, any case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_contains: Option<String>,
    /// Exactly this many visible matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// Default 5000, at most 60000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

/// A condition as the engine takes it.
pub struct Wait {
    pub selector: Selector,
    pub within: Option<Target>,
    pub condition: Condition,
    pub timeout: Duration,
}

impl ConditionArgs {
    /// The condition alone, checked.
    pub fn condition(&self) -> Result<Condition, Error> {
        Condition::from_words(ConditionWords {
            until: self.until.map(|u| u.0),
            state: self.state.as_deref(),
            value: self.value.clone(),
            value_contains: self.value_contains.clone(),
            count: self.count.map(|n| n as usize),
        })
    }

    /// Selector, container, condition and time, each checked.
    pub fn wait(&self) -> Result<Wait, Error> {
        let timeout = self.timeout_ms.unwrap_or(DEFAULT_WAIT_MS).min(MAX_WAIT_MS);
        Ok(Wait {
            selector: Selector::parse(&self.selector)?,
            within: self.within.as_deref().map(args::target).transpose()?,
            condition: self.condition()?,
            timeout: Duration::from_millis(timeout),
        })
    }
}

/// A pipeline step's `expect`: wait_for's condition, its fields described in wait_for's
/// schema alone (the catalog is a budget: 19 KiB read-only, `mcp_stdio.rs`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(transparent)]
pub struct Expect(pub ConditionArgs);

impl JsonSchema for Expect {
    fn schema_name() -> Cow<'static, str> {
        "Expect".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = ConditionArgs::json_schema(generator);
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            for property in properties.values_mut().filter_map(Value::as_object_mut) {
                property.remove("description");
            }
        }
        schema
    }
}

/// `wait_for`'s arguments: the session, then the condition.
#[derive(Debug)]
pub struct WaitForArgs {
    pub session: String,
    pub condition: ConditionArgs,
}

impl<'de> Deserialize<'de> for WaitForArgs {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let mut fields = JsonObject::deserialize(deserializer)?;
        let session = fields
            .remove("session")
            .ok_or_else(|| D::Error::missing_field("session"))?;
        Ok(WaitForArgs {
            session: String::deserialize(session).map_err(D::Error::custom)?,
            condition: ConditionArgs::deserialize(Value::Object(fields))
                .map_err(D::Error::custom)?,
        })
    }
}

impl JsonSchema for WaitForArgs {
    fn schema_name() -> Cow<'static, str> {
        "WaitForArgs".into()
    }

    /// The condition's schema with `session` first among the properties and required.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = ConditionArgs::json_schema(generator);
        let session = generator.subschema_for::<String>();
        let object = schema
            .as_object_mut()
            .expect("a struct's schema is an object");
        let mut properties = JsonObject::new();
        properties.insert("session".into(), session.into());
        if let Some(Value::Object(rest)) = object.remove("properties") {
            properties.extend(rest);
        }
        object.insert("properties".into(), Value::Object(properties));
        let mut required = vec![Value::from("session")];
        if let Some(Value::Array(rest)) = object.remove("required") {
            required.extend(rest);
        }
        object.insert("required".into(), Value::Array(required));
        schema
    }
}
