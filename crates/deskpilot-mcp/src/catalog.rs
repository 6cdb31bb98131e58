//! What the server says of its tools: each one's name, description, hints and schemas, and
//! the capability it needs. The table itself is `tools/mod.rs`'s, beside its dispatch.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};

use crate::grants::{Capability, Grants};

/// What the server knows of a tool a step names.
pub enum Known {
    /// Listed: its input schema, and whether it only reads.
    Listed {
        schema: Arc<JsonObject>,
        read_only: bool,
    },
    /// Not listed for want of a capability.
    Withheld(Capability),
}

/// Whether a tool changes an app: MCP's hints, as the table gives them.
#[derive(Clone, Copy)]
pub enum Hints {
    /// Reads, and reaches the desktop.
    Reads,
    /// Reads nothing outside the server (`validate_steps`).
    ReadsHere,
    /// Changes an app, and may destroy what it holds.
    Destroys,
    /// Changes the desktop without destroying anything (`launch_app`).
    Adds,
}

/// One tool of the table.
pub struct Spec {
    pub name: &'static str,
    pub description: &'static str,
    pub hints: Hints,
    pub input: fn() -> Arc<JsonObject>,
    pub output: fn() -> Arc<JsonObject>,
    /// The capability without which it is withheld.
    pub needs: Option<Capability>,
}

/// The tools a server with some grants lists, and those it withholds.
pub struct Catalog {
    listed: Vec<Tool>,
    withheld: HashMap<&'static str, Capability>,
}

impl Catalog {
    /// The tools of `specs` as a server holding `grants` lists them, by name.
    pub fn new(specs: &[Spec], grants: &Grants) -> Self {
        let reads_only = !Capability::ALL.iter().any(|c| grants.has(*c));
        let mut listed = Vec::new();
        let mut withheld = HashMap::new();
        for spec in specs {
            match spec.needs {
                Some(capability) if !grants.has(capability) => {
                    withheld.insert(spec.name, capability);
                }
                _ => listed.push(tool(spec, reads_only)),
            }
        }
        listed.sort_by(|a, b| a.name.cmp(&b.name));
        Catalog { listed, withheld }
    }

    pub fn listed(&self) -> &[Tool] {
        &self.listed
    }

    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.listed.iter().find(|t| t.name == name)
    }

    /// The capability a withheld tool needs.
    pub fn withheld(&self, name: &str) -> Option<Capability> {
        self.withheld.get(name).copied()
    }

    /// What a step naming `name` finds.
    pub fn known(&self, name: &str) -> Option<Known> {
        if let Some(tool) = self.get(name) {
            return Some(Known::Listed {
                schema: tool.input_schema.clone(),
                read_only: tool
                    .annotations
                    .as_ref()
                    .and_then(|a| a.read_only_hint)
                    .unwrap_or(false),
            });
        }
        self.withheld(name).map(Known::Withheld)
    }
}

/// `spec` as listed. A server that may do nothing but read runs pipelines that only read:
/// its hosts may treat them as reads.
fn tool(spec: &Spec, reads_only: bool) -> Tool {
    let pipeline = matches!(spec.name, "run_steps" | "continue_run" | "run_workflow");
    let hints = match spec.hints {
        Hints::Destroys if pipeline && reads_only => Hints::Reads,
        other => other,
    };
    let mut tool = Tool::new(spec.name, spec.description, (spec.input)());
    tool.output_schema = Some((spec.output)());
    tool.annotations = annotations(hints);
    tool
}

/// The hints MCP does not assume when they are absent (it assumes: not read-only,
/// destructive, not idempotent, open world); none when it assumes them all.
fn annotations(hints: Hints) -> Option<ToolAnnotations> {
    let mut a = ToolAnnotations::default();
    match hints {
        Hints::Reads => a.read_only_hint = Some(true),
        Hints::ReadsHere => {
            a.read_only_hint = Some(true);
            a.open_world_hint = Some(false);
        }
        Hints::Destroys => return None,
        Hints::Adds => a.destructive_hint = Some(false),
    }
    Some(a)
}
