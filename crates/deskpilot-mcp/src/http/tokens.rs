//! Bearer tokens: read from a file (one per line, one per agent) or `DESKPILOT_TOKEN`, or made
//! on loopback into a file only the user can read. A request names its client by the token it
//! carries: the token's place in the list, never the token itself.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The shortest token accepted: guessing one must be out of reach.
const MIN_LEN: usize = 16;

/// The tokens a server accepts.
#[derive(Clone)]
pub struct Tokens(Vec<String>);

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tokens({} configured)", self.0.len())
    }
}

pub use crate::clients::TokenIndex;

impl Tokens {
    /// The tokens in `text`: one per line; blank lines and lines starting with `#` are skipped.
    pub fn parse(text: &str) -> Result<Self, String> {
        let tokens: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_owned)
            .collect();
        if tokens.is_empty() {
            return Err("no token in it (one per line)".into());
        }
        if let Some(short) = tokens.iter().position(|t| t.len() < MIN_LEN) {
            return Err(format!(
                "token {} is shorter than {MIN_LEN} characters",
                short + 1
            ));
        }
        if let Some(bad) = tokens
            .iter()
            .position(|t| !t.bytes().all(|b| b.is_ascii_graphic()))
        {
            return Err(format!(
                "token {} has a character that is not printable ASCII",
                bad + 1
            ));
        }
        Ok(Tokens(tokens))
    }

    /// The tokens in the file at `path`.
    pub fn read(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("the token file {}: {e}", path.display()))
    }

    /// A new random token, written into a new file (of a random name) in `dir`, a directory
    /// only this user may enter; returns the tokens and the file's path.
    pub fn generate(dir: &Path) -> Result<(Self, PathBuf), String> {
        let token = random_hex(32)?;
        private_dir(dir)?;
        let path = dir.join(format!("token-{}", random_hex(8)?));
        let mut file = private_file(&path)
            .map_err(|e| format!("cannot write the token file {}: {e}", path.display()))?;
        writeln!(file, "{token}")
            .map_err(|e| format!("cannot write the token file {}: {e}", path.display()))?;
        Ok((Tokens(vec![token]), path))
    }

    /// Which token `presented` is, compared in time that does not depend on where it differs.
    pub fn find(&self, presented: &str) -> Option<TokenIndex> {
        let mut found = None;
        for (i, token) in self.0.iter().enumerate() {
            if same(token.as_bytes(), presented.as_bytes()) {
                found = Some(TokenIndex(i));
            }
        }
        found
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `len` random bytes, in hex.
fn random_hex(len: usize) -> Result<String, String> {
    let mut bytes = vec![0u8; len];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random numbers: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Makes `dir` (mode 0700 on Unix) unless it exists; refuses one that is a link, or (on Unix)
/// another user's or open to others.
fn private_dir(dir: &Path) -> Result<(), String> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
        .create(dir)
        .map_err(|e| format!("cannot make the directory {}: {e}", dir.display()))?;
    let meta = std::fs::symlink_metadata(dir)
        .map_err(|e| format!("cannot look at {}: {e}", dir.display()))?;
    let private = meta.is_dir() && {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            meta.uid() == nix::unistd::getuid().as_raw() && meta.mode() & 0o077 == 0
        }
        #[cfg(not(unix))]
        {
            true
        }
    };
    if private {
        Ok(())
    } else {
        Err(format!(
            "{} is not a directory of this user's alone: give a token with --token-file",
            dir.display()
        ))
    }
}

/// Equal bytes, looked at whole whatever the first difference.
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// A new file at `path` that only this user may read and write (mode 0600 on Unix).
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// Where a generated token file goes: `deskpilot/` in the user's runtime directory, else a
/// directory of the user's own in the temporary one.
pub fn token_dir() -> PathBuf {
    if let Some(runtime) = std::env::var_os("XDG_RUNTIME_DIR") {
        return PathBuf::from(runtime).join("deskpilot");
    }
    #[cfg(unix)]
    let own = format!("deskpilot-{}", nix::unistd::getuid());
    #[cfg(not(unix))]
    let own = "deskpilot".to_owned();
    std::env::temp_dir().join(own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_file_holds_one_token_per_line() {
        let tokens =
            Tokens::parse("# agents\nabcdefghijklmnop\n\n  qrstuvwxyz0123456  \n").unwrap();
        assert_eq!(tokens.len(), 2);
        assert_eq!(tokens.find("abcdefghijklmnop"), Some(TokenIndex(0)));
        assert_eq!(tokens.find("qrstuvwxyz0123456"), Some(TokenIndex(1)));
        assert_eq!(tokens.find("abcdefghijklmnoq"), None);
        assert_eq!(tokens.find(""), None);
        assert!(Tokens::parse("# nothing\n").is_err());
        assert!(Tokens::parse("short").unwrap_err().contains("shorter"));
        assert!(Tokens::parse("abcdefghijklmnop\u{e9}").is_err());
    }

    #[test]
    fn a_generated_token_is_readable_by_its_user_only() {
        let dir = std::env::temp_dir().join(format!("deskpilot-token-test-{}", std::process::id()));
        let (tokens, path) = Tokens::generate(&dir).unwrap();
        let again = Tokens::read(&path).unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(tokens.find(&again.0[0]), Some(TokenIndex(0)));
        assert_eq!(again.0[0].len(), 64);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
            // A second server gets a file of its own; a directory open to others is refused.
            let (_, other) = Tokens::generate(&dir).unwrap();
            assert_ne!(other, path);
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert!(
                Tokens::generate(&dir)
                    .unwrap_err()
                    .contains("this user's alone")
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
