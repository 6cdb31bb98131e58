//! The faces reach the platform through `deskpilot-desktop` only: no face's
//! `[dependencies]` (target-specific ones included) names a backend crate. Their tests may
//! still use the backends (`[dev-dependencies]`).

use std::path::Path;

/// The faces: the CLI (with the MCP server's binary), the MCP server, the test library.
pub const FACES: &[&str] = &["deskpilot-cli", "deskpilot-mcp", "deskpilot-test"];

/// The crates a face never names in its dependencies.
pub const BACKENDS: &[&str] = &[
    "deskpilot-atspi",
    "deskpilot-x11",
    "deskpilot-windows",
    "deskpilot-linux",
];

/// Each backend a face's manifest under `root` names in a dependencies table.
pub fn problems(root: &Path) -> anyhow::Result<Vec<String>> {
    let mut problems = Vec::new();
    for face in FACES {
        let manifest = root.join("crates").join(face).join("Cargo.toml");
        let Ok(text) = std::fs::read_to_string(&manifest) else {
            continue;
        };
        for backend in named_backends(&text) {
            problems.push(format!(
                "crates/{face}/Cargo.toml: a face depends on the backend {backend} (get the engine from deskpilot-desktop)"
            ));
        }
    }
    Ok(problems)
}

/// The backends a manifest's `[dependencies]` tables name.
fn named_backends(manifest: &str) -> Vec<&'static str> {
    let mut in_dependencies = false;
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]" || line.ends_with(".dependencies]");
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
        if in_dependencies && let Some(backend) = BACKENDS.iter().find(|b| **b == name) {
            found.push(*backend);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_backend_in_a_faces_target_dependencies_is_found() {
        let manifest = "[dependencies]\ndeskpilot-core.workspace = true\n\n\
            [target.'cfg(windows)'.dependencies]\ndeskpilot-windows.workspace = true\n\n\
            [dev-dependencies]\ndeskpilot-atspi.workspace = true\n";
        assert_eq!(named_backends(manifest), ["deskpilot-windows"]);
    }

    #[test]
    fn a_backend_in_dev_dependencies_only_is_allowed() {
        let manifest = "[dependencies]\ndeskpilot-desktop = { path = \"x\" }\n\n\
            [dev-dependencies]\ndeskpilot-linux.workspace = true\n";
        assert!(named_backends(manifest).is_empty());
    }
}
