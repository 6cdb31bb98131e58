//! The app pack tools. The first lists packs or describes one (`packs`). Another checks a
//! loaded pack, or a directory in a pack root or the files directory, never installing it
//! (`validate_pack`). Reloading needs `files`, since it changes the set every client sees
//! (`reload_packs`). The probe drafts a pack from a running app (`probe_app`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use deskpilot_core::{Code, Error};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::success;
use crate::call::Cx;
use crate::grants::FilesDir;
use crate::outcome::ToolOutcome;
use crate::packs::format::{Confidence, Contract, MainWindow, Pages, Visibility};
use crate::packs::probe;
use crate::packs::report::{Finding, Report};
use crate::packs::set::Loaded;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PacksArgs {
    /// One to describe; none: list them.
    pub pack: Option<String>,
}

// Listed packs, or one described: its `PackDetail` as an object (its schema would cost
// every client's catalog 2 KB).
#[derive(Debug, Serialize, JsonSchema)]
pub struct PacksOut {
    // Each a `PackLine`: id, version, shipped, controls, workflows.
    #[schemars(schema_with = "crate::schema::objects")]
    pub packs: Vec<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::schema::object")]
    pub pack: Option<Value>,
}

#[derive(Debug, Serialize)]
pub struct PackLine {
    pub id: String,
    pub version: String,
    pub shipped: bool,
    /// The shipped pack this user pack replaces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrides: Option<String>,
    pub controls: usize,
    pub workflows: usize,
}

#[derive(Debug, Serialize)]
pub struct PackDetail {
    pub id: String,
    pub place: String,
    /// The server's environment variables its workflows read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
    pub main_window: MainWindow,
    pub controls: BTreeMap<String, ControlLine>,
    pub contracts: Vec<Contract>,
    pub workflows: Vec<WorkflowLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<Pages>,
}

#[derive(Debug, Serialize)]
pub struct ControlLine {
    /// The first selector tried.
    pub selector: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    pub confidence: Confidence,
}

#[derive(Debug, Serialize)]
pub struct WorkflowLine {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The inputs' JSON Schema.
    pub inputs: Value,
}

