//! Starts programs on the desktop deskpilot reads: its display and session bus in the
//! environment, accessibility switched on for toolkits that need asking, no shell.

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use deskpilot_core::platform::{Exited, Launcher};

pub struct ProcessLauncher {
    env: Vec<(String, String)>,
    /// How each started process ended (a thread per child waits for it, so none is left a
    /// zombie).
    exits: Arc<Mutex<HashMap<u32, Exited>>>,
}

impl ProcessLauncher {
    pub fn new(bus: &str, display: Option<&str>) -> Self {
        let mut env = vec![
            ("DBUS_SESSION_BUS_ADDRESS".to_owned(), bus.to_owned()),
            // Qt 5 shows itself on AT-SPI only when asked; Firefox likewise.
            (
                "QT_LINUX_ACCESSIBILITY_ALWAYS_ON".to_owned(),
                "1".to_owned(),
            ),
            ("GNOME_ACCESSIBILITY".to_owned(), "1".to_owned()),
            ("QT_ACCESSIBILITY".to_owned(), "1".to_owned()),
        ];
        if let Some(display) = display {
            env.push(("DISPLAY".to_owned(), display.to_owned()));
        }
        ProcessLauncher {
            env,
            exits: Arc::default(),
        }
    }
}

impl Launcher for ProcessLauncher {
    fn spawn(&self, argv: &[String]) -> Result<u32, String> {
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env_remove("NO_AT_BRIDGE")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let pid = child.id();
        let exits = self.exits.clone();
        std::thread::spawn(move || {
            let status = match child.wait() {
                Ok(status) => Exited {
                    success: status.success(),
                    description: match status.code() {
                        Some(code) => format!("exit code {code}"),
                        None => format!("{status}"),
                    },
                },
                Err(e) => Exited {
                    success: false,
                    description: format!("unknown ({e})"),
                },
            };
            exits.lock().expect("exits").insert(pid, status);
        });
        Ok(pid)
    }

    fn descends_from(&self, pid: u32, ancestor: u32) -> bool {
        let mut current = pid;
        for _ in 0..64 {
            if current == ancestor {
                return true;
            }
            match parent_pid(current) {
                Some(parent) if parent > 1 => current = parent,
                _ => return false,
            }
        }
        false
    }

    fn exit_status(&self, pid: u32) -> Option<Exited> {
        self.exits.lock().expect("exits").get(&pid).cloned()
    }

    fn not_registered_hint(&self) -> String {
        "it may not support accessibility (Chromium/Electron need --force-renderer-accessibility; Qt needs QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, which deskpilot sets), or it reused an instance already running".into()
    }
}

/// The parent of `pid`, from /proc/<pid>/stat (the field after the command's closing paren).
fn parent_pid(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_descends_from_its_parent() {
        let launcher = ProcessLauncher::new("unix:path=/nonexistent", None);
        let me = std::process::id();
        let parent = parent_pid(me).unwrap();
        assert!(launcher.descends_from(me, parent));
        assert!(launcher.descends_from(me, me));
        assert!(!launcher.descends_from(parent, me));
    }
}
