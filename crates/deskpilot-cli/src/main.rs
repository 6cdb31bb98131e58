//! `deskpilot`: see and drive desktop applications through their accessibility tree.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, anyhow};
use clap::{Parser, Subcommand};
use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::{AppInfo, Backend, Filter, WalkLimits, render};

#[derive(Parser)]
#[command(name = "deskpilot", version, about)]
struct Cli {
    /// D-Bus session bus address (default: $DBUS_SESSION_BUS_ADDRESS).
    #[arg(long, global = true, value_name = "ADDRESS")]
    bus: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List applications and their windows.
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
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DESKPILOT_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .init();
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("deskpilot: {e:#}");
            ExitCode::from(2)
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let bus = match cli.bus {
        Some(bus) => bus,
        None => std::env::var("DBUS_SESSION_BUS_ADDRESS")
            .context("no --bus given and DBUS_SESSION_BUS_ADDRESS is not set")?,
    };
    let backend = AtspiBackend::connect(ConnectOptions::new(bus)).await?;
    match cli.command {
        Command::Apps { json } => {
            let apps = backend.apps().await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&apps)?);
            } else {
                for app in &apps {
                    print_app(app);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Snapshot {
            target,
            filter,
            json,
        } => {
            let filter = Filter::from_name(&filter)
                .ok_or_else(|| anyhow!("unknown filter {filter:?} (interactive, text, all)"))?;
            let apps = backend.apps().await?;
            let Some(root) = resolve(&apps, &target) else {
                eprintln!("deskpilot: no application or window matches {target:?}");
                return Ok(ExitCode::from(1));
            };
            let tree = backend
                .snapshot(&root, &WalkLimits::with_timeout(Duration::from_secs(10)))
                .await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&tree)?);
            } else {
                print!("{}", render(&tree, filter, &|_| None).text);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn print_app(app: &AppInfo) {
    let pid = app.pid.map_or("?".into(), |p| p.to_string());
    let toolkit = match (&app.toolkit, &app.toolkit_version) {
        (Some(t), Some(v)) => format!(" {t} {v}"),
        (Some(t), None) => format!(" {t}"),
        _ => String::new(),
    };
    let responding = if app.responding {
        ""
    } else {
        " [not responding]"
    };
    println!("{} (pid {pid}{toolkit}){responding}", app.name);
    for window in &app.windows {
        let bounds = window
            .bounds
            .map(|b| format!(" {}x{}+{}+{}", b.width, b.height, b.x, b.y))
            .unwrap_or_default();
        println!("  {} \"{}\"{bounds}", window.role, window.title);
    }
}

/// An app by name or pid, or a window by title (exact first, then contains).
fn resolve(apps: &[AppInfo], target: &str) -> Option<deskpilot_core::model::ElementId> {
    let pid: Option<u32> = target.parse().ok();
    let app = apps
        .iter()
        .find(|a| a.name == target || (pid.is_some() && a.pid == pid));
    if let Some(app) = app {
        return Some(app.id.clone());
    }
    let windows = || apps.iter().flat_map(|a| a.windows.iter());
    windows()
        .find(|w| w.title == target)
        .or_else(|| windows().find(|w| w.title.contains(target)))
        .map(|w| w.id.clone())
}
