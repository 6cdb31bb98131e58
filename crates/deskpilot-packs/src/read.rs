//! A pack's files read: from a directory (no file over 1 MiB, nothing reached through a link
//! out of the pack) or from the binary, then each checked against its JSON Schema and read
//! into its type.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::format::{self, AppPack, Components, Controls, Manifest, Pages, Profile};
use crate::report::{Notes, Report};

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
    for name in format::FILE_NAMES {
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

/// The app's part of the pack in `raw`, each file checked against its schema; `None` when
/// any of them is wrong (each problem in `report`).
pub fn parse_app(raw: &RawPack, report: &mut Report) -> Option<AppPack> {
    let before = report.errors.len();
    let [manifest, profile, controls, pages, components] = app_validators();
    let manifest = checked(raw, "manifest.json", manifest, report);
    let profile = checked(raw, "profile.json", profile, report);
    let controls = checked(raw, "controls.json", controls, report);
    let pages = checked(raw, "pages.json", pages, report);
    let components = checked(raw, "components.json", components, report);
    if report.errors.len() > before {
        return None;
    }
    Some(AppPack {
        manifest: typed(manifest)?,
        profile: typed(profile)?,
        controls: typed(controls).unwrap_or_default(),
        pages: typed(pages),
        components: typed(components),
    })
}

/// `value` as a `T`, when there is one.
pub fn typed<T: DeserializeOwned>(value: Option<Value>) -> Option<T> {
    value.and_then(|v| serde_json::from_value(v).ok())
}

/// The file `name` of `raw` as JSON that fits `schema`; `None` when absent (an error if it
/// must be there) or wrong.
pub fn checked(
    raw: &RawPack,
    name: &'static str,
    schema: &jsonschema::Validator,
    report: &mut Report,
) -> Option<Value> {
    let mut notes = Notes {
        pack: &raw.place,
        file: name,
        report,
    };
    let Some(text) = raw.files.get(name) else {
        if format::required(name) {
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
    for error in schema.iter_errors(&value) {
        fits = false;
        notes.error(
            &error.instance_path().to_string(),
            "schema",
            error.to_string(),
        );
    }
    fits.then_some(value)
}

/// `schema`'s validator; a schema generated from a type always compiles.
pub fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema)
        .unwrap_or_else(|e| panic!("a pack file's schema does not compile: {e}"))
}

/// The validators of the app's files, compiled once: manifest, profile, controls, pages,
/// components.
fn app_validators() -> &'static [jsonschema::Validator; 5] {
    static VALIDATORS: OnceLock<[jsonschema::Validator; 5]> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        [
            format::schema::<Manifest>(),
            format::schema::<Profile>(),
            format::schema::<Controls>(),
            format::schema::<Pages>(),
            format::schema::<Components>(),
        ]
        .map(|schema| validator(&schema))
    })
}
