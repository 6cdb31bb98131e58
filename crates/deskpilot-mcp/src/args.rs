//! Tool arguments. Every struct rejects unknown fields: a misspelled selector field must
//! never silently widen a match.

use std::borrow::Cow;

use deskpilot_core::act::WindowAction;
use deskpilot_core::act::{Named, Verb};
use deskpilot_core::{Direction, Error, Filter, MouseButton, OnOff, Selector, Target};
use rmcp::model::JsonObject;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::outcome::invalid_arguments;

/// Parses a tool's arguments, reporting the first problem as `invalid_arguments`.
pub fn parse<T: DeserializeOwned>(args: Option<JsonObject>) -> Result<T, Error> {
    let value = serde_json::Value::Object(args.unwrap_or_default());
    serde_json::from_value(value).map_err(|e| invalid_arguments(without_strings(&e.to_string())))
}

/// One of a closed set of words (a verb, a button, ...), by the name core gives it: the
/// schema lists the names, decoding accepts nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OneOf<T>(pub T);

impl<T: Named> JsonSchema for OneOf<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        T::KIND.into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "enum": T::names()})
    }
}

impl<T: Named> serde::Serialize for OneOf<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name())
    }
}

impl<'de, T: Named> Deserialize<'de> for OneOf<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        T::from_name(&name).map(OneOf).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown {}: use {}",
                T::KIND,
                T::names().join(", ")
            ))
        })
    }
}

