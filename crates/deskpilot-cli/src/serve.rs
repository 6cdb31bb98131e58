//! `deskpilot mcp`: the MCP server on stdio, with the capabilities it is given.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::anyhow;
use deskpilot_core::Engine;
use deskpilot_mcp::Grants;

#[derive(clap::Args)]
pub struct McpArgs {
    /// What the server may do beyond reading, comma separated: input (act on apps), launch
    /// (start programs), files (write screenshots, under --files-dir), all.
    #[arg(long, value_name = "CAPABILITIES", value_delimiter = ',')]
    allow: Vec<String>,
    /// The directory `--allow files` writes in (and nowhere else).
    #[arg(long, value_name = "DIR")]
    files_dir: Option<std::path::PathBuf>,
    /// The old spelling of `--allow input,launch,files`, with files written anywhere.
    #[arg(long, conflicts_with_all = ["allow", "files_dir"])]
    allow_input: bool,
    /// Sessions may be opened on these apps only (their names as list_apps shows them).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    apps: Vec<String>,
}

pub async fn run(engine: Engine, args: McpArgs) -> anyhow::Result<ExitCode> {
    let grants = if args.allow_input {
        Grants::legacy_allow_input()
    } else {
        Grants::parse(&args.allow, args.files_dir.as_deref()).map_err(|e| anyhow!(e))?
    }
    .only_apps(args.apps);
    deskpilot_mcp::serve_stdio(Arc::new(engine), grants).await?;
    Ok(ExitCode::SUCCESS)
}
