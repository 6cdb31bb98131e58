//! `deskpilot`: see and drive desktop applications through their accessibility tree.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, anyhow};
use clap::{Parser, Subcommand};
use deskpilot_atspi::{AtspiBackend, ConnectOptions};
use deskpilot_core::{AppInfo, ConnectTarget, Engine, Filter, Selector, SnapshotRequest, Target};

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
mod launcher;

#[derive(Parser)]
#[command(name = "deskpilot", version, about)]
struct Cli {
    /// D-Bus session bus address (default: $DBUS_SESSION_BUS_ADDRESS).
    #[arg(long, global = true, value_name = "ADDRESS")]
    bus: Option<String>,
    /// X11 display (default: $DISPLAY); without one, window ids and GTK 4 screen positions
    /// are unknown.
    #[arg(long, global = true, value_name = "DISPLAY")]
    display: Option<String>,
    /// Talk to every app through the accessibility bus, never over a direct connection, so
    /// that `dbus-monitor` sees every call (for debugging; slower). Also
    /// `DESKPILOT_NO_PEERS=1`.
    #[arg(long, global = true, env = "DESKPILOT_NO_PEERS", value_parser = clap::builder::BoolishValueParser::new(), default_value_t = false)]
    no_peers: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum WindowVerb {
    Activate,
    Minimize,
    Maximize,
    Restore,
    Close,
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
    },
    /// Serve the Model Context Protocol on stdin/stdout for agents (read-only unless
    /// --allow-input).
    Mcp {
        /// List and allow the tools that change apps (click, type_text, set_value, ...).
        #[arg(long)]
        allow_input: bool,
    },
    #[command(flatten)]
    Act(act::ActCommand),
    /// Activate, minimize, maximize, restore or close a window.
    Window {
        target: String,
        #[arg(value_enum)]
        action: WindowVerb,
    },
    /// Start a program (no shell) and wait until it registers on the accessibility bus.
    Launch {
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 30)]
        timeout: u64,
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        argv: Vec<String>,
    },
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
    /// A table's rows with its headers, paged.
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
    /// Find elements by selector, e.g. 'button[name="Save"]' (see docs/selectors.md).
    Find {
        target: String,
        selector: String,
        #[arg(long, default_value_t = 20)]
        limit: usize,
        #[arg(long)]
        json: bool,
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
    let bus = match cli.bus {
        Some(bus) => bus,
        None => std::env::var("DBUS_SESSION_BUS_ADDRESS")
            .context("no --bus given and DBUS_SESSION_BUS_ADDRESS is not set")?,
    };
    let mut options = ConnectOptions::new(bus.clone());
    options.use_peers = !cli.no_peers;
    let mut backend = AtspiBackend::connect(options).await?;
    let mut input = None;
    let display = cli.display.or_else(|| std::env::var("DISPLAY").ok());
    let launcher = launcher::ProcessLauncher::new(&bus, display.as_deref());
    if let Some(display) = display {
        match deskpilot_x11::X11Windows::connect(&display) {
            Ok(x11) => backend = backend.with_window_system(std::sync::Arc::new(x11)),
            Err(e) => tracing::warn!("no X11 window information: {e}"),
        }
        match deskpilot_x11::X11Input::connect(&display) {
            Ok(device) => input = Some(std::sync::Arc::new(device)),
            Err(e) => tracing::warn!("no synthetic input: {e}"),
        }
    }
    let mut engine = Engine::new(std::sync::Arc::new(backend))
        .with_launcher(std::sync::Arc::new(launcher))
        .with_devices_missing(deskpilot_core::DevicesMissing {
            why: "deskpilot has no X11 display (a Wayland session, or DISPLAY unset)".into(),
            hint: "synthetic input and screenshots need an X11 display (pass --display); semantic actions still work".into(),
        });
    if let Some(input) = input {
        engine = engine.with_input(input.clone()).with_capture(input);
    }
    match cli.command {
        Command::Mcp { allow_input } => {
            deskpilot_mcp::serve_stdio(std::sync::Arc::new(engine), allow_input).await?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Window { target, action } => {
            let Some(session) = connect(&engine, &target).await? else {
                return Ok(ExitCode::from(1));
            };
            let action = match action {
                WindowVerb::Activate => deskpilot_core::act::WindowAction::Activate,
                WindowVerb::Minimize => deskpilot_core::act::WindowAction::Minimize,
                WindowVerb::Maximize => deskpilot_core::act::WindowAction::Maximize,
                WindowVerb::Restore => deskpilot_core::act::WindowAction::Restore,
                WindowVerb::Close => deskpilot_core::act::WindowAction::Close,
            };
            match engine.window_action(&session, action).await {
                Ok(report) => {
                    outln!("{}", deskpilot_core::present::action(&report));
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => Ok(report(&e)),
            }
        }
        Command::Launch { timeout, argv } => {
            match engine.launch_app(&argv, Duration::from_secs(timeout)).await {
                Ok(launched) => {
                    outln!("started pid {}", launched.spawned_pid);
                    print_app(&launched.app);
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => Ok(report(&e)),
            }
        }
        Command::Screenshot {
            target,
            out,
            element,
            screen,
            plain,
            max_size,
        } => {
            let Some(session) = connect(&engine, &target).await? else {
                return Ok(ExitCode::from(1));
            };
            if !plain && let Err(e) = engine.snapshot(&session, &SnapshotRequest::default()).await {
                return Ok(report(&e));
            }
            let region = match (element, screen) {
                (Some(selector), _) => deskpilot_core::capture::Region::Element(Target::Selector(
                    Selector::parse(&selector)?,
                )),
                (None, true) => deskpilot_core::capture::Region::Screen,
                (None, false) => deskpilot_core::capture::Region::Window,
            };
            let request = deskpilot_core::capture::ShotRequest {
                region,
                annotate: !plain,
                max_side: max_size,
            };
            match engine.screenshot(&session, &request).await {
                Ok(shot) => {
                    std::fs::write(&out, &shot.png)
                        .with_context(|| format!("writing {}", out.display()))?;
                    outln!(
                        "{}: {}x{} ({} refs labelled)",
                        out.display(),
                        shot.width,
                        shot.height,
                        shot.labels
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => Ok(report(&e)),
            }
        }
        Command::Act(command) => {
            let Some(session) = connect(&engine, command.target()).await? else {
                return Ok(ExitCode::from(1));
            };
            act::run(&engine, &session, &command).await
        }
        Command::Apps { json } => {
            let apps = engine.apps().await?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&apps)?);
            } else {
                for app in &apps {
                    print_app(app);
                }
                // Apps deskpilot cannot read at all, and how to fix that.
                for w in engine.windows_off_the_bus(&apps).await {
                    let pid = w.pid.map_or("?".into(), |p| p.to_string());
                    let name = w.process.as_deref().unwrap_or("?");
                    outln!("{name} (pid {pid}) [not on the accessibility bus]");
                    outln!("  window {:?} (X11 {})", w.title, w.id);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Snapshot {
            target,
            filter,
            max_nodes,
            within,
            window,
            json,
        } => {
            let filter = Filter::from_name(&filter)
                .ok_or_else(|| anyhow!("unknown filter {filter:?} (interactive, text, all)"))?;
            let Some(session) = connect(&engine, &target).await? else {
                return Ok(ExitCode::from(1));
            };
            let within = within
                .as_deref()
                .map(Selector::parse)
                .transpose()?
                .map(Target::Selector);
            let request = SnapshotRequest {
                filter,
                max_nodes,
                within,
                window: window.map(deskpilot_core::WindowPick::Title),
                timeout: Duration::from_secs(10),
                ..SnapshotRequest::default()
            };
            let snapshot = match engine.snapshot(&session, &request).await {
                Ok(snapshot) => snapshot,
                Err(e) => return Ok(report(&e)),
            };
            if json {
                outln!("{}", serde_json::to_string_pretty(&snapshot.tree)?);
            } else {
                out!("{}", snapshot.rendered.text);
                if let Some(cut) = &snapshot.truncated {
                    outln!(
                        "# truncated: {} budget{}",
                        cut.reason.name(),
                        cut.at
                            .as_ref()
                            .map(|r| format!(" at {r}"))
                            .unwrap_or_default()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Props { target, selector } => {
            let Some(session) = connect(&engine, &target).await? else {
                return Ok(ExitCode::from(1));
            };
            let target = Target::Selector(Selector::parse(&selector)?);
            match engine.properties(&session, &target).await {
                Ok(resolved) => {
                    outln!("{}", serde_json::to_string_pretty(&resolved.node)?);
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => Ok(report(&e)),
            }
        }
        Command::Text {
            target,
            selector,
            offset,
            length,
        } => {
            let Some(session) = connect(&engine, &target).await? else {
                return Ok(ExitCode::from(1));
            };
            let target = Target::Selector(Selector::parse(&selector)?);
            match engine.read_text(&session, &target, offset, length).await {
                Ok(read) => {
                    outln!("{}", read.slice.text);
                    if let Some(next) = read.next_offset {
                        eprintln!(
                            "# characters {}..{} of {}; next --offset {next}",
                            read.slice.start, read.slice.end, read.slice.total
                        );
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => Ok(report(&e)),
            }
        }
        Command::Table {
            target,
            selector,
            first_row,
            rows,
            json,
        } => {
            let Some(session) = connect(&engine, &target).await? else {
                return Ok(ExitCode::from(1));
            };
            let target = Target::Selector(Selector::parse(&selector)?);
            match engine.read_table(&session, &target, first_row, rows).await {
                Ok(read) if json => {
                    outln!("{}", serde_json::to_string_pretty(&read)?);
                    Ok(ExitCode::SUCCESS)
                }
                Ok(read) => {
                    outln!("{}", read.slice.headers.join("\t"));
                    for row in &read.slice.rows {
                        outln!("{}", row.join("\t"));
                    }
                    eprintln!(
                        "# rows {}..{} of {}",
                        read.slice.first_row,
                        read.slice.first_row + read.slice.rows.len() as u32,
                        read.slice.row_count
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => Ok(report(&e)),
            }
        }
        Command::Find {
            target,
            selector,
            limit,
            json,
        } => {
            let selector = Selector::parse(&selector)?;
            let Some(session) = connect(&engine, &target).await? else {
                return Ok(ExitCode::from(1));
            };
            let found = engine.find(&session, &selector, None, limit).await?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&found)?);
            } else {
                for m in &found.matches {
                    outln!(
                        "- {} \"{}\"{} [ref={}]",
                        m.role,
                        deskpilot_core::escape(&m.name, 100),
                        if m.visible { "" } else { " [hidden]" },
                        m.reference
                    );
                }
                outln!(
                    "# {} matches ({} visible, {} exact)",
                    found.total,
                    found.visible,
                    found.exact
                );
                for u in &found.unsearched {
                    outln!(
                        "# not searched: {} \"{}\" [ref={}]: {}",
                        u.role,
                        u.name,
                        u.reference,
                        u.why
                    );
                }
            }
            Ok(if found.total == 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
    }
}

/// Prints an engine failure; exit code 1 for "not found", 2 for everything else.
fn report(error: &deskpilot_core::Error) -> ExitCode {
    eprintln!(
        "deskpilot: {} ({}): {}",
        error.code.name(),
        error.message,
        error.hint
    );
    match error.code {
        deskpilot_core::Code::NotFound => ExitCode::from(1),
        _ => ExitCode::from(2),
    }
}

/// Opens a session on an app by name or pid, or a window by title.
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
            Ok(_) => return Ok(Some(engine.connect(&candidate).await?.id)),
            Err(e) => last = Some(e),
        }
    }
    if let Some(e) = last {
        eprintln!("deskpilot: {e} ({})", e.hint);
    }
    Ok(None)
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
    outln!("{} (pid {pid}{toolkit}){responding}", app.name);
    for window in &app.windows {
        let bounds = window
            .bounds
            .map(|b| format!(" {}x{}+{}+{}", b.width, b.height, b.x, b.y))
            .unwrap_or_default();
        outln!("  {} \"{}\"{bounds}", window.role, window.title);
    }
}
