//! A set of packs, loaded whole or not at all. User packs come from pack
//! roots (`--packs`, `DESKPILOT_PACKS`, the user's config directory), each root's immediate
//! subdirectories; shipped packs come from the binary. A user pack overrides a shipped one
//! of its id and says so; two user packs of one id are an error naming both.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::format::AppPack;
use crate::read::{self, RawPack};
use crate::report::{Notes, Report};

/// A pack in the set, and where it came from.
#[derive(Debug, Clone)]
pub struct Loaded<P> {
    pub pack: P,
    pub place: String,
    pub shipped: bool,
    /// The shipped pack of its id this one replaces.
    pub overrides: Option<String>,
}

/// Packs by id, with the warnings their loading gave.
#[derive(Debug, Clone)]
pub struct PackSet<P> {
    pub packs: BTreeMap<String, Loaded<P>>,
    pub warnings: Report,
}

impl<P> Default for PackSet<P> {
    fn default() -> Self {
        PackSet {
            packs: BTreeMap::new(),
            warnings: Report::default(),
        }
    }
}

impl<P: AsRef<AppPack>> PackSet<P> {
    pub fn get(&self, id: &str) -> Option<&Loaded<P>> {
        self.packs.get(id)
    }

    /// The app's part of pack `id`.
    pub fn app(&self, id: &str) -> Option<&AppPack> {
        self.get(id).map(|loaded| loaded.pack.as_ref())
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

/// Every pack of `sources`, read and checked by `parse`; `Err` with every error when any
/// pack has one.
pub fn load<P: AsRef<AppPack>>(
    sources: &Sources,
    parse: impl Fn(&RawPack, &mut Report) -> Option<P>,
) -> Result<PackSet<P>, Report> {
    let mut report = Report::default();
    let mut user: Vec<(P, String)> = Vec::new();
    let existing_user_root = sources.user.iter().filter(|root| root.is_dir());
    for root in sources.roots.iter().chain(existing_user_root) {
        for dir in subdirectories(root, &mut report) {
            if let Some(pack) =
                read::from_dir(root, &dir, &mut report).and_then(|raw| parse(&raw, &mut report))
            {
                user.push((pack, dir.display().to_string()));
            }
        }
    }
    let shipped: Vec<(P, String)> = sources
        .shipped
        .iter()
        .filter_map(|raw| Some((parse(raw, &mut report)?, raw.place.clone())))
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

/// A root's immediate subdirectories that hold a `manifest.json`, sorted; a root that cannot
/// be read is an error. Hidden directories (`.git`) are passed over, and other directories
/// without a manifest with a warning.
pub fn subdirectories(root: &Path, report: &mut Report) -> Vec<PathBuf> {
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
fn assemble<P: AsRef<AppPack>>(
    user: Vec<(P, String)>,
    shipped: Vec<(P, String)>,
    report: &mut Report,
) -> BTreeMap<String, Loaded<P>> {
    let mut set: BTreeMap<String, Loaded<P>> = BTreeMap::new();
    for (pack, place) in shipped {
        let loaded = Loaded {
            pack,
            place,
            shipped: true,
            overrides: None,
        };
        set.insert(loaded.pack.as_ref().manifest.id.clone(), loaded);
    }
    for (pack, place) in user {
        let id = pack.as_ref().manifest.id.clone();
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

/// The app's part of the pack in `raw`, read and checked; `None` when it has an error.
pub fn parsed_app(raw: &RawPack, report: &mut Report) -> Option<AppPack> {
    let pack = read::parse_app(raw, report)?;
    let found = crate::check::check_app(&raw.place, &pack);
    let valid = found.valid();
    report.extend(found);
    valid.then_some(pack)
}

impl AsRef<AppPack> for AppPack {
    fn as_ref(&self) -> &AppPack {
        self
    }
}
