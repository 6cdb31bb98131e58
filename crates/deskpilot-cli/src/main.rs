//! `deskpilot`: see and drive desktop applications through their accessibility tree.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use deskpilot_core::{ConnectTarget, Engine, present};

/// Writes to stdout like `print!`/`println!`, but a reader that went away
/// (`deskpilot find ... | head`) ends the program quietly instead of a panic.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout(), $($arg)*)
            && e.kind() == std::io::ErrorKind::BrokenPipe
        {
            std::process::exit(0);
        }
    }};
}

/// `out!` with a newline.
macro_rules! outln {
    () => { out!("\n") };
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

mod act;
mod desktop;
mod doctor;
mod export;
mod files;
mod mcp;
mod packs;
mod pipeline;
mod probe;
mod read;
mod serve;
mod since;
mod words;

#[derive(Parser)]
#[command(
    name = "deskpilot",
    version,
    about = "See and drive desktop applications through their accessibility tree: read, find, act (with every effect checked), and serve agents over MCP"
)]
struct Cli {
    #[command(flatten)]
    platform: desktop::PlatformArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(flatten)]
    Read(read::ReadCommand),
    #[command(flatten)]
    Act(act::ActCommand),
    #[command(flatten)]
    Files(files::FilesCommand),
    /// Serve the Model Context Protocol on stdin/stdout for agents (read-only unless given
    /// capabilities with --allow).
    Mcp(mcp::McpArgs),
    /// Start a private headless desktop, optional apps on it, and the MCP server over HTTP
    /// on it, as one process tree that SIGTERM stops whole (docs/deploy.md).
    Serve(serve::ServeArgs),
    /// Run a pipeline: many steps in one go, each judged, with cleanup (see `run_steps`).
    Run(pipeline::RunArgs),
    /// Draft an app pack from a running app: its controls under logical names, each with a
    /// selector (docs/app-packs.md).
    Probe(probe::ProbeArgs),
    /// List the app packs, or describe one (docs/app-packs.md).
    Packs(packs::PacksArgs),
    /// Run an app pack's workflow: PACK/WORKFLOW --input NAME=VALUE (docs/app-packs.md).
    Workflow(packs::WorkflowArgs),
    /// Make a recorded session (`mcp --record DIR`) a test (docs/recording.md).
    Export(export::ExportArgs),
    /// What deskpilot finds here: the session, the desktop reached, each way of acting (served,
    /// or missing and why), the apps (blind ones with their fix), what a host must pass.
    Doctor(doctor::DoctorArgs),
    /// Write the manual pages (deskpilot.1, and one per command) into DIR.
    #[command(hide = true)]
    Man {
        #[arg(value_name = "DIR")]
        dir: std::path::PathBuf,
    },
}

