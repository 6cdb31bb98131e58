//! The set of packs a server uses (`deskpilot_packs::set`'s, of whole packs), and the
//! registry that reloads it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use deskpilot_packs::read::{self, RawPack};
use deskpilot_packs::report::Report;
pub use deskpilot_packs::set::Sources;
use deskpilot_packs::set::load;

use super::check::check;
use super::format::Pack;
use crate::catalog::Catalog;

/// The server's packs by id.
pub type PackSet = deskpilot_packs::set::PackSet<Pack>;

/// A pack of the server's set, and where it came from.
pub type Loaded = deskpilot_packs::set::Loaded<Pack>;

/// The pack in `raw`, read and checked; `None` when it has an error.
pub fn parsed(raw: &RawPack, tools: &Catalog, report: &mut Report) -> Option<Pack> {
    let pack = super::read::parse(raw, report)?;
    let found = check(&raw.place, &pack, tools);
    let valid = found.valid();
    report.extend(found);
    valid.then_some(pack)
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
        let (set, report) = match load(&sources, |raw, report| parsed(raw, &tools, report)) {
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
        let set = Arc::new(load(&self.sources, |raw, report| {
            parsed(raw, &self.tools, report)
        })?);
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
