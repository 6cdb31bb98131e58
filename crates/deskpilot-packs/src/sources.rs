//! Where packs come from: `--packs` roots, `DESKPILOT_PACKS` (a path list), the
//! user's config directory (`deskpilot/packs` under it, when it exists), and the packs built
//! into the binary from `packs/`.

use std::path::PathBuf;

use crate::builtin::shipped;
use crate::set::Sources;

impl Sources {
    /// The shipped packs alone (a server made in code; the test library).
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
