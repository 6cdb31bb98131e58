//! Starting programs on the desktop.

/// Starts processes on the desktop the engine reads (its display and session bus).
pub trait Launcher: Send + Sync {
    /// Starts `argv` and returns its pid.
    fn spawn(&self, argv: &[String]) -> std::result::Result<u32, String>;
    /// Whether `pid` is `ancestor` or one of its descendants.
    fn descends_from(&self, pid: u32, ancestor: u32) -> bool;
    /// How the process ended, if it has.
    fn exit_status(&self, pid: u32) -> Option<String>;
}
