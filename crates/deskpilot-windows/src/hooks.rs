//! Which processes have a WinEvent hook (`com/win_events.rs`) and the log each feeds: one
//! hook per process, claimed before its thread installs it, so two first watches of one
//! process start one hook thread, not two. Plain Rust: tested here.

use std::collections::HashMap;
use std::sync::Arc;

use crate::events::EventLog;

/// What a watch of a process must do about its hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Install it: no hook for the process is in place or being installed.
    Install,
    /// Nothing: its hook (in place or being installed) feeds the new log from now on.
    Repointed,
}

/// The hooks by handle, and the processes whose hook is being installed.
#[derive(Default)]
pub struct HookTable {
    installed: HashMap<usize, (u32, Arc<EventLog>)>,
    pending: HashMap<u32, Arc<EventLog>>,
}

impl HookTable {
    /// Claims process `pid`'s hook for `log`.
    pub fn claim(&mut self, pid: u32, log: Arc<EventLog>) -> Claim {
        if let Some(entry) = self.installed.values_mut().find(|(p, _)| *p == pid) {
            entry.1 = log;
            return Claim::Repointed;
        }
        match self.pending.insert(pid, log) {
            Some(_) => Claim::Repointed,
            None => Claim::Install,
        }
    }

    /// The hook `hook` of process `pid` is in place: it feeds the latest log claimed.
    pub fn installed(&mut self, hook: usize, pid: u32) {
        if let Some(log) = self.pending.remove(&pid) {
            self.installed.insert(hook, (pid, log));
        }
    }

    /// Process `pid`'s hook could not be installed: a later watch tries again.
    pub fn failed(&mut self, pid: u32) {
        self.pending.remove(&pid);
    }

    /// The hook is gone (its process exited).
    pub fn removed(&mut self, hook: usize) {
        self.installed.remove(&hook);
    }

    /// The process and log of hook `hook`.
    pub fn of(&self, hook: usize) -> Option<(u32, &Arc<EventLog>)> {
        self.installed.get(&hook).map(|(pid, log)| (*pid, log))
    }
}

#[cfg(test)]
mod tests {
    use super::{Claim, HookTable};
    use crate::events::{EventLog, UiaEvent};
    use std::sync::Arc;

    /// Two first watches of one process install one hook, which feeds the latest log; a
    /// failed install frees the claim, and an exited process's hook goes.
    #[test]
    fn one_hook_per_process() {
        let mut table = HookTable::default();
        let (first, second) = (Arc::new(EventLog::default()), Arc::new(EventLog::default()));
        second.open(7);
        assert_eq!(table.claim(7, first), Claim::Install);
        assert_eq!(
            table.claim(7, second.clone()),
            Claim::Repointed,
            "being installed"
        );
        table.installed(0x10, 7);
        let (pid, log) = table.of(0x10).unwrap();
        log.note(UiaEvent::Changed { pid, key: None });
        assert_eq!(*second.changes(7).unwrap().borrow(), 1, "the latest log");
        assert_eq!(table.claim(7, second.clone()), Claim::Repointed, "in place");
        table.removed(0x10);
        assert_eq!(table.claim(7, second.clone()), Claim::Install);
        table.failed(7);
        assert_eq!(table.claim(7, second), Claim::Install, "tried again");
    }
}
