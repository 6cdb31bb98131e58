//! What apps' UI Automation events said, as hints: a change count per app that waits watch,
//! the elements events named (a flood forgets them: then a full read), and the latest focus.
//! `com/` feeds it from UIA's handlers on Windows; `FakeUia` from tests.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use tokio::sync::watch;

use crate::raw::RuntimeKey;

/// Named elements remembered per app: past this, a wait reads everything again.
const REMEMBERED: usize = 256;

/// One event, as a handler saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UiaEvent {
    /// Something in process `pid` changed: a structure, a property, a window opened. `key`
    /// is the element the event named, when it named one.
    Changed { pid: u32, key: Option<RuntimeKey> },
    /// The keyboard focus moved to `key`, in process `pid`.
    Focused { pid: u32, key: RuntimeKey },
}

/// WinEvent ids and object ids (WinUser.h) the mapping needs.
pub mod win_event {
    pub const EVENT_OBJECT_FOCUS: u32 = 0x8005;
    pub const EVENT_OBJECT_LOCATIONCHANGE: u32 = 0x800B;
    pub const OBJID_WINDOW: i32 = 0;
    pub const OBJID_CARET: i32 = -8;
    pub const OBJID_CURSOR: i32 = -9;
    pub const CHILDID_SELF: i32 = 0;
}

/// A WinEvent (`SetWinEventHook`, out of context) of process `pid` as an event: a window's
/// own events name it (its `RuntimeId` is UIA's window prefix and the handle); the caret's
/// and the mouse cursor's moves are no change of the app.
pub fn from_win_event(
    pid: u32,
    event: u32,
    hwnd: u64,
    object: i32,
    child: i32,
) -> Option<UiaEvent> {
    use win_event::*;
    if object == OBJID_CURSOR || (object == OBJID_CARET && event == EVENT_OBJECT_LOCATIONCHANGE) {
        return None;
    }
    let window = (hwnd != 0 && object == OBJID_WINDOW && child == CHILDID_SELF)
        .then(|| RuntimeKey(vec![42, hwnd as u32 as i32]));
    Some(match (event, window) {
        (EVENT_OBJECT_FOCUS, Some(key)) => UiaEvent::Focused { pid, key },
        (_, key) => UiaEvent::Changed { pid, key },
    })
}

struct AppLog {
    changes: watch::Sender<u64>,
    /// The elements named by the latest events, each with the count it came at.
    named: VecDeque<(u64, RuntimeKey)>,
    focused: Option<RuntimeKey>,
}

impl Default for AppLog {
    fn default() -> Self {
        AppLog {
            changes: watch::channel(0).0,
            named: VecDeque::new(),
            focused: None,
        }
    }
}

/// The events of the apps watched, by pid.
#[derive(Default)]
pub struct EventLog {
    apps: Mutex<HashMap<u32, AppLog>>,
    /// Processes whose content an app shows (a WebView2's), each with that app's pid.
    guests: Mutex<HashMap<u32, u32>>,
}

impl EventLog {
    /// Starts a log for `pid` (its events are watched from now on).
    pub fn open(&self, pid: u32) {
        self.apps.lock().expect("event log").entry(pid).or_default();
    }

    /// Whether `pid`'s events are watched.
    pub fn watched(&self, pid: u32) -> bool {
        self.apps.lock().expect("event log").contains_key(&pid)
    }

    /// Counts process `guest`'s events as app `host`'s (its content is inside the app's
    /// window); the latest host wins.
    pub fn adopt(&self, guest: u32, host: u32) {
        self.guests.lock().expect("event log").insert(guest, host);
    }

    /// Notes an event of a watched app, or of content it shows (others' are dropped).
    pub fn note(&self, event: UiaEvent) {
        let (pid, key, focus) = match event {
            UiaEvent::Changed { pid, key } => (pid, key, false),
            UiaEvent::Focused { pid, key } => (pid, Some(key), true),
        };
        let guests = self.guests.lock().expect("event log");
        let pid = guests.get(&pid).copied().unwrap_or(pid);
        drop(guests);
        let mut apps = self.apps.lock().expect("event log");
        let Some(log) = apps.get_mut(&pid) else {
            return;
        };
        let mut count = 0;
        log.changes.send_modify(|n| {
            *n += 1;
            count = *n;
        });
        if let Some(key) = key {
            if focus {
                log.focused = Some(key.clone());
            }
            if log.named.len() >= REMEMBERED {
                log.named.pop_front();
            }
            log.named.push_back((count, key));
        }
    }

