//! Where a server's packs come from: `--packs` roots, `DESKPILOT_PACKS` (a path list), the
//! user's config directory (`deskpilot/packs` under it, when it exists), and the packs built
//! into the binary from `packs/`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use include_dir::{Dir, include_dir};

use super::format::FILES;
use super::read::RawPack;
use super::set::Sources;

// Cargo does not see a change under packs/ by itself: touch this file after one.
static SHIPPED: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../../packs");

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
    SHIPPED
        .dirs()
        .map(|dir| {
            let files: BTreeMap<&'static str, String> = FILES
                .iter()
                .filter_map(|file| {
                    let text = dir.get_file(dir.path().join(file.name))?.contents_utf8()?;
                    Some((file.name, text.to_owned()))
                })
                .collect();
            RawPack {
                place: format!("shipped:{}", dir.path().display()),
                files,
            }
        })
        .collect()
}
