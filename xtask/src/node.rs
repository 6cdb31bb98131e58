//! The official MCP TypeScript SDKs, from the npm registry, to test `deskpilot mcp` as hosts
//! built on them spawn it (their stdio transport's default environment).

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, bail};

/// The SDK versions the tests speak with: v1 (`@modelcontextprotocol/sdk`) and v2
/// (`@modelcontextprotocol/client`).
const SDKS: &[&str] = &[
    "@modelcontextprotocol/sdk@1.32.2",
    "@modelcontextprotocol/client@2.4.0",
];

/// `target/mcp-node`, with the SDKs installed when missing or out of date. Returns it.
pub fn ensure() -> anyhow::Result<PathBuf> {
    ensure_in("target/mcp-node", SDKS)
}

/// `dir` (under the workspace) with `packages` installed from npm when missing or out of date.
pub fn ensure_in(dir: &str, packages: &[&str]) -> anyhow::Result<PathBuf> {
    let dir = crate::root().join(dir);
    let marker = dir.join("deskpilot-requirements.txt");
    let wanted = packages.join("\n");
    if std::fs::read_to_string(&marker).is_ok_and(|m| m.trim() == wanted) {
        return Ok(dir);
    }
    if Command::new("npm").arg("--version").output().is_err() {
        bail!(
            "npm is missing: install Node.js 20 or later with npm (Debian: apt-get install nodejs npm)"
        );
    }
    eprintln!(
        "xtask: installing {} in {}",
        packages.join(", "),
        dir.display()
    );
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
        .arg(&dir)
        .args(packages)
        .status()
        .context("running npm")?;
    if !status.success() {
        bail!("npm install {} failed: {status}", packages.join(" "));
    }
    std::fs::write(&marker, wanted).context("writing the npm marker")?;
    Ok(dir)
}
