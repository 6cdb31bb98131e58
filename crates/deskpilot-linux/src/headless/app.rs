//! Apps launched on a desktop, and the wait until they register on the AT-SPI bus.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Duration;

use super::bus::RegisteredApp;
use super::desktop::HeadlessDesktop;
use super::error::{DesktopError, Result};
use super::procs;
use super::tail::tail_of_file;
use super::wait;

/// What `launch` waits for before returning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registration {
    /// Wait up to this long for the app (or a process it started) to register on the AT-SPI bus.
    Within(Duration),
    /// Return as soon as the process is spawned.
    DontWait,
}

#[derive(Debug, Clone)]
pub struct LaunchOptions {
    pub registration: Registration,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            registration: Registration::Within(Duration::from_secs(30)),
        }
    }
}

/// A process running on a desktop. Dropping it kills the process.
pub struct App {
    program: String,
    child: Child,
    stdin: Option<ChildStdin>,
    stdout_path: PathBuf,
    stderr_path: PathBuf,
    registered: Option<RegisteredApp>,
}

impl App {
    pub fn launch(
        desktop: &HeadlessDesktop,
        mut cmd: Command,
        options: LaunchOptions,
    ) -> Result<App> {
        let program = cmd.get_program().to_string_lossy().into_owned();
        let stem = Path::new(&program)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "app".into());
        let stderr_path = desktop.log_path(&stem, "stderr");
        let stdout_path = desktop.log_path(&stem, "stdout");
        let open = |path: &PathBuf| {
            fs::File::create(path).map_err(|source| DesktopError::Io {
                path: path.clone(),
                source,
            })
        };
        cmd.stdin(Stdio::piped())
            .stdout(open(&stdout_path)?)
            .stderr(open(&stderr_path)?);
        let mut child = cmd.spawn().map_err(|source| DesktopError::Spawn {
            program: program.clone(),
            source,
        })?;
        let stdin = child.stdin.take();
        let mut app = App {
            program,
            child,
            stdin,
            stdout_path,
            stderr_path,
            registered: None,
        };
        if let Registration::Within(timeout) = options.registration {
            app.registered = Some(app.wait_registered(desktop, timeout)?);
        }
        Ok(app)
    }

    /// Waits until this process or one of its descendants is registered on the desktop's
    /// AT-SPI bus. Fails early, with the tail of its stderr, if the process exits.
    pub fn wait_registered(
        &mut self,
        desktop: &HeadlessDesktop,
        timeout: Duration,
    ) -> Result<RegisteredApp> {
        let pid = self.pid();
        let mut last_seen = Vec::new();
        let mut failure = None;
        let found = wait::until(timeout, || {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    failure = Some(DesktopError::Exited {
                        program: self.program.clone(),
                        status: status.to_string(),
                        stderr_tail: self.stderr_tail(20),
                    });
                    return Some(None);
                }
                Ok(None) => {}
                Err(e) => {
                    failure = Some(DesktopError::Spawn {
                        program: self.program.clone(),
                        source: e,
                    });
                    return Some(None);
                }
            }
            // The registry may be busy for a moment; a failed query is retried until the deadline.
            let apps = desktop.registered_apps().ok()?;
            let hit = apps
                .iter()
                .find(|a| procs::descends_from(a.pid, pid))
                .cloned();
            last_seen = apps;
            hit.map(Some)
        });
        match (found, failure) {
            (Some(Some(app)), _) => Ok(app),
            (_, Some(error)) => Err(error),
            _ => Err(DesktopError::NotRegistered {
                program: self.program.clone(),
                pid,
                timeout,
                registered: last_seen
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                stderr_tail: self.stderr_tail(20),
            }),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The AT-SPI registration found by `launch` (None with `Registration::DontWait`).
    pub fn registration(&self) -> Option<&RegisteredApp> {
        self.registered.as_ref()
    }

    /// Writes one line to the app's stdin.
    pub fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("stdin is closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The last `lines` lines the app wrote to stderr.
    pub fn stderr_tail(&self, lines: usize) -> String {
        tail_of_file(&self.stderr_path, lines)
    }

    /// Everything the app wrote to stdout so far: the oracle of a dialog that prints its
    /// answer (kdialog, zenity, yad).
    pub fn stdout_text(&self) -> String {
        fs::read_to_string(&self.stdout_path).unwrap_or_default()
    }

    /// Waits up to `timeout` for the process to end; its status, or `None` while it runs.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        wait::until(timeout, || self.child.try_wait().ok().flatten())
    }

    pub fn stderr_path(&self) -> &Path {
        &self.stderr_path
    }

    /// True while the process runs.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the process and waits for it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for App {
    fn drop(&mut self) {
        self.kill();
    }
}
