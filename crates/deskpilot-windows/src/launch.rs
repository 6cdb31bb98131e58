//! Starting programs on Windows: no shell (`CreateProcessW` through `std::process`), a clean
//! environment (only what Windows programs need to run passes from deskpilot's, never its
//! tokens or keys), each exit kept. Plain Rust: it starts programs on any system, so its
//! tests run here.

use deskpilot_platform::{Exited, Exits, LaunchError, Launcher, descends};

/// What a started program gets from deskpilot's environment (names compared without case,
/// as Windows does); nothing else.
pub const LAUNCH_ENV: &[&str] = &[
    "SystemRoot",
    "SystemDrive",
    "windir",
    "ComSpec",
    "PATH",
    "PATHEXT",
    "TEMP",
    "TMP",
    "USERPROFILE",
    "USERNAME",
    "USERDOMAIN",
    "HOMEDRIVE",
    "HOMEPATH",
    "APPDATA",
    "LOCALAPPDATA",
    "ProgramData",
    "ProgramFiles",
    "ProgramFiles(x86)",
    "ProgramW6432",
    "CommonProgramFiles",
    "CommonProgramFiles(x86)",
    "PUBLIC",
    "ALLUSERSPROFILE",
    "COMPUTERNAME",
    "OS",
    "NUMBER_OF_PROCESSORS",
    "PROCESSOR_ARCHITECTURE",
    "LANG",
];

/// Whether `name` passes into a started program's environment.
pub fn passes(name: &str) -> bool {
    LAUNCH_ENV
        .iter()
        .any(|allowed| allowed.eq_ignore_ascii_case(name))
}

/// Starts programs and keeps how each ended; `parent_of` answers a process's parent (the
/// system's process list on Windows).
pub struct WindowsLauncher {
    env: Vec<(String, String)>,
    exits: Exits,
    parent_of: Box<dyn Fn(u32) -> Option<u32> + Send + Sync>,
}

impl WindowsLauncher {
    /// Programs get what passes of `inherited`.
    pub fn new(
        inherited: impl IntoIterator<Item = (String, String)>,
        parent_of: impl Fn(u32) -> Option<u32> + Send + Sync + 'static,
    ) -> Self {
        WindowsLauncher {
            env: inherited
                .into_iter()
                .filter(|(name, _)| passes(name))
                .collect(),
            exits: Exits::default(),
            parent_of: Box::new(parent_of),
        }
    }
}

impl Launcher for WindowsLauncher {
    fn spawn(&self, argv: &[String]) -> Result<u32, LaunchError> {
        self.exits.spawn_clean(argv, &self.env)
    }

    fn descends_from(&self, pid: u32, ancestor: u32) -> bool {
        descends(pid, ancestor, &self.parent_of)
    }

    fn exit_status(&self, pid: u32) -> Option<Exited> {
        self.exits.get(pid)
    }

    fn not_registered_hint(&self) -> String {
        "it may show no window yet, run elevated, or hand over to an instance already running \
         (packaged apps such as Notepad and Calculator start another process)"
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only what Windows programs need passes, whatever its case; a token never does.
    #[test]
    fn a_started_program_gets_a_clean_environment() {
        let launcher = WindowsLauncher::new(
            [
                ("Path".to_owned(), "C:\\Windows".to_owned()),
                ("SYSTEMROOT".to_owned(), "C:\\Windows".to_owned()),
                ("GITHUB_TOKEN".to_owned(), "ghp_secret".to_owned()),
                ("DESKPILOT_TOKEN".to_owned(), "secret".to_owned()),
            ],
            |_| None,
        );
        let names: Vec<&str> = launcher.env.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["Path", "SYSTEMROOT"]);
    }

    /// A parent chain through the system's list reaches the ancestor, or ends.
    #[test]
    fn descent_follows_the_parent_chain() {
        let parents: std::collections::HashMap<u32, u32> = [(30, 20), (20, 10), (10, 4)].into();
        let launcher = WindowsLauncher::new([], move |pid| parents.get(&pid).copied());
        assert!(launcher.descends_from(30, 10));
        assert!(launcher.descends_from(10, 10));
        assert!(!launcher.descends_from(30, 99));
    }

    /// A missing program is `NotFound`.
    #[test]
    fn a_missing_program_is_not_found() {
        let launcher = WindowsLauncher::new(std::env::vars(), |_| None);
        let error = launcher
            .spawn(&["no-such-program-deskpilot".to_owned()])
            .unwrap_err();
        assert!(matches!(error, LaunchError::NotFound(_)), "{error:?}");
    }
}
