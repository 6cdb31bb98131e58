//! Starting programs on the desktop.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How a started process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exited {
    /// It exited with status 0.
    pub success: bool,
    /// How, in words (`exit code 1`, `signal 9`).
    pub description: String,
}

/// Why a program could not be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// No such program.
    #[error("no such program: {0}")]
    NotFound(String),
    /// The system refused to start it (not executable, or it asks for more rights).
    #[error("the system refused to start it: {0}")]
    Refused(String),
    /// Starting it failed otherwise.
    #[error("{0}")]
    Failed(String),
}

/// Starts processes on the desktop the engine reads (its display and session bus).
pub trait Launcher: Send + Sync {
    /// Starts `argv` and returns its pid.
    fn spawn(&self, argv: &[String]) -> Result<u32, LaunchError>;
    /// Whether `pid` is `ancestor` or one of its descendants.
    fn descends_from(&self, pid: u32, ancestor: u32) -> bool;
    /// How the process ended, if it has.
    fn exit_status(&self, pid: u32) -> Option<Exited>;
    /// What to suggest when a started program never shows up to the accessibility system
    /// (which toolkits need asking, and how).
    fn not_registered_hint(&self) -> String {
        "it may not support accessibility, or it reused an instance already running".into()
    }
}

/// How each started process ended, kept by a thread per child that waits for it (so that
/// none is left a zombie).
#[derive(Debug, Clone, Default)]
pub struct Exits(Arc<Mutex<HashMap<u32, Exited>>>);

impl Exits {
    /// Starts `argv` with no shell, only `env` for its environment and no standard streams,
    /// and keeps how it ends; returns its pid.
    pub fn spawn_clean(
        &self,
        argv: &[String],
        env: &[(String, String)],
    ) -> Result<u32, LaunchError> {
        let program = argv
            .first()
            .ok_or_else(|| LaunchError::NotFound("no program".into()))?;
        let child = std::process::Command::new(program)
            .args(&argv[1..])
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(launch_error)?;
        Ok(self.watch(child))
    }

    /// Waits for `child` on a thread of its own; returns its pid.
    fn watch(&self, mut child: std::process::Child) -> u32 {
        let pid = child.id();
        let exits = self.0.clone();
        std::thread::spawn(move || {
            let status = match child.wait() {
                Ok(status) => Exited {
                    success: status.success(),
                    description: status
                        .code()
                        .map_or_else(|| status.to_string(), |code| format!("exit code {code}")),
                },
                Err(e) => Exited {
                    success: false,
                    description: format!("unknown ({e})"),
                },
            };
            exits.lock().expect("exits").insert(pid, status);
        });
        pid
    }

    /// How `pid` ended, if it has.
    pub fn get(&self, pid: u32) -> Option<Exited> {
        self.0.lock().expect("exits").get(&pid).cloned()
    }
}

/// Whether `pid` is `ancestor` or one of its descendants, following `parent_of` up (at most
/// 64 generations; a parent of 0 or 1, the system's, ends the chain).
pub fn descends(pid: u32, ancestor: u32, parent_of: impl Fn(u32) -> Option<u32>) -> bool {
    let mut current = pid;
    for _ in 0..64 {
        if current == ancestor {
            return true;
        }
        match parent_of(current) {
            Some(parent) if parent > 1 && parent != current => current = parent,
            _ => return false,
        }
    }
    false
}

/// Why the system would not start a program, by its kind.
fn launch_error(e: std::io::Error) -> LaunchError {
    match e.kind() {
        std::io::ErrorKind::NotFound => LaunchError::NotFound(e.to_string()),
        std::io::ErrorKind::PermissionDenied => LaunchError::Refused(e.to_string()),
        _ => LaunchError::Failed(e.to_string()),
    }
}
