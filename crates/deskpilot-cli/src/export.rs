//! `deskpilot export LOG --as test|pipeline|workflow [-o FILE]`: a recording (`deskpilot mcp
//! --record`) made a test for `deskpilot-test`, a pipeline or an app pack workflow
//! (docs/recording.md). Needs no desktop.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};

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
    let mut notes = exported.notes;
    let text = match kind {
        Kind::Test => formatted(exported.text, &mut notes),
        _ => exported.text,
    };
    for note in &notes {
        eprintln!("deskpilot: {note}");
    }
    match &args.output {
        Some(path) => {
            std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `source` as `rustfmt` writes it (as `cargo fmt` would keep it), or as it is, with a note,
/// when there is no rustfmt.
fn formatted(source: String, notes: &mut Vec<String>) -> String {
    let run = || -> std::io::Result<std::process::Output> {
        let mut child = Command::new("rustfmt")
            .args(["--edition", "2024", "--emit", "stdout"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(source.as_bytes())?;
        }
        child.wait_with_output()
    };
    match run() {
        Ok(out) if out.status.success() => String::from_utf8(out.stdout).unwrap_or(source),
        _ => {
            notes.push("rustfmt did not run: the test is written unformatted".into());
            source
        }
    }
}
