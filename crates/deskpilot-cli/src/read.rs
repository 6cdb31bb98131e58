//! The reading commands: `apps`, `snapshot`, `find`, `props`, `text`, `table`, `at`,
//! `focused`, `wait`. Text comes from core's presentation layer, and `--json` is the MCP
//! server's structured output, so both faces say the same.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::anyhow;
use clap::Subcommand;
use deskpilot_core::{
    Condition, ConditionWords, Engine, Filter, Selector, SnapshotRequest, Until, present,
};
use deskpilot_mcp::output;

use crate::words::{self, named, selector};
use crate::{connect, finish};

#[derive(Subcommand)]
pub enum ReadCommand {
    /// List applications and their windows; apps deskpilot cannot read are flagged, with how
    /// to switch their accessibility on.
    Apps {
        #[arg(long)]
        json: bool,
    },
    /// Print the accessibility tree of an application (by name or pid) or window (by title).
    Snapshot {
        target: String,
        /// interactive (default), text or all.
        #[arg(long, default_value = "interactive")]
        filter: String,
        /// Stop after this many nodes.
        #[arg(long, default_value_t = 2000)]
        max_nodes: usize,
        /// Only the subtree of the element this selector matches (exactly one).
        #[arg(long, value_name = "SELECTOR")]
        within: Option<String>,
        /// For an app: the window shown in full, by title (default: the active one; the
        /// others are listed one line each).
        #[arg(long, value_name = "TITLE")]
        window: Option<String>,
        #[arg(long)]
        json: bool,
        /// Keep this snapshot in FILE (its lines and the elements they show), for `--since`.
        #[arg(long, value_name = "FILE")]
        save: Option<std::path::PathBuf>,
        /// Print only what changed since the snapshot kept in FILE (`-` gone or as it was,
        /// `+` new or as it is now); with `--save` on the same FILE, each run reads the
        /// changes since the last.
        #[arg(long, value_name = "FILE")]
        since: Option<std::path::PathBuf>,
    },
    /// Find elements by selector, e.g. 'button[name="Save"]' (see docs/selectors.md).
    Find {
        target: String,
        selector: String,
        #[arg(long, default_value_t = 20)]
        limit: usize,
        #[arg(long)]
        json: bool,
    },
    /// Everything known about one element (selected by a selector that matches exactly one).
    Props { target: String, selector: String },
    /// An element's text, paged by characters.
    Text {
        target: String,
        selector: String,
        #[arg(long, default_value_t = 0)]
        offset: u32,
        #[arg(long)]
        length: Option<u32>,
    },
    /// A table's rows with its headers, paged (tab-separated).
    Table {
        target: String,
        selector: String,
        #[arg(long, default_value_t = 0)]
        first_row: u32,
        #[arg(long, default_value_t = 50)]
        rows: u32,
        #[arg(long)]
        json: bool,
    },
    /// The element at a screen point, with its ancestors.
    At { target: String, x: i32, y: i32 },
    /// The element that has the keyboard focus.
    Focused { target: String },
    /// Wait until an element appears (default), is attached, disappears, has a state
    /// (`--state checked`, `--state '!checked'`) or a value (`--value`).
    Wait {
        target: String,
        selector: String,
        #[arg(long, conflicts_with_all = ["state", "value"], value_parser = named::<Until>())]
        until: Option<Until>,
        #[arg(long, conflicts_with = "value")]
        state: Option<String>,
        #[arg(long)]
        value: Option<String>,
        /// Until a match's value holds this text, any case.
        #[arg(long, conflicts_with_all = ["until", "state", "value"])]
        value_contains: Option<String>,
        /// Until exactly this many visible elements match.
        #[arg(long, conflicts_with_all = ["until", "state", "value", "value_contains"])]
        count: Option<usize>,
        /// Give up after this many milliseconds.
        #[arg(long, default_value_t = 5000)]
        timeout_ms: u64,
    },
}

impl ReadCommand {
    fn target(&self) -> Option<&str> {
        match self {
            ReadCommand::Apps { .. } => None,
            ReadCommand::Snapshot { target, .. }
            | ReadCommand::Find { target, .. }
            | ReadCommand::Props { target, .. }
            | ReadCommand::Text { target, .. }
            | ReadCommand::Table { target, .. }
            | ReadCommand::At { target, .. }
            | ReadCommand::Focused { target }
            | ReadCommand::Wait { target, .. } => Some(target),
        }
    }
}

