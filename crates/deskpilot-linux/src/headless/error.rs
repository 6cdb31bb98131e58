use std::path::PathBuf;
use std::time::Duration;

/// Everything that can go wrong while starting a desktop or an app in it.
#[derive(Debug, thiserror::Error)]
pub enum DesktopError {
    #[error("`{program}` is not installed (or not on PATH): {source}; run `cargo xtask install`")]
    Missing {
        program: String,
        source: std::io::Error,
    },
    #[error("could not start `{program}`: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("{what} did not become ready within {timeout:?}{}", tail_suffix(.log_tail))]
    NotReady {
        what: String,
        timeout: Duration,
        log_tail: String,
    },
    #[error("`{program}` exited during start-up ({status}){}", tail_suffix(.stderr_tail))]
    Exited {
        program: String,
        status: String,
        stderr_tail: String,
    },
    #[error(
        "`{program}` (pid {pid}) did not register on the AT-SPI bus within {timeout:?}; \
         registered now: [{registered}]{}",
        tail_suffix(.stderr_tail)
    )]
    NotRegistered {
        program: String,
        pid: u32,
        timeout: Duration,
        registered: String,
        stderr_tail: String,
    },
    #[error("D-Bus call {call} failed: {source}")]
    Bus {
        call: String,
        source: Box<zbus::Error>,
    },
    #[error("X11: {0}")]
    X11(String),
    #[error("I/O on {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("oracle: {0}")]
    Oracle(String),
}

fn tail_suffix(tail: &str) -> String {
    if tail.trim().is_empty() {
        String::new()
    } else {
        format!("\n--- last lines of its stderr ---\n{}", tail.trim_end())
    }
}

pub type Result<T, E = DesktopError> = std::result::Result<T, E>;