/// `DESKPILOT_LOG` (default `warn`), except that the protocol libraries log warnings only:
/// their debug output carries whole messages, and a message may hold typed text or a password.
fn log_filter() -> tracing_subscriber::EnvFilter {
    let mut filter = tracing_subscriber::EnvFilter::try_from_env("DESKPILOT_LOG")
        .unwrap_or_else(|_| "warn".into());
    for quiet in ["rmcp=warn", "zbus=warn", "atspi=warn"] {
        filter = filter.add_directive(quiet.parse().expect("static directive"));
    }
    filter
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(log_filter())
        .init();
    let cli = Cli::parse();
    // One thread: the work is D-Bus round trips, and measured on the GTK3 fixture a
    // single-threaded runtime spent ~20% less CPU per snapshot than two workers (fewer
    // cross-thread wake-ups per call). Blocking X11 calls run on tokio's blocking pool.
    let runtime = tokio::runtime::Builder::new_current_thread()
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
    // The manual is the CLI's own definition (`cargo xtask deb` packs it).
    if let Command::Man { dir } = &cli.command {
        clap_mangen::generate_to(<Cli as clap::CommandFactory>::command(), dir)?;
        return Ok(ExitCode::SUCCESS);
    }
    // A recording is a file: no desktop needed.
    if let Command::Export(args) = cli.command {
        return export::run(args);
    }
    // It starts a desktop of its own.
    if let Command::Serve(args) = cli.command {
        return serve::run(args).await;
    }
    // It says what is missing, a desktop included.
    if let Command::Doctor(args) = cli.command {
        return doctor::run(cli.platform, args).await;
    }
    let engine = match desktop::engine(cli.platform).await {
        Ok(engine) => engine,
        // A host that starts the server sees it answer, and each tool says what is missing.
        Err(missing) if matches!(cli.command, Command::Mcp(_)) => {
            eprintln!("deskpilot: {missing}; serving anyway, every tool fails no_desktop");
            missing.engine()
        }
        // Packs are read from disk and the binary: no desktop needed.
        Err(missing) if matches!(cli.command, Command::Packs(_)) => missing.engine(),
        Err(missing) => anyhow::bail!("{missing}"),
    };
    match cli.command {
        Command::Mcp(args) => mcp::run(engine, args).await,
        Command::Read(command) => read::run(&engine, command).await,
        Command::Act(command) => act::run(&engine, command).await,
        Command::Files(command) => files::run(&engine, command).await,
        Command::Run(args) => pipeline::run(engine, args).await,
        Command::Probe(args) => probe::run(&engine, args).await,
        Command::Packs(args) => packs::list(engine, args).await,
        Command::Workflow(args) => packs::workflow(engine, args).await,
        Command::Export(_) | Command::Serve(_) | Command::Doctor(_) | Command::Man { .. } => {
            unreachable!("an export, a server or a doctor returned before the desktop")
        }
    }
}

/// Prints an engine failure; exit code 1 for "not found", 2 for everything else.
fn report(error: &deskpilot_core::Error) -> ExitCode {
    eprintln!(
        "deskpilot: {}",
        present::failure_line(error, &words::command)
    );
    match error.code {
        deskpilot_core::Code::NotFound => ExitCode::from(1),
        _ => ExitCode::from(2),
    }
}

/// Prints `result`'s text (or its failure) and gives the exit code.
fn finish<T>(result: deskpilot_core::error::Result<T>, print: impl FnOnce(T)) -> ExitCode {
    match result {
        Ok(value) => {
            print(value);
            ExitCode::SUCCESS
        }
        Err(e) => report(&e),
    }
}

/// Opens a session on an app by name or pid, or a window by title; `None` (reported) when
/// nothing matches.
async fn connect(engine: &Engine, target: &str) -> anyhow::Result<Option<String>> {
    let apps = engine.apps().await?;
    // An app by the name `apps` shows comes first (a session over all its windows), then a
    // window by its title.
    let candidates = [
        target.parse().ok().map(ConnectTarget::Pid),
        Some(ConnectTarget::AppName(target.to_owned())),
        Some(ConnectTarget::WindowTitle(target.to_owned())),
    ];
    let mut last = None;
    for candidate in candidates.into_iter().flatten() {
        match deskpilot_core::session::choose(&apps, &candidate) {
            Ok(_) => {
                let session = engine.connect(&candidate).await?.id;
                // One command per process: there is no earlier tree to show changes against,
                // and the whole tree after every action would bury the report.
                engine.session(&session)?.follow_tree(false)?;
                return Ok(Some(session));
            }
            Err(e) => last = Some(e),
        }
    }
    if let Some(e) = last {
        eprintln!(
            "deskpilot: {} ({})",
            deskpilot_core::hint::worded(&e.message, words::command),
            deskpilot_core::hint::worded(&e.hint, words::command)
        );
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    /// clap's own checks of every command's arguments (unique names, valid defaults), which
    /// otherwise run only when that command is parsed.
    #[test]
    fn every_commands_arguments_are_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
