//! Finding and stopping every process a desktop started, by pid.
//!
//! Each desktop stamps its processes with an environment variable `DESKPILOT_DESKTOP=<id>`.
//! Environments are inherited across fork/exec and D-Bus activation (dbus-daemon hands its own
//! environment to the services it activates), so the stamp also marks what we did not start
//! ourselves: at-spi-bus-launcher, the accessibility bus daemon, at-spi2-registryd, dconf, and
//! anything that double-forked. Teardown scans `/proc` for the stamp.

use std::fs;
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

/// The variable that marks a desktop's processes.
pub const MARKER_VAR: &str = "DESKPILOT_DESKTOP";

/// Pids of live processes whose initial environment carries `MARKER_VAR=<id>`.
/// With `id == None`, every process carrying any desktop marker.
pub fn marked_pids(id: Option<&str>) -> Vec<u32> {
    let wanted = id.map(|id| format!("{MARKER_VAR}={id}"));
    let prefix = format!("{MARKER_VAR}=");
    let me = std::process::id();
    let mut pids = Vec::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return pids;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(environ) = fs::read(entry.path().join("environ")) else {
            continue;
        };
        let found = environ.split(|b| *b == 0).any(|var| match &wanted {
            Some(w) => var == w.as_bytes(),
            None => var.starts_with(prefix.as_bytes()),
        });
        if found && is_alive(pid) {
            pids.push(pid);
        }
    }
    pids.sort_unstable();
    pids
}

/// True while the process exists and is not a zombie.
pub fn is_alive(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses and may contain spaces.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// A process's memory, as `/proc/PID/status` counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Memory {
    /// Resident now (`VmRSS`).
    Resident,
    /// The most it was ever resident (`VmHWM`).
    PeakResident,
}

/// A process's memory in kB; `None` once it is gone.
pub fn memory_kb(pid: u32, memory: Memory) -> Option<u64> {
    let field = match memory {
        Memory::Resident => "VmRSS:",
        Memory::PeakResident => "VmHWM:",
    };
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Parent pid of a process, if it exists.
pub fn parent_of(pid: u32) -> Option<u32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// True when `pid` is `ancestor` or one of its descendants.
pub fn descends_from(pid: u32, ancestor: u32) -> bool {
    deskpilot_core::platform::descends(pid, ancestor, parent_of)
}

/// Sends `signal` to each pid, ignoring ones already gone.
pub fn signal_all(pids: &[u32], signal: Signal) {
    for &pid in pids {
        let _ = kill(Pid::from_raw(pid as i32), signal);
    }
}

/// Reaps the pids that are our children (directly or by subreaping); others are left to their
/// parents. Never blocks.
pub fn reap(pids: &[u32]) {
    for &pid in pids {
        let _ = waitpid(Pid::from_raw(pid as i32), Some(WaitPidFlag::WNOHANG));
    }
}

/// Stops every process stamped with `id`: SIGTERM, up to `grace` for them to exit, then SIGKILL.
/// Returns the pids that were still alive at the end (empty on success).
pub fn stop_marked(id: &str, grace: Duration) -> Vec<u32> {
    let first = marked_pids(Some(id));
    if first.is_empty() {
        return first;
    }
    signal_all(&first, Signal::SIGTERM);
    let mut alive = first.clone();
    wait_gone(&mut alive, grace);
    // Anything still marked, including processes spawned while we were stopping the others.
    for _ in 0..5 {
        let rest = marked_pids(Some(id));
        let mut rest: Vec<u32> = rest.into_iter().chain(alive.iter().copied()).collect();
        rest.sort_unstable();
        rest.dedup();
        if rest.is_empty() {
            break;
        }
        signal_all(&rest, Signal::SIGKILL);
        alive = rest;
        wait_gone(&mut alive, Duration::from_secs(2));
    }
    reap(&first);
    let mut left = marked_pids(Some(id));
    left.extend(alive.iter().copied().filter(|&p| is_alive(p)));
    left.sort_unstable();
    left.dedup();
    left
}

/// Reaps and drops pids from `alive` until none is left or `timeout` passes.
fn wait_gone(alive: &mut Vec<u32>, timeout: Duration) {
    super::wait::until(timeout, || {
        reap(alive);
        alive.retain(|&p| is_alive(p));
        alive.is_empty().then_some(())
    });
}

/// Makes this process the reaper of orphaned descendants, so that daemons spawned by D-Bus
/// activation that lose their parent are re-parented to us (and reaped by `reap`) rather than
/// escaping to init.
pub fn become_subreaper() {
    if let Err(e) = nix::sys::prctl::set_child_subreaper(true) {
        tracing::warn!("cannot become the subreaper of orphaned descendants: {e}");
    }
}
