//! Where a server's packs come from: `--packs` roots, `DESKPILOT_PACKS` (a path list), the
//! user's config directory (`deskpilot/packs` under it, when it exists), and the packs built
//! into the binary from `packs/`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::read::RawPack;
use super::set::Sources;
use super::shipped::SHIPPED;

impl Sources {
    /// The shipped packs alone (a server made in code; tests).
    pub fn shipped_only() -> Self {
        Sources {
            roots: Vec::new(),
            user: None,
            shipped: shipped(),
        }
    }

    /// A server's: `roots` first, then `DESKPILOT_PACKS`'s, then the user's (read once it
    /// exists, a reload included), and the shipped packs.
    pub fn for_server(mut roots: Vec<PathBuf>) -> Self {
        if let Some(list) = std::env::var_os("DESKPILOT_PACKS") {
            roots.extend(std::env::split_paths(&list).filter(|p| !p.as_os_str().is_empty()));
        }
        Sources {
            roots,
            user: user_root(),
            shipped: shipped(),
        }
    }
}

/// `deskpilot/packs` in the user's config directory (`%APPDATA%`, `$XDG_CONFIG_HOME`,
/// `~/.config`).
pub fn user_root() -> Option<PathBuf> {
    let var = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let config = if cfg!(windows) {
        var("APPDATA")
    } else {
        var("XDG_CONFIG_HOME").or_else(|| var("HOME").map(|home| home.join(".config")))
    };
    config.map(|dir| dir.join("deskpilot").join("packs"))
}

/// The packs built into the binary, as files by name.
fn shipped() -> Vec<RawPack> {
    let mut packs: BTreeMap<&str, BTreeMap<&'static str, String>> = BTreeMap::new();
    for (dir, file, text) in SHIPPED {
        packs
            .entry(dir)
            .or_default()
            .insert(file, (*text).to_owned());
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
pub fn shipped_source(root: &std::path::Path) -> std::io::Result<String> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    let mut out = String::from(
        "//! The packs under `packs/`, built into the binary: (directory, file, text).\n\
         //! Generated: `DESKPILOT_UPDATE_SHIPPED=1 cargo test -p deskpilot-mcp shipped`.\n\n\
         #[rustfmt::skip]\n\
         pub const SHIPPED: &[(&str, &str, &str)] = &[\n",
    );
    for dir in dirs {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for file in super::format::FILES
            .iter()
            .filter(|f| dir.join(f.name).is_file())
        {
            out.push_str(&format!(
                "    (\n        \"{name}\",\n        \"{0}\",\n        include_str!(\"../../../../packs/{name}/{0}\"),\n    ),\n",
                file.name
            ));
        }
    }
    out.push_str("];\n");
    Ok(out)
}
