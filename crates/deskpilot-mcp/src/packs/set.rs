//! The set of packs a server uses, loaded whole or not at all. User packs come from pack
//! roots (`--packs`, `DESKPILOT_PACKS`, the user's config directory), each root's immediate
//! subdirectories; shipped packs come from the binary. A user pack overrides a shipped one
//! of its id and says so; two user packs of one id are an error naming both.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use super::check::check;
use super::format::Pack;
use super::read::{self, RawPack};
use super::report::{Notes, Report};
use crate::catalog::Catalog;

/// A pack in the set, and where it came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub pack: Pack,
    pub place: String,
    pub shipped: bool,
    /// The shipped pack of its id this one replaces.
    pub overrides: Option<String>,
}

/// Packs by id, with the warnings their loading gave.
#[derive(Debug, Clone, Default)]
pub struct PackSet {
    pub packs: BTreeMap<String, Loaded>,
    pub warnings: Report,
}

impl PackSet {
    pub fn get(&self, id: &str) -> Option<&Loaded> {
        self.packs.get(id)
    }
}

/// Where a server's packs come from.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// Pack roots, in order; one that cannot be read is an error.
    pub roots: Vec<PathBuf>,
    /// The user's pack root, read when it exists (at each load).
    pub user: Option<PathBuf>,
    /// Packs as files by name, each `(dir name, files)`: the binary's own.
    pub shipped: Vec<RawPack>,
}

/// Every pack of `sources`, checked; `Err` with every error when any pack has one.
pub fn load(sources: &Sources, tools: &Catalog) -> Result<PackSet, Report> {
    let mut report = Report::default();
    let mut user: Vec<(Pack, String)> = Vec::new();
    let existing_user_root = sources.user.iter().filter(|root| root.is_dir());
    for root in sources.roots.iter().chain(existing_user_root) {
        for dir in subdirectories(root, &mut report) {
            if let Some(pack) = read::from_dir(root, &dir, &mut report)
                .and_then(|raw| parsed(&raw, tools, &mut report))
            {
                user.push((pack, dir.display().to_string()));
            }
        }
    }
    let shipped: Vec<(Pack, String)> = sources
        .shipped
        .iter()
        .filter_map(|raw| Some((parsed(raw, tools, &mut report)?, raw.place.clone())))
        .collect();
    let set = assemble(user, shipped, &mut report);
    if report.valid() {
        Ok(PackSet {
            packs: set,
            warnings: report,
        })
    } else {
        Err(report)
    }
}

/// The pack in `raw`, read and checked; `None` when it has an error.
pub fn parsed(raw: &RawPack, tools: &Catalog, report: &mut Report) -> Option<Pack> {
    let pack = read::parse(raw, report)?;
    let found = check(&raw.place, &pack, tools);
    let valid = found.valid();
    report.extend(found);
    valid.then_some(pack)
}

