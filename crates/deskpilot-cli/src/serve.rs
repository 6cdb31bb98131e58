//! `deskpilot serve`: one command for one desktop of a fleet. It starts a private headless
//! desktop, binds the MCP server over HTTP on it (`/healthz` answers from then on), starts
//! the `--app`s, each waited for on the accessibility bus, and only then is `/readyz` 200.
//! SIGTERM or SIGINT stops it whole: the server, the apps and the desktop, every process
//! stamped with the desktop's mark (deskpilot-linux's `procs`).

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail};
use deskpilot_core::Engine;
use deskpilot_mcp::http::Readiness;

use crate::mcp::{McpArgs, bind_http};

/// How long an app may take to show a window on the accessibility bus.
const APP_START: Duration = Duration::from_secs(60);

#[derive(clap::Args)]
pub struct ServeArgs {
    /// An app to start once the desktop is up, as a command line without a shell
    /// ("mousepad --disable-server"); repeatable. /readyz is 200 once each has a window on
    /// the accessibility bus; one that does not start ends the server.
    #[arg(long = "app", id = "app", value_name = "COMMAND")]
    start: Vec<String>,
    #[command(flatten)]
    mcp: McpArgs,
}

pub async fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    if !args.mcp.over_http() {
        bail!("`deskpilot serve` serves over HTTP: give --http [ADDR:]PORT (e.g. 8931)");
    }
    let apps = command_lines(&args.start)?;
    // Caught from the start: a stop asked for while starting stops what started.
    let mut stop = Stop::listen()?;
    let (engine, desktop) = deskpilot_desktop::private()
        .await
        .map_err(|missing| anyhow!("{missing}"))?;
    eprintln!(
        "deskpilot: a private desktop on display {} (its processes carry DESKPILOT_DESKTOP={})",
        desktop.display(),
        desktop.id()
    );
    let engine = Arc::new(engine);
    let readiness = Readiness::starting(format!("starting {} app(s)", apps.len()));
    let served = match bind_http(engine.clone(), args.mcp, readiness.clone()).await {
        Ok(server) => {
            let started = async {
                start_apps(&engine, &apps).await?;
                readiness.set_ready();
                eprintln!("deskpilot: ready");
                std::future::pending::<anyhow::Result<()>>().await
            };
            tokio::select! {
                served = server.serve() => served.map_err(anyhow::Error::from),
                failed = started => failed,
                signal = stop.stopped() => {
                    eprintln!("deskpilot: {signal}: stopping the server, the apps and the desktop");
                    Ok(())
                }
            }
        }
        Err(e) => Err(e),
    };
    drop(engine);
    if let Err(left) = desktop.stop() {
        eprintln!("deskpilot: these processes of the desktop outlived its stop: {left:?}");
    }
    served.map(|()| ExitCode::SUCCESS)
}

/// Each `--app` split as a shell would (quotes kept together), run without one.
fn command_lines(apps: &[String]) -> anyhow::Result<Vec<Vec<String>>> {
    apps.iter()
        .map(|line| match shlex::split(line) {
            Some(argv) if !argv.is_empty() => Ok(argv),
            _ => Err(anyhow!("--app {line:?} is not a command line")),
        })
        .collect()
}

/// Starts each app in turn and waits until it has a window on the accessibility bus.
async fn start_apps(engine: &Engine, apps: &[Vec<String>]) -> anyhow::Result<()> {
    for argv in apps {
        let launched = engine
            .launch_app(argv, APP_START)
            .await
            .map_err(|e| anyhow!("--app {argv:?} did not start: {} ({})", e.message, e.hint))?;
        eprintln!(
            "deskpilot: {} is up (pid {})",
            launched.app.name, launched.spawned_pid
        );
    }
    Ok(())
}

/// The signals that stop the server.
struct Stop {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Stop {
    fn listen() -> anyhow::Result<Stop> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Stop {
                term: signal(SignalKind::terminate())?,
                int: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Stop {})
    }

    /// The signal's name, once one came.
    async fn stopped(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => "SIGTERM",
                _ = self.int.recv() => "SIGINT",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quotes keep an argument whole; an empty or unclosed line is refused.
    #[test]
    fn an_app_is_split_as_a_shell_would() {
        let apps = [
            "mousepad --disable-server".to_owned(),
            "sh -c 'exec mousepad'".to_owned(),
        ];
        let lines = command_lines(&apps).unwrap();
        assert_eq!(lines[0], ["mousepad", "--disable-server"]);
        assert_eq!(lines[1], ["sh", "-c", "exec mousepad"]);
        assert!(command_lines(&["".to_owned()]).is_err());
        assert!(command_lines(&["sh -c 'open".to_owned()]).is_err());
    }
}