    /// The change count of `pid`, to watch.
    pub fn changes(&self, pid: u32) -> Option<watch::Receiver<u64>> {
        let apps = self.apps.lock().expect("event log");
        apps.get(&pid).map(|log| log.changes.subscribe())
    }

    /// The element the latest focus event of `pid` named.
    pub fn focused(&self, pid: u32) -> Option<RuntimeKey> {
        let apps = self.apps.lock().expect("event log");
        apps.get(&pid)?.focused.clone()
    }

    /// The elements named since the count was `since`, each once; `None` when some events
    /// since are no longer remembered (a flood) or the app is not watched.
    pub fn named_since(&self, pid: u32, since: u64) -> Option<Vec<RuntimeKey>> {
        let apps = self.apps.lock().expect("event log");
        let log = apps.get(&pid)?;
        let now = *log.changes.borrow();
        let oldest = log.named.front().map_or(now + 1, |(n, _)| *n);
        if now > since && oldest > since + 1 && log.named.len() >= REMEMBERED {
            return None;
        }
        let mut named: Vec<RuntimeKey> = Vec::new();
        for (_, key) in log.named.iter().filter(|(n, _)| *n > since) {
            if !named.contains(key) {
                named.push(key.clone());
            }
        }
        Some(named)
    }

    /// Stops logging `pid` (its handlers could not be registered).
    pub fn forget(&self, pid: u32) {
        self.apps.lock().expect("event log").remove(&pid);
    }

    /// Stops logging the apps not in `alive`, and their guests.
    pub fn retain(&self, alive: &[u32]) {
        let mut apps = self.apps.lock().expect("event log");
        apps.retain(|pid, _| alive.contains(pid));
        let mut guests = self.guests.lock().expect("event log");
        guests.retain(|_, host| alive.contains(host));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window's WinEvents name it; a focus event on a window is a focus; cursor and caret
    /// moves are nothing.
    #[test]
    fn win_events_name_windows_and_skip_the_cursor() {
        use win_event::*;
        let window = RuntimeKey(vec![42, 0x1000]);
        assert_eq!(
            from_win_event(7, EVENT_OBJECT_FOCUS, 0x1000, OBJID_WINDOW, CHILDID_SELF),
            Some(UiaEvent::Focused {
                pid: 7,
                key: window.clone()
            })
        );
        assert_eq!(
            from_win_event(7, 0x800C, 0x1000, OBJID_WINDOW, CHILDID_SELF),
            Some(UiaEvent::Changed {
                pid: 7,
                key: Some(window)
            })
        );
        assert_eq!(
            from_win_event(7, 0x800C, 0x1000, -4, 3),
            Some(UiaEvent::Changed { pid: 7, key: None })
        );
        assert_eq!(
            from_win_event(7, EVENT_OBJECT_LOCATIONCHANGE, 0, OBJID_CURSOR, 0),
            None
        );
        assert_eq!(
            from_win_event(7, EVENT_OBJECT_LOCATIONCHANGE, 0x1000, OBJID_CARET, 0),
            None
        );
    }

    fn key(n: i32) -> RuntimeKey {
        RuntimeKey(vec![42, n])
    }

    /// Events count per watched app, name elements once each, keep the focus; a flood makes
    /// what was named unknown; an app not watched logs nothing.
    #[test]
    fn events_count_name_and_forget_in_a_flood() {
        let log = EventLog::default();
        log.note(UiaEvent::Changed { pid: 1, key: None });
        assert!(log.changes(1).is_none());
        log.open(1);
        let changes = log.changes(1).unwrap();
        log.note(UiaEvent::Changed {
            pid: 1,
            key: Some(key(5)),
        });
        log.note(UiaEvent::Focused {
            pid: 1,
            key: key(6),
        });
        log.note(UiaEvent::Changed {
            pid: 1,
            key: Some(key(5)),
        });
        assert_eq!(*changes.borrow(), 3);
        assert_eq!(log.named_since(1, 0), Some(vec![key(5), key(6)]));
        assert_eq!(log.named_since(1, 2), Some(vec![key(5)]));
        assert_eq!(log.focused(1), Some(key(6)));
        for n in 0..(REMEMBERED as i32 + 10) {
            log.note(UiaEvent::Changed {
                pid: 1,
                key: Some(key(n)),
            });
        }
        assert_eq!(log.named_since(1, 3), None);
        let now = *changes.borrow();
        assert_eq!(log.named_since(1, now), Some(Vec::new()));
        log.retain(&[]);
        assert!(!log.watched(1));
    }
}
