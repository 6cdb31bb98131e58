//! A pack's files read: from a directory (no file over 1 MiB, nothing reached through a link
//! out of the pack) or from the binary, then each checked against its JSON Schema and read
//! into its type.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::format::{self, Pack};
use super::report::{Notes, Report};

/// The largest pack file read.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// A pack's files as text, by name, and where they came from.
#[derive(Debug, Clone)]
pub struct RawPack {
    /// Its directory, or `shipped:NAME` for one in the binary.
    pub place: String,
    pub files: BTreeMap<&'static str, String>,
}

/// The pack directory `dir` inside `root`, its files read. It is `None` (said in `report`)
/// when it or a file leads out of where it belongs, or a file is not plain or too large.
pub fn from_dir(root: &Path, dir: &Path, report: &mut Report) -> Option<RawPack> {
    let place = dir.display().to_string();
    let before = report.errors.len();
    let mut notes = Notes {
        pack: &place,
        file: "",
        report,
    };
    // Each path is made canonical once and the files are read through it: a directory
    // swapped for a link after the check is not followed anew.
    let canonical = |path: &Path| path.canonicalize().ok();
    let (Some(root), Some(dir)) = (canonical(root), canonical(dir)) else {
        notes.error("", "escape", "the pack directory cannot be resolved");
        return None;
    };
    if !dir.starts_with(&root) || dir == root {
        notes.error(
            "",
            "escape",
            "the pack directory leads out of its pack root",
        );
        return None;
    }
    let mut files = BTreeMap::new();
    for name in format::FILES.map(|f| f.name) {
        let path = dir.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        notes.file = name;
        match read_inside(&dir, &path) {
            Ok(text) => {
                files.insert(name, text);
            }
            Err((code, message)) => notes.error("", code, message),
        }
    }
    (notes.report.errors.len() == before).then_some(RawPack { place, files })
}

/// The text of the plain file `path`, which must lead to a file inside `dir`; at most
/// `MAX_FILE_BYTES` are read.
fn read_inside(dir: &Path, path: &Path) -> Result<String, (&'static str, String)> {
    let real = path
        .canonicalize()
        .map_err(|e| ("not_json", format!("cannot be read: {e}")))?;
    if !real.starts_with(dir) {
        return Err(("escape", "the file leads out of its pack (a link)".into()));
    }
    if !real.is_file() {
        return Err(("not_json", "not a plain file".into()));
    }
    let file =
        std::fs::File::open(&real).map_err(|e| ("not_json", format!("cannot be read: {e}")))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_FILE_BYTES + 1),
        &mut bytes,
    )
    .map_err(|e| ("not_json", format!("cannot be read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err((
            "too_large",
            "over 1 MiB: a pack file is at most 1 MiB".into(),
        ));
    }
    String::from_utf8(bytes).map_err(|_| ("not_json", "not UTF-8".into()))
}

/// The pack in `raw`, each file checked against its schema; `None` when any file is wrong
/// (each problem in `report`).
pub fn parse(raw: &RawPack, report: &mut Report) -> Option<Pack> {
    let before = report.errors.len();
    let mut file = |index: usize| -> Option<Value> { checked(raw, index, report) };
    let manifest = file(0);
    let profile = file(1);
    let controls = file(2);
    let actions = file(3);
    let workflows = file(4);
    let pages = file(5);
    let components = file(6);
    if report.errors.len() > before {
        return None;
    }
    Some(Pack {
        manifest: typed(manifest)?,
        profile: typed(profile)?,
        controls: typed(controls).unwrap_or_default(),
        actions: typed(actions).unwrap_or_default(),
        workflows: typed(workflows).unwrap_or_default(),
        pages: typed(pages),
        components: typed(components),
    })
}

fn typed<T: DeserializeOwned>(value: Option<Value>) -> Option<T> {
    value.and_then(|v| serde_json::from_value(v).ok())
}

/// `format::FILES[index]` of `raw` as JSON that fits its schema; `None` when absent (an
/// error if it must be there) or wrong.
fn checked(raw: &RawPack, index: usize, report: &mut Report) -> Option<Value> {
    let (name, required) = (format::FILES[index].name, format::FILES[index].required);
    let mut notes = Notes {
        pack: &raw.place,
        file: name,
        report,
    };
    let Some(text) = raw.files.get(name) else {
        if required {
            notes.error("", "missing_file", format!("a pack needs {name}"));
        }
        return None;
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            notes.error("", "not_json", e.to_string());
            return None;
        }
    };
    let mut fits = true;
    for error in validators()[index].iter_errors(&value) {
        fits = false;
        notes.error(
            &error.instance_path().to_string(),
            "schema",
            error.to_string(),
        );
    }
    fits.then_some(value)
}

/// One validator per pack file, compiled once.
fn validators() -> &'static [jsonschema::Validator] {
    static VALIDATORS: OnceLock<Vec<jsonschema::Validator>> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        format::FILES
            .iter()
            .map(|file| {
                jsonschema::draft202012::new(&(file.schema)())
                    .unwrap_or_else(|e| panic!("the schema of {} does not compile: {e}", file.name))
            })
            .collect()
    })
}
