//! An app pack's files as types: the app's files are `deskpilot_packs`', what acting means
//! and the workflows are here (their steps are this server's tool calls). Each file's JSON
//! Schema is generated from them (`schemas/pack/`, kept equal by a test).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use deskpilot_packs::format::*;

use crate::args::OneOf;
use crate::condition::Expect;
use crate::pipeline::spec::{Mode, Step};

/// `actions.json`: what acting on a control means.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Actions {
    pub contracts: Vec<Contract>,
}

/// A control and a tool (and `act`'s verb), with what must hold after and whether it may be
/// sent again.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Contract {
    pub control: String,
    pub tool: ContractTool,
    /// `act`'s verb.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verb: Option<OneOf<deskpilot_core::act::Verb>>,
    /// False narrows the engine's rule; true cannot widen it (the validator refuses it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safe_to_repeat: Option<bool>,
    /// What holds after it, by default (a step's `expect`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
}

/// The tools a contract is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContractTool {
    Click,
    SetValue,
    TypeText,
    PressKey,
    Act,
    Drag,
}

impl ContractTool {
    pub fn name(self) -> &'static str {
        match self {
            ContractTool::Click => "click",
            ContractTool::SetValue => "set_value",
            ContractTool::TypeText => "type_text",
            ContractTool::PressKey => "press_key",
            ContractTool::Act => "act",
            ContractTool::Drag => "drag",
        }
    }
}

/// `workflows.json`: named pipelines.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Workflows {
    pub workflows: Vec<Workflow>,
}

/// A pipeline by name, with typed inputs. Its steps are `run_steps`' and may refer to
/// `${inputs.NAME}`, `${pack.id}` and `${env.NAME}` beside earlier steps.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Workflow {
    #[schemars(pattern(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$"))]
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub visibility: Visibility,
    /// A JSON Schema (2020-12) of the inputs: an object's.
    #[serde(default = "no_inputs")]
    pub inputs: Value,
    pub steps: Vec<Step>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finally: Vec<Step>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

impl Workflow {
    /// Each step with its JSON path: `{at}/steps/N`, then `{at}/finally/N`.
    pub fn placed(&self, at: &str) -> Vec<(String, &Step)> {
        let main = self.steps.iter().enumerate();
        let cleanup = self.finally.iter().enumerate();
        main.map(|(n, s)| (format!("{at}/steps/{n}"), s))
            .chain(cleanup.map(|(n, s)| (format!("{at}/finally/{n}"), s)))
            .collect()
    }
}

fn no_inputs() -> Value {
    serde_json::json!({ "type": "object", "properties": {}, "additionalProperties": false })
}

/// A whole pack, read: the app's part (`deskpilot_packs`'), what acting means, the
/// workflows.
#[derive(Debug, Clone)]
pub struct Pack {
    pub app: AppPack,
    pub actions: Actions,
    pub workflows: Workflows,
}

impl AsRef<AppPack> for Pack {
    fn as_ref(&self) -> &AppPack {
        &self.app
    }
}

impl From<Interaction> for Mode {
    fn from(interaction: Interaction) -> Mode {
        match interaction {
            Interaction::Foreground => Mode::Foreground,
            Interaction::Background => Mode::Background,
            Interaction::GiveBack => Mode::GiveBack,
        }
    }
}

/// One of a pack's files.
pub struct PackFile {
    pub name: &'static str,
    /// Whether a pack must have it.
    pub required: bool,
    pub schema: fn() -> Value,
}

const fn file(name: &'static str, required: bool, schema: fn() -> Value) -> PackFile {
    PackFile {
        name,
        required,
        schema,
    }
}

/// A pack's files with their schemas, in `deskpilot_packs::format::FILE_NAMES`' order.
pub const FILES: [PackFile; 7] = [
    file("manifest.json", true, schema::<Manifest>),
    file("profile.json", true, schema::<Profile>),
    file("controls.json", false, schema::<Controls>),
    file("actions.json", false, schema::<Actions>),
    file("workflows.json", false, schema::<Workflows>),
    file("pages.json", false, schema::<Pages>),
    file("components.json", false, schema::<Components>),
];
