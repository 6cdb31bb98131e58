//! Starts programs on the desktop deskpilot reads: no shell, a clean environment (only the
//! session's locale, directories and toolkit settings pass from deskpilot's own, never its
//! tokens or keys), the desktop's display and session bus, and accessibility switched on for
//! toolkits that need asking.

use deskpilot_core::platform::{Exited, Exits, LaunchError, Launcher};

use crate::headless::procs;

/// What a started program gets from deskpilot's environment: these names, and the names
/// starting with a prefix given as `PREFIX*`; nothing else.
pub const LAUNCH_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "TERM",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TMPDIR",
    "XAUTHORITY",
    "WAYLAND_DISPLAY",
    "LC_*",
    "XDG_*",
    "GTK_*",
    "GDK_*",
    "GSK_*",
    "GSETTINGS_*",
    "QT_*",
    "LIBGL_*",
    // LibreOffice's toolkit (`gtk3`): only the GTK one shows it on AT-SPI where no desktop
    // environment tells LibreOffice which to pick (a headless session).
    "SAL_USE_VCLPLUGIN",
    // Marks the processes of deskpilot's own headless desktops, which are torn down by it
    // (`procs::MARKER_VAR`); no other of deskpilot's variables (a token) ever passes.
    "DESKPILOT_DESKTOP",
];

/// Variables that never pass even where a prefix would let them: they switch accessibility
/// off (`GTK_A11Y=none`, `NO_AT_BRIDGE=1`), which would leave deskpilot blind to the program.
const NEVER: &[&str] = &["GTK_A11Y", "NO_AT_BRIDGE"];

/// Whether `name` passes into a started program's environment.
pub fn passes(name: &str) -> bool {
    !NEVER.contains(&name)
        && LAUNCH_ENV
            .iter()
            .any(|allowed| match allowed.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => name == *allowed,
            })
}

pub struct ProcessLauncher {
    env: Vec<(String, String)>,
    /// How each started process ended.
    exits: Exits,
}

impl ProcessLauncher {
    /// Programs get what passes of this process's environment.
    pub fn new(bus: &str, display: Option<&str>) -> Self {
        Self::with_environment(bus, display, std::env::vars())
    }

    /// Programs get what passes of `inherited`.
    pub fn with_environment(
        bus: &str,
        display: Option<&str>,
        inherited: impl IntoIterator<Item = (String, String)>,
    ) -> Self {
        let mut env: Vec<(String, String)> = inherited
            .into_iter()
            .filter(|(name, _)| passes(name))
            .collect();
        env.extend([
            ("DBUS_SESSION_BUS_ADDRESS".to_owned(), bus.to_owned()),
            // Qt 5 shows itself on AT-SPI only when asked; Firefox likewise.
            (
                "QT_LINUX_ACCESSIBILITY_ALWAYS_ON".to_owned(),
                "1".to_owned(),
            ),
            ("GNOME_ACCESSIBILITY".to_owned(), "1".to_owned()),
            ("QT_ACCESSIBILITY".to_owned(), "1".to_owned()),
        ]);
        if let Some(display) = display {
            env.push(("DISPLAY".to_owned(), display.to_owned()));
        }
        ProcessLauncher {
            env,
            exits: Exits::default(),
        }
    }
}

impl Launcher for ProcessLauncher {
    fn spawn(&self, argv: &[String]) -> Result<u32, LaunchError> {
        self.exits.spawn_clean(argv, &self.env)
    }

    fn descends_from(&self, pid: u32, ancestor: u32) -> bool {
        procs::descends_from(pid, ancestor)
    }

    fn exit_status(&self, pid: u32) -> Option<Exited> {
        self.exits.get(pid)
    }

    fn not_registered_hint(&self) -> String {
        "it may not support accessibility (Chromium/Electron need --force-renderer-accessibility; Qt needs QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, which deskpilot sets), or it reused an instance already running".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_descends_from_its_parent() {
        let launcher = ProcessLauncher::new("unix:path=/nonexistent", None);
        let me = std::process::id();
        let parent = procs::parent_of(me).unwrap();
        assert!(launcher.descends_from(me, parent));
        assert!(launcher.descends_from(me, me));
        assert!(!launcher.descends_from(parent, me));
    }

    /// A missing program and one the system will not run fail apart, so the engine can say
    /// `not_found` for one and `access_denied` for the other.
    #[test]
    fn why_a_program_did_not_start_is_typed() {
        let launcher = ProcessLauncher::new("unix:path=/nonexistent", None);
        let missing = launcher.spawn(&["/nonexistent/deskpilot-no-such-program".into()]);
        assert!(
            matches!(missing, Err(LaunchError::NotFound(_))),
            "{missing:?}"
        );
        let dir = std::env::temp_dir().join(format!("deskpilot-noexec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("not-executable");
        std::fs::write(&file, "#!/bin/sh\n").unwrap();
        let refused = launcher.spawn(&[file.to_string_lossy().into_owned()]);
        assert!(
            matches!(refused, Err(LaunchError::Refused(_))),
            "{refused:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_started_program_gets_a_clean_environment() {
        let dir = std::env::temp_dir().join(format!("deskpilot-launch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("env.txt");
        let inherited = [
            ("PATH", "/usr/bin:/bin"),
            ("HOME", "/home/someone"),
            ("LC_TIME", "C"),
            ("XDG_RUNTIME_DIR", "/run/user/1"),
            ("AWS_SECRET_ACCESS_KEY", "hunter2"),
            ("GITHUB_TOKEN", "ghp_x"),
            ("DESKPILOT_TOKEN", "deskpilot-secret"),
            ("DESKPILOT_DESKTOP", "7"),
            ("NO_AT_BRIDGE", "1"),
            ("GTK_A11Y", "none"),
            ("WAYLAND_DISPLAY", "wayland-0"),
            ("DISPLAY", ":99"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()));
        let launcher = ProcessLauncher::with_environment("unix:path=/x", Some(":7"), inherited);
        let script = format!("env > {}", out.display());
        let pid = launcher
            .spawn(&["/bin/sh".into(), "-c".into(), script])
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let status = loop {
            if let Some(status) = launcher.exit_status(pid) {
                break status;
            }
            assert!(std::time::Instant::now() < deadline, "sh did not finish");
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert!(status.success, "{status:?}");
        let env = std::fs::read_to_string(&out).unwrap();
        for present in [
            "HOME=/home/someone",
            "LC_TIME=C",
            "XDG_RUNTIME_DIR=/run/user/1",
            "DISPLAY=:7",
            "DBUS_SESSION_BUS_ADDRESS=unix:path=/x",
            "GNOME_ACCESSIBILITY=1",
            "WAYLAND_DISPLAY=wayland-0",
            "DESKPILOT_DESKTOP=7",
        ] {
            assert!(
                env.lines().any(|l| l == present),
                "{present} missing:\n{env}"
            );
        }
        for absent in [
            "AWS_SECRET",
            "GITHUB_TOKEN",
            "DESKPILOT_TOKEN",
            "NO_AT_BRIDGE",
            "GTK_A11Y",
            "DISPLAY=:99",
        ] {
            assert!(!env.contains(absent), "{absent} passed:\n{env}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