pub(crate) async fn packs(cx: &Cx<'_>, a: PacksArgs) -> Result<ToolOutcome, Error> {
    let set = cx.packs.current();
    let lines: Vec<PackLine> = set
        .packs
        .values()
        .filter(|p| p.pack.app.manifest.visibility == Visibility::Listed)
        .map(line)
        .collect();
    let Some(id) = a.pack else {
        let text = lines
            .iter()
            .map(|l| {
                format!(
                    "{} {} ({} controls, {} workflows)",
                    l.id, l.version, l.controls, l.workflows
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        let text = if text.is_empty() {
            "no app pack is loaded".to_owned()
        } else {
            text
        };
        return Ok(success(
            text,
            PacksOut {
                packs: lines
                    .iter()
                    .filter_map(|l| serde_json::to_value(l).ok())
                    .collect(),
                pack: None,
            },
        ));
    };
    let loaded = set.get(&id).ok_or_else(|| no_pack(&id))?;
    let detail = serde_json::to_value(detail(loaded)).unwrap_or_default();
    let text = detail.to_string();
    Ok(success(
        text,
        PacksOut {
            packs: Vec::new(),
            pack: Some(detail),
        },
    ))
}

fn no_pack(id: &str) -> Error {
    Error::new(
        Code::NotFound,
        format!("no app pack {id:?} is loaded"),
        "`packs` lists them",
    )
}

fn line(loaded: &Loaded) -> PackLine {
    let pack = &loaded.pack;
    PackLine {
        id: pack.app.manifest.id.clone(),
        version: pack.app.manifest.version.clone(),
        shipped: loaded.shipped,
        overrides: loaded.overrides.clone(),
        controls: pack.app.controls.controls.len(),
        workflows: pack.workflows.workflows.len(),
    }
}

fn detail(loaded: &Loaded) -> PackDetail {
    let pack = &loaded.pack;
    let controls = pack.app.controls.controls.iter().map(|(name, c)| {
        let line = ControlLine {
            selector: c.selectors.first().cloned().unwrap_or_default(),
            within: c.within.clone(),
            aliases: c.aliases.clone(),
            confidence: c.confidence,
        };
        (name.clone(), line)
    });
    let workflows = pack
        .workflows
        .workflows
        .iter()
        .filter(|w| w.visibility == Visibility::Listed)
        .map(|w| WorkflowLine {
            id: w.id.clone(),
            description: w.description.clone(),
            inputs: w.inputs.clone(),
        });
    PackDetail {
        id: pack.app.manifest.id.clone(),
        place: loaded.place.clone(),
        env: pack.app.manifest.env.iter().map(|e| e.0.clone()).collect(),
        main_window: pack.app.profile.main_window.clone(),
        controls: controls.collect(),
        contracts: pack.actions.contracts.clone(),
        workflows: workflows.collect(),
        pages: pack.app.pages.clone(),
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValidatePackArgs {
    /// A loaded pack's id.
    pub pack: Option<String>,
    /// Or a pack directory in a pack root or the files dir.
    pub dir: Option<String>,
}

// Findings as objects: pack, file, path (a JSON pointer), code, message.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ValidatePackOut {
    pub valid: bool,
    #[schemars(schema_with = "crate::schema::objects")]
    pub errors: Vec<Value>,
    #[schemars(schema_with = "crate::schema::objects")]
    pub warnings: Vec<Value>,
}

fn as_objects(findings: Vec<Finding>) -> Vec<Value> {
    findings
        .into_iter()
        .map(|f| serde_json::to_value(f).unwrap_or_default())
        .collect()
}

pub(crate) async fn validate_pack(cx: &Cx<'_>, a: ValidatePackArgs) -> Result<ToolOutcome, Error> {
    let report = match (a.pack, a.dir) {
        (Some(id), None) => cx.packs.check_loaded(&id).ok_or_else(|| no_pack(&id))?,
        (None, Some(dir)) => {
            let (root, dir) = allowed_root(cx, Path::new(&dir))?;
            cx.packs.check_dir(&root, &dir)
        }
        _ => {
            return Err(Error::new(
                Code::InvalidArguments,
                "give pack or dir, not both or neither",
                "pack: a loaded pack's id; dir: a pack directory",
            ));
        }
    };
    let text = findings_text(&report);
    let out = ValidatePackOut {
        valid: report.valid(),
        errors: as_objects(report.errors),
        warnings: as_objects(report.warnings),
    };
    Ok(success(text, out))
}

/// `dir` (relative: to the files directory, as `probe_app` writes) and the pack root or
/// files directory it is directly inside.
fn allowed_root(cx: &Cx<'_>, dir: &Path) -> Result<(PathBuf, PathBuf), Error> {
    let files = match &cx.grants.files {
        Some(FilesDir::Under(files)) => Some(files.clone()),
        _ => None,
    };
    let dir = match &files {
        Some(files) if dir.is_relative() => files.join(dir),
        _ => dir.to_path_buf(),
    };
    let roots = cx.packs.roots().into_iter().chain(files);
    let parent = dir.parent().and_then(|p| p.canonicalize().ok());
    let found = roots
        .filter_map(|root| root.canonicalize().ok())
        .find(|root| parent.as_ref() == Some(root));
    match found {
        Some(root) => Ok((root, dir)),
        None => Err(Error::new(
            Code::InvalidArguments,
            format!("{} is not in a pack root", dir.display()),
            "validate a directory directly inside --packs, DESKPILOT_PACKS, the user's packs or --files-dir",
        )),
    }
}

fn findings_text(report: &Report) -> String {
    let lines: Vec<String> = report
        .errors
        .iter()
        .map(|f| ("error", f))
        .chain(report.warnings.iter().map(|f| ("warning", f)))
        .map(|(kind, f)| {
            format!(
                "{kind} {} {}{}: {} ({})",
                f.pack, f.file, f.path, f.message, f.code
            )
        })
        .collect();
    if lines.is_empty() {
        "valid: no finding".to_owned()
    } else {
        lines.join("\n")
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReloadPacksArgs {}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ReloadPacksOut {
    pub reloaded: bool,
    pub packs: Vec<String>,
    #[schemars(schema_with = "crate::schema::objects")]
    pub errors: Vec<Value>,
    #[schemars(schema_with = "crate::schema::objects")]
    pub warnings: Vec<Value>,
}

pub(crate) async fn reload_packs(cx: &Cx<'_>, _: ReloadPacksArgs) -> Result<ToolOutcome, Error> {
    let (reloaded, report) = match cx.packs.reload() {
        Ok(set) => (true, set.warnings.clone()),
        Err(report) => (false, report),
    };
    let packs: Vec<String> = cx.packs.current().packs.keys().cloned().collect();
    let head = if reloaded {
        "reloaded"
    } else {
        "not reloaded: the packs before stay active"
    };
    let text = format!("{head}: {}\n{}", packs.join(", "), findings_text(&report));
    Ok(success(
        text,
        ReloadPacksOut {
            reloaded,
            packs,
            errors: as_objects(report.errors),
            warnings: as_objects(report.warnings),
        },
    ))
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProbeAppArgs {
    pub session: String,
    /// A new directory to write it in (needs files).
    pub dir: Option<String>,
}

// The draft's files by name, and what could not be read.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProbeAppOut {
    pub files: BTreeMap<String, Value>,
    pub unread: Vec<String>,
}

pub(crate) async fn probe_app(cx: &Cx<'_>, a: ProbeAppArgs) -> Result<ToolOutcome, Error> {
    let session = cx.session(&a.session)?;
    let draft = probe::probe(&session).await?;
    if let Some(dir) = &a.dir {
        write_draft(cx, dir, &draft)?;
    }
    let files: BTreeMap<String, Value> = draft
        .files()
        .into_iter()
        .map(|(n, v)| (n.to_owned(), v))
        .collect();
    let mut text = format!(
        "a draft of pack {:?}: {} controls",
        draft.manifest.id,
        draft.controls.controls.len()
    );
    if let Some(dir) = &a.dir {
        text.push_str(&format!(", written to {dir}"));
    }
    for line in &draft.unread {
        text.push_str(&format!("\nnot read: {line}"));
    }
    Ok(success(
        text,
        ProbeAppOut {
            files,
            unread: draft.unread,
        },
    ))
}

/// The draft's files in the new directory `dir`, inside the files directory.
fn write_draft(cx: &Cx<'_>, dir: &str, draft: &probe::Draft) -> Result<(), Error> {
    let dir = cx.grants.file_path(dir)?;
    let failed = |e: std::io::Error| {
        Error::new(
            Code::InvalidArguments,
            format!("cannot write the draft in {}: {e}", dir.display()),
            "give a new directory inside the files directory",
        )
    };
    std::fs::create_dir(&dir).map_err(failed)?;
    for (name, value) in draft.files() {
        let path = cx.grants.file_path(&dir.join(name).to_string_lossy())?;
        let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
        cx.grants
            .write_file(&path, text.as_bytes())
            .map_err(failed)?;
    }
    Ok(())
}
