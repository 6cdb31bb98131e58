//! `deskpilot packs [PACK]` lists the app packs, or describes one; `deskpilot workflow
//! PACK/WORKFLOW --input NAME=VALUE` runs one of their workflows. Both go through a server
//! in this process, as `packs` and `run_workflow` do for an agent (docs/app-packs.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{anyhow, bail};
use deskpilot_core::Engine;
use deskpilot_mcp::packs::set::{Registry, Sources};
use deskpilot_mcp::{Grants, ToolOutcome};
use serde_json::{Map, Value, json};

#[derive(clap::Args)]
pub struct PacksArgs {
    /// A pack to describe: its main window, controls, contracts and workflows.
    pack: Option<String>,
    #[command(flatten)]
    place: Place,
}

#[derive(clap::Args)]
pub struct WorkflowArgs {
    /// The workflow: PACK/WORKFLOW (`mousepad/save_as`).
    name: String,
    /// An input, NAME=VALUE, converted to the type its schema gives (repeatable).
    #[arg(long = "input", value_name = "NAME=VALUE")]
    inputs: Vec<String>,
    #[command(flatten)]
    place: Place,
}

/// Where the packs are, and how the answer is printed.
#[derive(clap::Args)]
struct Place {
    /// A directory of app packs, one per subdirectory (repeatable; before DESKPILOT_PACKS
    /// and the user's config directory's deskpilot/packs).
    #[arg(long = "packs", value_name = "DIR")]
    packs: Vec<PathBuf>,
    /// Print the whole result as JSON.
    #[arg(long)]
    json: bool,
}

pub async fn list(engine: Engine, args: PacksArgs) -> anyhow::Result<ExitCode> {
    let registry = deskpilot_mcp::registry(Sources::for_server(args.place.packs));
    let asked = match args.pack {
        Some(pack) => json!({"pack": pack}),
        None => json!({}),
    };
    let outcome = call(engine, Grants::read_only(), registry, "packs", asked).await?;
    Ok(printed(&outcome, args.place.json))
}

pub async fn workflow(engine: Engine, args: WorkflowArgs) -> anyhow::Result<ExitCode> {
    let Some((pack, workflow)) = args.name.split_once(['/', '.']) else {
        bail!("name the workflow as PACK/WORKFLOW (mousepad/save_as)");
    };
    let registry = deskpilot_mcp::registry(Sources::for_server(args.place.packs));
    let mut texts = Map::new();
    for pair in &args.inputs {
        let Some((name, value)) = pair.split_once('=') else {
            bail!("--input {pair:?}: give NAME=VALUE");
        };
        texts.insert(name.to_owned(), Value::String(value.to_owned()));
    }
    let set = registry.current();
    let inputs =
        deskpilot_mcp::prompts::text_inputs(&set, pack, workflow, texts).map_err(|e| anyhow!(e))?;
    // As `deskpilot run`: the steps act and launch as the CLI's own commands may.
    let allow = ["input".to_owned(), "launch".to_owned()];
    let grants = Grants::parse(&allow, None).map_err(|e| anyhow!(e))?;
    let asked = json!({"pack": pack, "workflow": workflow, "inputs": inputs});
    let outcome = call(engine, grants, registry, "run_workflow", asked).await?;
    Ok(printed(&outcome, args.place.json))
}

async fn call(
    engine: Engine,
    grants: Grants,
    registry: Arc<Registry>,
    tool: &str,
    args: Value,
) -> anyhow::Result<ToolOutcome> {
    let args = args.as_object().cloned().unwrap_or_default();
    deskpilot_mcp::call_in_process_with(Arc::new(engine), grants, registry, tool, args)
        .await
        .map_err(|_| anyhow!("no tool {tool}"))
}

/// Prints `outcome` (its text, or its whole result as JSON); exit code 1 when it failed.
fn printed(outcome: &ToolOutcome, json: bool) -> ExitCode {
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&outcome.structured).unwrap_or_default()
        );
    } else {
        outln!("{}", outcome.text);
    }
    if outcome.failure.is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