pub async fn run(engine: &Engine, command: ReadCommand) -> anyhow::Result<ExitCode> {
    let session = match command.target() {
        None => String::new(),
        Some(target) => match connect(engine, target).await? {
            Some(session) => session,
            None => return Ok(ExitCode::from(1)),
        },
    };
    let session = session.as_str();
    Ok(match command {
        ReadCommand::Apps { json } => {
            let apps = engine.list_apps().await?;
            if json {
                let out = output::ListAppsOut::new(&apps, engine.wiring());
                outln!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                out!("{}", present::apps(&apps));
            }
            ExitCode::SUCCESS
        }
        ReadCommand::Snapshot {
            filter,
            max_nodes,
            within,
            window,
            json,
            save,
            since,
            ..
        } => {
            let filter = Filter::from_name(&filter)
                .ok_or_else(|| anyhow!("unknown filter {filter:?} (interactive, text, all)"))?;
            let request = SnapshotRequest {
                filter,
                max_nodes,
                within: within.as_deref().map(selector).transpose()?,
                window: window.map(deskpilot_core::WindowPick::Title),
                ..SnapshotRequest::default()
            };
            let earlier = since.as_deref().map(crate::since::load).transpose()?;
            let snapshot = engine.session(session)?.snapshot(&request).await;
            if let (Ok(snapshot), Some(path)) = (&snapshot, &save) {
                crate::since::save(path, snapshot)?;
            }
            finish(snapshot, |mut snapshot| {
                // Versions are a session's, and this one ends with the command.
                snapshot.view = None;
                if json {
                    let out = output::SnapshotOut::new(&snapshot, true);
                    outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
                } else if let (Some(earlier), Some(path)) = (&earlier, &since) {
                    out!("{}", crate::since::changes(path, earlier, &snapshot));
                } else {
                    out!("{}", present::snapshot(&snapshot).joined());
                }
            })
        }
        ReadCommand::Find {
            selector: text,
            limit,
            json,
            ..
        } => {
            let selector = Selector::parse(&text)?;
            let found = engine
                .session(session)?
                .find(&selector, None, limit)
                .await?;
            if json {
                let out = output::FindOut::new(&found);
                outln!("{}", serde_json::to_string_pretty(&out)?);
            } else {
                out!("{}", present::find_in(&found, &words::command));
            }
            if found.total == 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        ReadCommand::Props { selector: text, .. } => {
            let resolved = engine.session(session)?.properties(&selector(&text)?).await;
            finish(resolved, |resolved| {
                let out = output::PropertiesOut::new(resolved.reference, &resolved.node);
                outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
            })
        }
        ReadCommand::Text {
            selector: text,
            offset,
            length,
            ..
        } => {
            let read = engine
                .session(session)?
                .read_text(&selector(&text)?, offset, length)
                .await;
            finish(read, |read| {
                let page = present::text_page(&read);
                outln!("{}", page.body);
                if let Some(trailer) = page.trailer {
                    eprint!("{}", trailer.trim_start());
                }
            })
        }
        ReadCommand::Table {
            selector: text,
            first_row,
            rows,
            json,
            ..
        } => {
            let read = engine
                .session(session)?
                .read_table(&selector(&text)?, first_row, rows)
                .await;
            finish(read, |read| {
                if json {
                    let out = output::ReadTableOut::new(read);
                    outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
                } else {
                    let page = present::table_tsv(&read);
                    out!("{}", page.body);
                    eprint!("{}", page.trailer.unwrap_or_default());
                }
            })
        }
        ReadCommand::At { x, y, .. } => {
            finish(engine.session(session)?.hit_test(x, y).await, |path| {
                out!("{}", present::hit_path(&path, x, y))
            })
        }
        ReadCommand::Focused { .. } => finish(engine.session(session)?.focus().await, |focused| {
            out!("{}", present::focus(focused.as_ref()))
        }),
        ReadCommand::Wait {
            selector: text,
            until,
            state,
            value,
            value_contains,
            count,
            timeout_ms,
            ..
        } => {
            let condition = Condition::from_words(ConditionWords {
                until,
                state: state.as_deref(),
                value,
                value_contains,
                count,
            })?;
            let selector = Selector::parse(&text)?;
            let timeout = Duration::from_millis(timeout_ms);
            let waited = engine
                .session(session)?
                .wait_for(&selector, None, &condition, timeout)
                .await;
            finish(waited, |outcome| out!("{}", present::waited(&outcome)))
        }
    })
}
