//! The types of an app pack's files that describe the app: each file's JSON Schema is
//! generated from them (`schemas/pack/`, kept equal by the MCP crate's test) and a pack is
//! read into them once valid. What acting means (`actions.json`) and the workflows are the
//! MCP server's, whose steps are its tools' calls.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `manifest.json`: what the pack is.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The pack's id: lower-case letters, digits, `_` and `-`, a letter first; no dot (a dot
    /// separates a pack from its control or workflow: `mousepad.save_as`).
    #[schemars(pattern(r"^[a-z][a-z0-9_-]{0,63}$"))]
    pub id: String,
    /// The pack's own version (not the app's).
    pub version: String,
    /// A name to show; the id when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// listed (default): `packs` lists it; hidden: usable by id, not listed.
    #[serde(default)]
    pub visibility: Visibility,
    /// The server's environment variables its workflows read (`${env.NAME}`): no other.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvName>,
}

/// An environment variable's name.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct EnvName(#[schemars(pattern(r"^[A-Za-z_][A-Za-z0-9_]*$"))] pub String);

/// Whether `packs` lists a pack or a workflow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    #[default]
    Listed,
    Hidden,
}

/// `profile.json`: how the app is started and recognised.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch: Option<Launch>,
    pub main_window: MainWindow,
    /// How its workflows run by default (`run_steps`' mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interaction: Option<Interaction>,
}

/// Whether a pack's workflows may take the foreground: background raises no window and
/// moves no pointer; give_back puts both back after the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Interaction {
    Foreground,
    Background,
    GiveBack,
}

/// How to start the app: a program found on `PATH`, or at the path an environment variable
/// holds; never an absolute path in the pack.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Launch {
    /// Program names, tried in order (`mousepad`, `org.xfce.mousepad`).
    #[schemars(length(min = 1))]
    pub programs: Vec<String>,
    /// An environment variable holding the program's path, tried first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(pattern(r"^[A-Za-z_][A-Za-z0-9_]*$"))]
    pub path_env: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

/// Which app is the pack's, and its main window; every criterion given must hold. The
/// app's name is always given: a pack never takes another app for its own.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MainWindow {
    /// The app's name as `list_apps` shows it (any case).
    #[schemars(length(min = 1))]
    pub app: String,
    /// A regular expression its title matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The toolkit `list_apps` shows (gtk3, qt5, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toolkit: Option<String>,
}

/// `controls.json`: logical names for the app's controls.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Controls {
    /// By logical name (letters, digits, `_`, `-`; no dot).
    pub controls: BTreeMap<String, Control>,
}

/// One control: where to find it, what else it is called.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Control {
    /// Selectors tried in order; the first that finds the control is used.
    #[schemars(length(min = 1))]
    pub selectors: Vec<String>,
    /// Another control the selectors search within.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// Other names a person might use for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// The page (`pages.json`) it is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// The selection group (`pages.json`) it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(default)]
    pub confidence: Confidence,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// How far a control's selectors were tried.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// Tried on the app and found.
    Verified,
    /// Written from a probe's draft, not yet tried.
    #[default]
    Drafted,
    /// Found by position: breaks when the app reorders it.
    Fragile,
}

/// `pages.json` (optional): the app's pages and selection groups.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pages {
    #[serde(default)]
    pub pages: BTreeMap<String, Page>,
    /// Controls of which one is selected at a time (tabs, modes), by group name.
    #[serde(default)]
    pub groups: BTreeMap<String, Vec<String>>,
}

/// A page: the control that goes to it, its root, the controls that show it is ready.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Page {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub navigate: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ready: Vec<String>,
}

/// `components.json` (optional): parts of the app made of several controls.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Components {
    pub components: BTreeMap<String, Component>,
}

#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Component {
    pub root: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<String>,
    /// Why parts of it are not mapped, where some are not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmapped: Option<String>,
}

/// The parts of a pack that describe the app (not what acting on it means, nor its
/// workflows): what the test library and the server share.
#[derive(Debug, Clone)]
pub struct AppPack {
    pub manifest: Manifest,
    pub profile: Profile,
    pub controls: Controls,
    pub pages: Option<Pages>,
    pub components: Option<Components>,
}

/// A pack's files, in the order they are read: the first two are required.
pub const FILE_NAMES: [&str; 7] = [
    "manifest.json",
    "profile.json",
    "controls.json",
    "actions.json",
    "workflows.json",
    "pages.json",
    "components.json",
];

/// Whether a pack must have the file `name`.
pub fn required(name: &str) -> bool {
    FILE_NAMES[..2].contains(&name)
}

/// `T`'s JSON Schema (draft 2020-12).
pub fn schema<T: JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default()
}
