//! `deskpilot export LOG --as test|pipeline|workflow [-o FILE]`: a recording (`deskpilot mcp
//! --record`) made a test for `deskpilot-test`, a pipeline or an app pack workflow
//! (docs/recording.md). Needs no desktop.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use deskpilot_mcp::record::export::{Kind, export};

#[derive(clap::Args)]
pub struct ExportArgs {
    /// A session's log, as `deskpilot mcp --record DIR` wrote it.
    log: PathBuf,
    /// What to make of it.
    #[arg(long = "as", value_enum, default_value_t = As::Test)]
    kind: As,
    /// Write it here instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum As {
    /// A Rust test for deskpilot-test.
    Test,
    /// A pipeline for `deskpilot run`.
    Pipeline,
    /// An app pack workflow, with the controls.json entries it needs.
    Workflow,
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.log)
        .with_context(|| format!("reading {}", args.log.display()))?;
    let kind = match args.kind {
        As::Test => Kind::Test,
        As::Pipeline => Kind::Pipeline,
        As::Workflow => Kind::Workflow,
    };
    let exported = export(&text, kind, &deskpilot_mcp::has_tool)
        .with_context(|| format!("exporting {}", args.log.display()))?;
    for note in &exported.notes {
        eprintln!("deskpilot: {note}");
    }
    match &args.output {
        Some(path) => std::fs::write(path, &exported.text)
            .with_context(|| format!("writing {}", path.display()))?,
        None => print!("{}", exported.text),
    }
    Ok(ExitCode::SUCCESS)
}
