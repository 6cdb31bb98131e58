//! `Engine::launch_app`: start a program (an argv, no shell) on the desktop and wait until it,
//! or a process it started, registers on the accessibility bus.

use crate::app::AppInfo;
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::launch::*;
use crate::platform::LaunchError;
use std::time::{Duration, Instant};

const POLL: Duration = Duration::from_millis(100);

impl Engine {
    /// Starts `argv` and waits (up to `timeout`) until it or a descendant is registered with a
    /// window; an app that registers without one is returned when the time is up.
    pub async fn launch_app(&self, argv: &[String], timeout: Duration) -> Result<Launched> {
        let launcher = self.wiring().launcher()?;
        if argv.is_empty() {
            return Err(Error::new(
                Code::InvalidArguments,
                "argv is empty",
                "give the program and its arguments, e.g. [\"gedit\", \"notes.txt\"]",
            ));
        }
        let pid = launcher.spawn(argv).map_err(|e| {
            let message = format!("cannot start {:?}: {e}", argv[0]);
            match e {
                LaunchError::NotFound(_) => Error::new(
                    Code::NotFound,
                    message,
                    "check the program name (it is not run through a shell)",
                ),
                LaunchError::Refused(_) => Error::new(
                    Code::AccessDenied,
                    message,
                    "check that it is executable; a program that asks for more rights than deskpilot has cannot be started by it",
                ),
                LaunchError::Failed(_) => Error::new(
                    Code::Backend,
                    message,
                    "retry; the system could not start a process",
                ),
            }
        })?;
        let started = Instant::now();
        let mut registered: Option<AppInfo> = None;
        loop {
            let apps = self.apps().await.unwrap_or_default();
            let mine = apps
                .into_iter()
                .filter(|a| a.pid.is_some_and(|p| launcher.descends_from(p, pid)))
                .max_by_key(|a| a.windows.len());
            if let Some(app) = mine {
                if !app.windows.is_empty() {
                    return Ok(Launched {
                        spawned_pid: pid,
                        app,
                    });
                }
                registered = Some(app);
            }
            if started.elapsed() >= timeout {
                return match registered {
                    Some(app) => Ok(Launched {
                        spawned_pid: pid,
                        app,
                    }),
                    None => Err(Error::new(
                        Code::Timeout,
                        format!(
                            "{:?} (pid {pid}) did not register on the accessibility bus within {timeout:?}{}",
                            argv[0],
                            launcher
                                .exit_status(pid)
                                .map(|s| format!("; it exited: {}", s.description))
                                .unwrap_or_default()
                        ),
                        launcher.not_registered_hint(),
                    )),
                };
            }
            if let Some(status) = launcher.exit_status(pid)
                && registered.is_none()
                && started.elapsed() > Duration::from_secs(5)
                && !status.success
            {
                return Err(Error::new(
                    Code::AppGone,
                    format!(
                        "{:?} (pid {pid}) exited before registering: {}",
                        argv[0], status.description
                    ),
                    "run it by hand to see why; check its arguments",
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}
