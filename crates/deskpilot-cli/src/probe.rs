//! `deskpilot probe APP`: an app pack drafted from a running app (what `probe_app` gives an
//! agent), checked as a pack is, printed and, with `--out`, written to a new directory.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, anyhow, bail};
use deskpilot_core::Engine;
use deskpilot_mcp::packs::probe;
use deskpilot_mcp::packs::read::RawPack;

use crate::connect;

#[derive(clap::Args)]
pub struct ProbeArgs {
    /// The app, by name or pid, or a window by title.
    target: String,
    /// Write the draft into this new directory (a pack directory: manifest.json, ...).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub async fn run(engine: &Engine, args: ProbeArgs) -> anyhow::Result<ExitCode> {
    let Some(session) = connect(engine, &args.target).await? else {
        return Ok(ExitCode::from(1));
    };
    let handle = engine.session(&session)?;
    let draft = probe::probe(&handle)
        .await
        .map_err(|e| anyhow!("{}", e.message))?;
    let texts: BTreeMap<&'static str, String> = draft
        .files()
        .into_iter()
        .map(|(name, value)| {
            (
                name,
                serde_json::to_string_pretty(&value).unwrap_or_default() + "\n",
            )
        })
        .collect();
    let report = deskpilot_mcp::check_pack(&RawPack {
        place: "draft".into(),
        files: texts.clone(),
    });
    for (name, text) in &texts {
        outln!("== {name}\n{text}");
    }
    for line in &draft.unread {
        eprintln!("deskpilot: not read: {line}");
    }
    for finding in report.errors.iter().chain(&report.warnings) {
        eprintln!(
            "deskpilot: {} {}: {} ({})",
            finding.file, finding.path, finding.message, finding.code
        );
    }
    if !report.valid() {
        bail!("the draft does not validate");
    }
    if let Some(dir) = &args.out {
        if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::create_dir(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, text) in &texts {
            std::fs::write(dir.join(name), text).with_context(|| format!("writing {name}"))?;
        }
        eprintln!(
            "deskpilot: the draft of {:?} is in {}",
            draft.manifest.id,
            dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
