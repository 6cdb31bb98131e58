//! Which processes have a WinEvent hook (`com/win_events.rs`) and the log each feeds: one
//! hook per process, claimed before its thread installs it, so two first watches of one
//! process start one hook thread, not two. Plain Rust: tested here.

use std::collections::HashMap;
use std::sync::Arc;

use crate::events::EventLog;

/// What a watch of a process must do about its hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Install it, under this claim: no hook for the process is in place or being installed.
    Install(u64),
    /// Nothing: its hook (in place or being installed) feeds the new log from now on. A
    /// hook being installed may yet fail: a later watch tries again.
    Repointed,
}

/// The hooks by handle, and the processes whose hook is being installed, with its claim.
#[derive(Default)]
pub struct HookTable {
    installed: HashMap<usize, (u32, Arc<EventLog>)>,
    pending: HashMap<u32, (u64, Arc<EventLog>)>,
    claims: u64,
}

impl HookTable {
    /// Claims process `pid`'s hook for `log`.
    pub fn claim(&mut self, pid: u32, log: Arc<EventLog>) -> Claim {
        if let Some(entry) = self.installed.values_mut().find(|(p, _)| *p == pid) {
            entry.1 = log;
            return Claim::Repointed;
        }
        if let Some(entry) = self.pending.get_mut(&pid) {
            entry.1 = log;
            return Claim::Repointed;
        }
        self.claims += 1;
        self.pending.insert(pid, (self.claims, log));
        Claim::Install(self.claims)
    }

    /// The hook `hook` of process `pid`, installed under `claim`, is in place: it feeds the
    /// latest log claimed. False where the claim was given up since (its install answered
    /// too late): the hook must go.
    pub fn installed(&mut self, hook: usize, pid: u32, claim: u64) -> bool {
        match self.pending.get(&pid) {
            Some((current, _)) if *current == claim => {
                let (_, log) = self.pending.remove(&pid).expect("just found");
                self.installed.insert(hook, (pid, log));
                true
            }
            _ => false,
        }
    }

    /// The install under `claim` failed or did not answer: a later watch tries again.
    pub fn failed(&mut self, pid: u32, claim: u64) {
        if self.pending.get(&pid).is_some_and(|(c, _)| *c == claim) {
            self.pending.remove(&pid);
        }
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
        assert_eq!(table.claim(7, first), Claim::Install(1));
        let again = table.claim(7, second.clone());
        assert_eq!(again, Claim::Repointed, "being installed");
        assert!(table.installed(0x10, 7, 1));
        let (pid, log) = table.of(0x10).unwrap();
        log.note(UiaEvent::Changed { pid, key: None });
        assert_eq!(*second.changes(7).unwrap().borrow(), 1, "the latest log");
        assert_eq!(table.claim(7, second.clone()), Claim::Repointed, "in place");
        table.removed(0x10);
        assert_eq!(table.claim(7, second.clone()), Claim::Install(2));
        table.failed(7, 2);
        assert_eq!(table.claim(7, second), Claim::Install(3), "tried again");
    }

    /// An install that answers after its claim was given up (and claimed anew) is told to
    /// go; the new claim's install is the one kept.
    #[test]
    fn a_late_install_gives_way() {
        let mut table = HookTable::default();
        let log = Arc::new(EventLog::default());
        assert_eq!(table.claim(7, log.clone()), Claim::Install(1));
        table.failed(7, 1);
        assert_eq!(table.claim(7, log), Claim::Install(2));
        assert!(!table.installed(0x10, 7, 1), "the late one unhooks");
        assert!(table.of(0x10).is_none());
        table.failed(7, 1);
        assert!(table.installed(0x20, 7, 2), "the new claim holds");
    }
}
