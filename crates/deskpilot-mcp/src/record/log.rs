//! One session's log file: created in the recording directory (made 0700 when it is not
//! there), never over another file, each line written whole and flushed.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::line::Line;

/// An open log.
pub struct Log {
    pub path: PathBuf,
    file: File,
    /// The calls written so far.
    pub seq: u64,
    /// The secrets named so far (`${secret.password_1}`, ...).
    pub secrets: u32,
}

impl Log {
    /// A new log for `session` of `client` in `dir`: `CLIENT-SESSION.jsonl`, or with `-2`,
    /// `-3`, ... where that name is taken.
    pub fn create(dir: &Path, session: &str, client: Option<&str>) -> Result<Log, String> {
        make_dir(dir)?;
        let stem = format!(
            "{}-{}",
            file_word(client.unwrap_or("client")),
            file_word(session)
        );
        for n in 1..1000 {
            let name = match n {
                1 => format!("{stem}.jsonl"),
                n => format!("{stem}-{n}.jsonl"),
            };
            let path = dir.join(name);
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            match options.open(&path) {
                Ok(file) => {
                    return Ok(Log {
                        path,
                        file,
                        seq: 0,
                        secrets: 0,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Err(format!("{}: no free name for {stem}", dir.display()))
    }

    /// `line`, as one line of JSON.
    pub fn write(&mut self, line: &Line) -> Result<(), String> {
        let mut text = serde_json::to_string(line).map_err(|e| e.to_string())?;
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// `dir`, made 0700 (with its parents) when it is not there.
fn make_dir(dir: &Path) -> Result<(), String> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))
}

/// `text` as a file name's part: letters, digits, `-` and `_`, the rest `_`, at most 40.
fn file_word(text: &str) -> String {
    let word: String = text
        .chars()
        .take(40)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if word.is_empty() { "_".into() } else { word }
}

/// Linux's `/dev/full` stands for a full disk.
#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::record::line::{App, Header, VERSION};

    /// A full disk (`/dev/full`, whose every write fails with ENOSPC) is an error naming
    /// the file, which the recorder says once; it never panics.
    #[test]
    fn a_full_disk_is_an_error_naming_the_file() {
        let path = PathBuf::from("/dev/full");
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        let mut log = Log {
            path,
            file,
            seq: 0,
            secrets: 0,
        };
        let header = Header {
            version: VERSION,
            session: "s1".into(),
            client: None,
            app: App {
                name: "Editor".into(),
                toolkit: None,
                window: None,
                launched: None,
            },
            connect: Default::default(),
        };
        let error = log.write(&Line::Header(header)).unwrap_err();
        assert!(error.starts_with("/dev/full: No space left"), "{error}");
    }
}