/// A decoding error without the string values it quotes (`invalid type: string "..."`): an
/// argument in the wrong place may be a password.
fn without_strings(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("string \"") {
        out.push_str(&rest[..at]);
        out.push_str("a string");
        let after = &rest[at + "string \"".len()..];
        rest = match after.find("\", ").or_else(|| after.rfind('"')) {
            Some(end) => &after[end + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// `window`: a ref (`e12`) or a window title.
pub fn window_pick(text: &str) -> deskpilot_core::WindowPick {
    if deskpilot_core::session::parse_ref(text).is_some() {
        deskpilot_core::WindowPick::Ref(text.to_owned())
    } else {
        deskpilot_core::WindowPick::Title(text.to_owned())
    }
}

/// `target`: a ref from a snapshot or find (`e12`), or a selector (`button[name="Save"]`).
pub fn target(text: &str) -> Result<Target, Error> {
    if deskpilot_core::session::parse_ref(text).is_some() {
        Ok(Target::Ref(text.to_owned()))
    } else {
        Ok(Target::Selector(Selector::parse(text)?))
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListAppsArgs {}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectArgs {
    pub pid: Option<u32>,
    /// As list_apps names it.
    pub app: Option<String>,
    /// A window's title: the session works on it.
    pub window: Option<String>,
    /// From list_apps.
    pub window_id: Option<u64>,
    /// window_id's old name.
    pub x11_window: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionArgs {
    pub session: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotArgs {
    pub session: String,
    pub within: Option<String>,
    /// The window shown in full (default: the active one).
    pub window: Option<String>,
    /// interactive (default), text (all text too) or all.
    pub filter: Option<OneOf<Filter>>,
    /// Default 2000.
    pub max_nodes: Option<usize>,
    /// A cut snapshot's, to continue it.
    pub cursor: Option<String>,
    /// "text" (default) or "json" for per-node JSON as well.
    pub format: Option<SnapshotFormat>,
    /// Only the changes since this version (or "last").
    pub since: Option<SinceArg>,
}

/// How a snapshot is given: as text, or with per-node JSON as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SnapshotFormat {
    Text,
    Json,
}

/// A version number, or "last".
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum SinceArg {
    Version(u64),
    Word(String),
}

impl JsonSchema for SinceArg {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "since".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": ["integer", "string"]})
    }
}

impl SinceArg {
    pub fn since(&self) -> Result<deskpilot_core::live::Since, Error> {
        use deskpilot_core::live::Since;
        match self {
            SinceArg::Version(v) => Ok(Since::Version(*v)),
            SinceArg::Word(w) if w == "last" => Ok(Since::Last),
            SinceArg::Word(_) => Err(invalid_arguments("since: use a version number or \"last\"")),
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindArgs {
    pub session: String,
    pub selector: String,
    pub within: Option<String>,
    /// Default 20.
    pub limit: Option<usize>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TargetArgs {
    pub session: String,
    pub target: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HitTestArgs {
    pub session: String,
    pub x: i32,
    pub y: i32,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadTextArgs {
    pub session: String,
    pub target: String,
    pub offset: Option<u32>,
    /// Default: up to 10000.
    pub length: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadTableArgs {
    pub session: String,
    pub target: String,
    pub first_row: Option<u32>,
    /// Default 50, at most 500.
    pub rows: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClickArgs {
    pub session: String,
    pub target: String,
    /// Default left.
    pub button: Option<OneOf<MouseButton>>,
    pub double: Option<bool>,
    pub timeout_ms: Option<u64>,
}

// A text or a number.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ValueArg {
    Number(f64),
    Text(String),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetValueArgs {
    pub session: String,
    pub target: String,
    /// Text replaces the field's text; a number sets a range's value.
    pub value: ValueArg,
    pub secret: Option<bool>,
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TypeTextArgs {
    pub session: String,
    /// Any Unicode; \n presses Enter.
    pub text: String,
    /// Focused first; else the window's focus takes the keys.
    pub target: Option<String>,
    pub secret: Option<bool>,
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PressKeyArgs {
    pub session: String,
    /// A key or chord: Enter, Escape, Tab, Up, F5, a, ctrl+s, alt+F4.
    pub key: String,
    /// Focused first.
    pub target: Option<String>,
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActArgs {
    pub session: String,
    pub target: String,
    /// activate: the action `name`; select_option (a combo box): the option `name` or `index`.
    pub verb: OneOf<Verb>,
    /// toggle: act only when not already on (or off).
    pub ensure: Option<OneOf<OnOff>>,
    /// activate: an action (none: the default); select_option: an option.
    pub name: Option<String>,
    /// select_option: the option's place (from 0).
    pub index: Option<u32>,
    pub direction: Option<OneOf<Direction>>,
    /// scroll: wheel clicks (default 3).
    pub amount: Option<u32>,
    pub timeout_ms: Option<u64>,
}

impl ActArgs {
    /// The action the verb and its options ask for.
    pub fn action(&self) -> Result<deskpilot_core::Action, Error> {
        self.verb.0.action(deskpilot_core::act::VerbOptions {
            ensure: self.ensure.map(|e| e.0),
            name: self.name.clone(),
            index: self.index,
            direction: self.direction.map(|d| d.0),
            amount: self.amount,
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WindowActionArgs {
    pub session: String,
    pub action: OneOf<WindowAction>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LaunchAppArgs {
    /// Program and arguments, e.g. ["gedit", "a.txt"] (no shell).
    pub argv: Vec<String>,
    /// For it to register (default 30000).
    pub timeout_ms: Option<u64>,
}

/// How long an action waits for its element to be actionable, unless told.
pub const ACTIONABLE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The wait an action's `timeout_ms` asks for.
pub fn actionable_wait(timeout_ms: Option<u64>) -> std::time::Duration {
    timeout_ms.map_or(ACTIONABLE_WAIT, std::time::Duration::from_millis)
}

// A ref or selector, or a screen point.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DragEndArg {
    Target(String),
    Point { x: i32, y: i32 },
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DragArgs {
    pub session: String,
    pub from: DragEndArg,
    pub to: DragEndArg,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotArgs {
    pub session: String,
    /// Only this element (default: the session's window).
    pub target: Option<String>,
    /// The whole screen.
    pub screen: Option<bool>,
    /// No ref labels.
    pub plain: Option<bool>,
    /// Longest side, scaled down to it (default 1280, at most 4096).
    pub max_size: Option<u32>,
    /// Write the PNG here instead (needs the files capability).
    pub path: Option<String>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn decoding_errors_quote_no_strings() {
        let error = super::parse::<super::TypeTextArgs>(
            serde_json::json!({"session": "s1", "text": "x", "secret": "hunter2"})
                .as_object()
                .cloned(),
        )
        .unwrap_err();
        assert!(!error.message.contains("hunter2"), "{}", error.message);
        assert!(error.message.contains("a string"), "{}", error.message);
    }
}
