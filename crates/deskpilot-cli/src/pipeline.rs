//! `deskpilot run FILE.json|-`: a pipeline (`run_steps`' arguments) run by a server in this
//! process, through the same tools, gate and judging as an agent's call; `--check` only
//! validates it (`validate_steps`).

use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use deskpilot_core::Engine;
use deskpilot_mcp::Grants;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The pipeline: run_steps' arguments as JSON (`steps`, `finally`, `timeout_ms`); - reads
    /// stdin.
    file: PathBuf,
    /// Check the pipeline without running it.
    #[arg(long)]
    check: bool,
    /// Print the run's whole result as JSON.
    #[arg(long)]
    json: bool,
    /// Where a screenshot step's `path` may write (the steps act and launch as the CLI's own
    /// commands may; files only here).
    #[arg(long, value_name = "DIR")]
    files_dir: Option<PathBuf>,
}

pub async fn run(engine: Engine, args: RunArgs) -> anyhow::Result<ExitCode> {
    let text = if args.file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading the pipeline from stdin")?;
        text
    } else {
        std::fs::read_to_string(&args.file)
            .with_context(|| format!("reading {}", args.file.display()))?
    };
    let pipeline: serde_json::Value =
        serde_json::from_str(&text).context("the pipeline is not JSON")?;
    let Some(pipeline) = pipeline.as_object().cloned() else {
        bail!("the pipeline is a JSON object: {{\"steps\": [...]}}");
    };
    let mut allow = vec!["input".to_owned(), "launch".to_owned()];
    if args.files_dir.is_some() {
        allow.push("files".to_owned());
    }
    let grants = Grants::parse(&allow, args.files_dir.as_deref()).map_err(|e| anyhow!(e))?;
    let tool = if args.check {
        "validate_steps"
    } else {
        "run_steps"
    };
    let Ok(outcome) =
        deskpilot_mcp::call_in_process(Arc::new(engine), grants, tool, pipeline).await
    else {
        bail!("no tool {tool}");
    };
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&outcome.structured).unwrap_or_default()
        );
    } else {
        outln!("{}", outcome.text);
    }
    let invalid = outcome.structured.get("valid") == Some(&serde_json::Value::Bool(false));
    let passed = outcome.failure.is_none() && !invalid;
    Ok(if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
