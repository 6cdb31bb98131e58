//! Starting programs on the desktop.

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
