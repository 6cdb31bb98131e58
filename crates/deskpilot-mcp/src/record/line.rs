//! A recording's lines (`docs/recording.md`): a header naming the format's version, the
//! session and its app, then one line per tool call on the session. A target is kept as a
//! stable locator, never a ref; secret text as a named placeholder, never its value.

use rmcp::model::JsonObject;
use serde::{Deserialize, Serialize};

/// The format's version: a reader refuses a log of a newer one.
pub const VERSION: u32 = 1;

/// One line of a log.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    Header(Header),
    Call(Entry),
}

/// The first line: what was recorded, and how the session was opened.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Header {
    pub version: u32,
    pub session: String,
    /// The MCP client's name, as it gave it when it connected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    pub app: App,
    /// `connect`'s arguments (a pid left out: it means nothing in another run).
    pub connect: JsonObject,
}

/// The app a session is on.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct App {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toolkit: Option<String>,
    /// The window the session is on, when it is a window's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
    /// The command line that started it, when this server started it (`launch_app`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launched: Option<Vec<String>>,
}

/// One tool call on the session.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    /// 1 for the session's first call, counting on.
    pub seq: u64,
    pub tool: String,
    /// The arguments as given, without `session`, secret text as `${secret.NAME}`.
    pub args: JsonObject,
    /// Each element argument (`target`, drag's `from` and `to`) as a stable locator.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<Element>,
    /// The pipeline step this call was, when it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    pub ok: bool,
    /// The failure's code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// An action's effect: confirmed, unverified or noop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// The rung that did it: semantic, keyboard, pointer, window_manager.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
    /// What changed, a line each (`checked: off -> on`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// What was read back, as an export keeps it: an `expect` each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
}

/// One thing read back after an action: its element's state, value or name now, or a
/// window that opened or closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    State { state: String, on: bool },
    Value { value: String },
    Name { name: String },
    Gone,
    WindowOpened { role: String, title: String },
    WindowClosed { role: String, title: String },
}

/// An element argument, as given and as a locator that finds it in another run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Element {
    /// The argument: target, from or to.
    pub arg: String,
    /// What the call gave: a ref (`e5`) or a selector.
    pub given: String,
    /// The steadiest selector that found the element alone when the call was made; absent
    /// when none could be made (the element was gone, or the target was a point).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
    /// What the locator rests on: id, name, role or position (fragile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<String>,
}
