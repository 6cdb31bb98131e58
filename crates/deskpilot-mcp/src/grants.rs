//! What a server is allowed to do beyond reading: act on apps (`input`), start programs
//! (`launch`), write files (`files`, under one directory). Closed by default; a tool that
//! needs a capability the server lacks is neither listed nor callable.

use std::path::{Path, PathBuf};

use deskpilot_core::{Code, Error};

/// One capability a server may be given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capability {
    /// Act on apps: clicks, keys, values, drags, window requests.
    Input,
    /// Start programs.
    Launch,
    /// Write files (screenshots to a path).
    Files,
}

impl Capability {
    pub const ALL: [Capability; 3] = [Capability::Input, Capability::Launch, Capability::Files];

    pub fn name(self) -> &'static str {
        match self {
            Capability::Input => "input",
            Capability::Launch => "launch",
            Capability::Files => "files",
        }
    }
}

/// Where files may be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilesDir {
    /// Anywhere the server's user may write (the legacy `--allow-input`).
    Anywhere,
    /// Only inside this directory (canonical).
    Under(PathBuf),
}

/// The capabilities a server was given.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grants {
    pub input: bool,
    pub launch: bool,
    /// `None`: no files may be written.
    pub files: Option<FilesDir>,
    /// The only apps sessions may be opened on (by their name on the accessibility bus, any
    /// case); `None`: any.
    pub apps: Option<Vec<String>>,
}

impl Grants {
    /// Read-only: nothing but reading.
    pub fn read_only() -> Self {
        Grants::default()
    }

    /// What `--allow-input` has always meant: act, launch, and write files anywhere.
    pub fn legacy_allow_input() -> Self {
        Grants {
            input: true,
            launch: true,
            files: crate::write::NO_FOLLOW.then_some(FilesDir::Anywhere),
            apps: None,
        }
    }

    /// From `--allow input,launch,files` (or `all`) and `--files-dir`. `files` needs a
    /// directory: a server that may write files writes them in one place.
    pub fn parse(allow: &[String], files_dir: Option<&Path>) -> Result<Self, String> {
        Self::parse_where(allow, files_dir, crate::write::NO_FOLLOW)
    }

    /// `parse` where files can (`no_follow`) or cannot be written without following links.
    fn parse_where(
        allow: &[String],
        files_dir: Option<&Path>,
        no_follow: bool,
    ) -> Result<Self, String> {
        let mut grants = Grants::default();
        let mut files = false;
        for word in allow.iter().flat_map(|a| a.split(',')).map(str::trim) {
            match word {
                "input" => grants.input = true,
                "launch" => grants.launch = true,
                "files" => files = true,
                "all" => {
                    grants.input = true;
                    grants.launch = true;
                    files = true;
                }
                "" => {}
                other => {
                    return Err(format!(
                        "unknown capability {other:?}: use input, launch, files or all"
                    ));
                }
            }
        }
        if files && !no_follow {
            return Err(
                "--allow files is not available on this platform yet: deskpilot cannot write a file there without following links; leave files out (screenshots come inline)"
                    .into(),
            );
        }
        match (files, files_dir) {
            (true, Some(dir)) => {
                let dir = dir
                    .canonicalize()
                    .map_err(|e| format!("--files-dir {}: {e}", dir.display()))?;
                grants.files = Some(FilesDir::Under(dir));
            }
            (true, None) => {
                return Err(
                    "--allow files needs --files-dir DIR (where files may be written)".into(),
                );
            }
            (false, Some(_)) => return Err("--files-dir goes with --allow files".into()),
            (false, None) => {}
        }
        Ok(grants)
    }

    pub fn has(&self, capability: Capability) -> bool {
        match capability {
            Capability::Input => self.input,
            Capability::Launch => self.launch,
            Capability::Files => self.files.is_some(),
        }
    }

    /// Refused with `input_not_allowed` unless the server has `capability`; `what` names
    /// the tool (or the use of it) that needs it.
    pub fn require(&self, capability: Capability, what: &str) -> Result<(), Error> {
        if self.has(capability) {
            return Ok(());
        }
        let (does, hint) = match capability {
            Capability::Input => (
                "changes the app, and this server is read-only",
                "restart the server with `deskpilot mcp --allow input` to allow actions; reading tools work as they are",
            ),
            Capability::Launch => (
                "starts a program, and this server may not",
                "restart the server with `deskpilot mcp --allow launch`, or start the app yourself and connect",
            ),
            Capability::Files => (
                "writes a file, and this server may not",
                "leave out path to get the image inline, or restart the server with `--allow files --files-dir DIR`",
            ),
        };
        Err(Error::new(
            Code::InputNotAllowed,
            format!("{what} {does}"),
            hint,
        ))
    }

    /// Only these apps may be connected to (`--apps NAME,...`).
    pub fn only_apps(mut self, apps: Vec<String>) -> Self {
        self.apps = (!apps.is_empty()).then_some(apps);
        self
    }

    /// Refused with `input_not_allowed` when sessions are limited to some apps: `what` reaches
    /// beyond a session's windows (the whole screen, a bare screen point).
    pub fn require_any_app(&self, what: &str) -> Result<(), Error> {
        match &self.apps {
            Some(apps) => Err(Error::new(
                Code::InputNotAllowed,
                format!(
                    "{what} reaches beyond the apps this server may use ({})",
                    apps.join(", ")
                ),
                "aim at an element of a session instead",
            )),
            None => Ok(()),
        }
    }