/// A root's immediate subdirectories that hold a `manifest.json`, sorted; a root that cannot
/// be read is an error. Hidden directories (`.git`) are passed over, and other directories
/// without a manifest with a warning.
fn subdirectories(root: &Path, report: &mut Report) -> Vec<PathBuf> {
    let place = root.display().to_string();
    let mut notes = Notes {
        pack: &place,
        file: "",
        report,
    };
    let entries = match std::fs::read_dir(root) {
        Ok(entries) => entries,
        Err(e) => {
            notes.error(
                "",
                "missing_file",
                format!("the pack root cannot be read: {e}"),
            );
            return Vec::new();
        }
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    dirs.sort();
    dirs.retain(|dir| {
        let pack = dir.join("manifest.json").exists();
        if !pack {
            let message = format!("{} has no manifest.json: not a pack", dir.display());
            notes.warn("", "not_a_pack", message);
        }
        pack
    });
    dirs
}

/// User packs over shipped ones: one id twice among the user's is an error.
fn assemble(
    user: Vec<(Pack, String)>,
    shipped: Vec<(Pack, String)>,
    report: &mut Report,
) -> BTreeMap<String, Loaded> {
    let mut set: BTreeMap<String, Loaded> = BTreeMap::new();
    for (pack, place) in shipped {
        let loaded = Loaded {
            pack,
            place,
            shipped: true,
            overrides: None,
        };
        set.insert(loaded.pack.manifest.id.clone(), loaded);
    }
    for (pack, place) in user {
        let id = pack.manifest.id.clone();
        let mut notes = Notes {
            pack: &place,
            file: "manifest.json",
            report,
        };
        let mut overrides = None;
        match set.get(&id) {
            Some(other) if !other.shipped => {
                let message = format!(
                    "the pack {id:?} is also at {}: one id, one pack",
                    other.place
                );
                notes.error("/id", "duplicate_id", message);
                continue;
            }
            Some(other) => {
                let message = format!("overrides the shipped pack {id:?} ({})", other.place);
                notes.warn("/id", "overrides", message);
                overrides = Some(other.place.clone());
            }
            None => {}
        }
        set.insert(
            id,
            Loaded {
                pack,
                place,
                shipped: false,
                overrides,
            },
        );
    }
    set
}

/// The active pack set, replaced whole by a reload that finds no error. A run holds the
/// set it started with (an `Arc`), whatever reloads meanwhile.
pub struct Registry {
    sources: Sources,
    /// Held by a reload from reading to replacing: two reloads end in the newer set.
    reloading: std::sync::Mutex<()>,
    /// Every tool, for checking workflows' steps.
    tools: Catalog,
    active: RwLock<Arc<PackSet>>,
}

impl Registry {
    /// The set `sources` give now; an error leaves the server with no pack, and says why.
    pub fn new(sources: Sources, tools: Catalog) -> (Self, Report) {
        let (set, report) = match load(&sources, &tools) {
            Ok(set) => {
                let warnings = set.warnings.clone();
                (set, warnings)
            }
            Err(report) => (PackSet::default(), report),
        };
        let registry = Registry {
            sources,
            reloading: std::sync::Mutex::new(()),
            tools,
            active: RwLock::new(Arc::new(set)),
        };
        (registry, report)
    }

    pub fn current(&self) -> Arc<PackSet> {
        self.active
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Loads the sources again: the new set replaces the active one only if it has no error.
    pub fn reload(&self) -> Result<Arc<PackSet>, Report> {
        let _one_at_a_time = self.reloading.lock().unwrap_or_else(|e| e.into_inner());
        let set = Arc::new(load(&self.sources, &self.tools)?);
        let mut active = self.active.write().unwrap_or_else(|e| e.into_inner());
        *active = set.clone();
        Ok(set)
    }

    /// The pack roots, in order, the user's last.
    pub fn roots(&self) -> Vec<PathBuf> {
        self.sources
            .roots
            .iter()
            .chain(&self.sources.user)
            .cloned()
            .collect()
    }

    /// What the pack at `dir` inside `root` gets wrong, read anew; nothing is loaded.
    pub fn check_dir(&self, root: &Path, dir: &Path) -> Report {
        let mut report = Report::default();
        if let Some(raw) = read::from_dir(root, dir, &mut report) {
            parsed(&raw, &self.tools, &mut report);
        }
        report
    }

    /// What the loaded pack `id` gets wrong, read anew from where it came from.
    pub fn check_loaded(&self, id: &str) -> Option<Report> {
        let loaded = self.current().get(id)?.clone();
        if loaded.shipped {
            let raw = self
                .sources
                .shipped
                .iter()
                .find(|r| r.place == loaded.place)?;
            let mut report = Report::default();
            parsed(raw, &self.tools, &mut report);
            return Some(report);
        }
        let dir = PathBuf::from(&loaded.place);
        Some(self.check_dir(dir.parent()?, &dir))
    }
}
