//! `screenshot`: a PNG of a window (labelled with the refs a snapshot gives), an element, or
//! the screen, written to a file.

use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use deskpilot_core::capture::{Region, ShotRequest};
use deskpilot_core::{Engine, SnapshotRequest, present};

use crate::words::selector;
use crate::{connect, report};

#[derive(Subcommand)]
pub enum FilesCommand {
    /// Save a PNG of a window (labelled with the refs a snapshot gives), an element, or the
    /// screen.
    Screenshot {
        target: String,
        /// Where to write the PNG.
        #[arg(long, short)]
        out: std::path::PathBuf,
        /// Only this element (a selector matching exactly one).
        #[arg(long, value_name = "SELECTOR")]
        element: Option<String>,
        /// The whole screen.
        #[arg(long, conflicts_with = "element")]
        screen: bool,
        /// No ref labels.
        #[arg(long)]
        plain: bool,
        /// Longest side in pixels.
        #[arg(long, default_value_t = 1280)]
        max_size: u32,
    },
}

pub async fn run(engine: &Engine, command: FilesCommand) -> anyhow::Result<ExitCode> {
    let FilesCommand::Screenshot {
        target,
        out,
        element,
        screen,
        plain,
        max_size,
    } = command;
    let Some(session) = connect(engine, &target).await? else {
        return Ok(ExitCode::from(1));
    };
    // The labels are the refs of a snapshot: take one first.
    if !plain
        && let Err(e) = engine
            .session(&session)?
            .snapshot(&SnapshotRequest::default())
            .await
    {
        return Ok(report(&e));
    }
    let region = match (element, screen) {
        (Some(text), _) => Region::Element(selector(&text)?),
        (None, true) => Region::Screen,
        (None, false) => Region::Window,
    };
    let request = ShotRequest {
        region,
        annotate: !plain,
        max_side: max_size,
    };
    match engine.session(&session)?.screenshot(&request).await {
        Ok(shot) => {
            std::fs::write(&out, &shot.png)
                .with_context(|| format!("writing {}", out.display()))?;
            outln!("{}: {}", out.display(), present::shot(&shot));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Ok(report(&e)),
    }
}