    /// Writes `bytes` to a file `file_path` allowed, never through a link.
    pub fn write_file(&self, path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
        crate::write::write_no_follow(path, bytes)
    }

    /// Refused with `input_not_allowed` unless sessions may be opened on the app `name`.
    pub fn may_connect(&self, name: &str) -> Result<(), Error> {
        match &self.apps {
            Some(apps) if !apps.iter().any(|a| a.eq_ignore_ascii_case(name)) => Err(Error::new(
                Code::InputNotAllowed,
                format!(
                    "this server may only connect to {}, not {}",
                    apps.join(", "),
                    deskpilot_core::escape::quoted(name, 80)
                ),
                "connect to one of those apps, or restart the server with another --apps",
            )),
            _ => Ok(()),
        }
    }

    /// Where a file asked for at `path` may be written: `path` itself when the server may
    /// write anywhere, else only a file directly or deeper inside the files directory (no
    /// `..` out of it, no link out of it).
    pub fn file_path(&self, path: &str) -> Result<PathBuf, Error> {
        self.require(Capability::Files, "screenshot with a path")?;
        let refused = |why: String| {
            Error::new(
                Code::InputNotAllowed,
                why,
                "give a path inside the server's --files-dir, or no path to get the image inline",
            )
        };
        let dir = match &self.files {
            Some(FilesDir::Under(dir)) => dir,
            _ => return Ok(PathBuf::from(path)),
        };
        let asked = Path::new(path);
        let asked = if asked.is_absolute() {
            asked.to_path_buf()
        } else {
            dir.join(asked)
        };
        let (Some(parent), Some(name)) = (asked.parent(), asked.file_name()) else {
            return Err(refused(format!("{path} names no file")));
        };
        let parent = parent
            .canonicalize()
            .map_err(|e| refused(format!("{path}: its directory is not there ({e})")))?;
        let target = parent.join(name);
        if !parent.starts_with(dir) {
            return Err(refused(format!(
                "{path} is outside the files directory {}",
                dir.display()
            )));
        }
        if target.is_symlink() {
            return Err(refused(format!("{path} is a link; links are not followed")));
        }
        Ok(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &str) -> Vec<String> {
        vec![w.to_owned()]
    }

    #[test]
    fn capabilities_parse_and_files_need_a_directory() {
        let dir = std::env::temp_dir();
        assert_eq!(Grants::parse(&[], None), Ok(Grants::read_only()));
        let g = Grants::parse(&words("input,launch"), None).unwrap();
        assert!(g.input && g.launch && g.files.is_none());
        assert!(Grants::parse(&words("files"), None).is_err());
        assert!(Grants::parse(&words("input"), Some(&dir)).is_err());
        assert!(Grants::parse(&words("clicks"), None).is_err());
        let all = Grants::parse(&words("all"), Some(&dir)).unwrap();
        assert!(Capability::ALL.iter().all(|c| all.has(*c)));
    }

    /// Where a file cannot be written without following links (a platform with neither
    /// `O_NOFOLLOW` nor a reparse-point check), `files` is refused, alone or in `all`.
    #[test]
    fn files_are_refused_where_links_cannot_be_refused() {
        let dir = std::env::temp_dir();
        for allow in ["files", "all", "input,files"] {
            let error = Grants::parse_where(&words(allow), Some(&dir), false).unwrap_err();
            assert!(error.contains("not available on this platform"), "{error}");
        }
        let input = Grants::parse_where(&words("input,launch"), None, false).unwrap();
        assert!(input.input && input.launch && input.files.is_none());
    }

    // Files are granted only where links can be refused.
    #[cfg(unix)]
    #[test]
    fn files_stay_inside_their_directory() {
        let root = std::env::temp_dir().join(format!("deskpilot-grants-{}", std::process::id()));
        let inside = root.join("shots");
        std::fs::create_dir_all(&inside).unwrap();
        let g = Grants::parse(&words("files"), Some(&inside)).unwrap();
        let ok = g.file_path("a.png").unwrap();
        assert_eq!(ok, inside.canonicalize().unwrap().join("a.png"));
        assert!(g.file_path(inside.join("b.png").to_str().unwrap()).is_ok());
        for bad in ["../escape.png", "/etc/passwd", "nested/missing/c.png"] {
            let error = g.file_path(bad).unwrap_err();
            assert_eq!(error.code, Code::InputNotAllowed, "{bad}");
        }
        std::os::unix::fs::symlink("/etc/hostname", inside.join("link.png")).unwrap();
        assert!(g.file_path("link.png").is_err());
        // A hard link to a file outside is refused at write time, and the file kept.
        std::fs::write(root.join("outside.png"), b"keep").unwrap();
        std::fs::hard_link(root.join("outside.png"), inside.join("hard.png")).unwrap();
        let hard = g.file_path("hard.png").unwrap();
        assert!(g.write_file(&hard, b"PNG").is_err());
        assert_eq!(std::fs::read(root.join("outside.png")).unwrap(), b"keep");
        let fresh = g.file_path("fresh.png").unwrap();
        g.write_file(&fresh, b"PNG").unwrap();
        assert_eq!(std::fs::read(&fresh).unwrap(), b"PNG");
        let none = Grants::read_only().file_path("a.png").unwrap_err();
        assert!(none.message.contains("writes a file"), "{}", none.message);
        let _ = std::fs::remove_dir_all(&root);
    }
}
