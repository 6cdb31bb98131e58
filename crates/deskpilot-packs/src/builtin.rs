//! The packs shipped with deskpilot (`packs/`), built into the binary as their files' text.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::format::FILE_NAMES;
use crate::read::RawPack;
use crate::shipped::SHIPPED;

/// The packs built into the binary, as files by name.
pub fn shipped() -> Vec<RawPack> {
    let mut packs: BTreeMap<&str, BTreeMap<&'static str, String>> = BTreeMap::new();
    for (dir, file, text) in SHIPPED {
        let Some(name) = FILE_NAMES.iter().find(|name| *name == file) else {
            continue;
        };
        packs
            .entry(dir)
            .or_default()
            .insert(name, (*text).to_owned());
    }
    packs
        .into_iter()
        .map(|(dir, files)| RawPack {
            place: format!("shipped:{dir}"),
            files,
        })
        .collect()
}

/// `shipped.rs` as it should be for the packs under `packs/` (`root`): each pack file by
/// `include_str!`, which makes cargo rebuild when one changes.
pub fn shipped_source(root: &Path) -> std::io::Result<String> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut out = String::from(
        "//! The packs under `packs/`, built into the binary: (directory, file, text).\n\
         //! Generated: `DESKPILOT_UPDATE_SHIPPED=1 cargo test -p deskpilot-packs shipped`.\n\n\
         #[rustfmt::skip]\n\
         pub const SHIPPED: &[(&str, &str, &str)] = &[\n",
    );
    for dir in dirs {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for file in FILE_NAMES.iter().filter(|f| dir.join(f).is_file()) {
            out.push_str(&format!(
                "    (\n        \"{name}\",\n        \"{file}\",\n        include_str!(\"../packs/{name}/{file}\"),\n    ),\n",
            ));
        }
    }
    out.push_str("];\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `shipped.rs` names every file of every pack under `packs/` (by `include_str!`, so that
    /// cargo rebuilds when one changes); `DESKPILOT_UPDATE_SHIPPED=1` writes it anew.
    #[test]
    fn the_shipped_list_names_every_pack_file() {
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let wanted = shipped_source(&crate_dir.join("packs")).unwrap();
        let path = crate_dir.join("src/shipped.rs");
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        if std::env::var_os("DESKPILOT_UPDATE_SHIPPED").is_some() {
            std::fs::write(&path, &wanted).unwrap();
            return;
        }
        assert!(
            have == wanted,
            "src/shipped.rs is out of date: run DESKPILOT_UPDATE_SHIPPED=1 cargo test -p deskpilot-packs shipped"
        );
    }
}
