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

/// The pack directory `dir` inside `root`, its files read; `None` (said in `report`) when
/// it or a file is reached through a link out of where it belongs or a file is too large.
pub fn from_dir(root: &Path, dir: &Path, report: &mut Report) -> Option<RawPack> {
    let place = dir.display().to_string();
    let mut notes = Notes {
        pack: &place,
        file: "",
        report,
    };
    let inside = |path: &Path, within: &Path| {
        let within = within.canonicalize().ok();
        path.canonicalize()
            .ok()
            .zip(within)
            .is_some_and(|(p, w)| p.starts_with(w))
    };
    if !inside(dir, root) {
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
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        notes.file = name;
        if !inside(&path, dir) {
            notes.error("", "escape", "the file leads out of its pack (a link)");
        } else if meta.len() > MAX_FILE_BYTES {
            let message = format!("{} bytes: a pack file is at most 1 MiB", meta.len());
            notes.error("", "too_large", message);
        } else {
            match std::fs::read_to_string(&path) {
                Ok(text) => {
                    files.insert(name, text);
                }
                Err(e) => notes.error("", "not_json", format!("cannot be read: {e}")),
            }
        }
    }
    notes.report.valid().then_some(RawPack { place, files })
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
