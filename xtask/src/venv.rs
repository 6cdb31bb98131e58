//! The Python venv for Python packages Debian does not ship (Debian's Python refuses pip
//! installs). The official MCP Python SDK tests `deskpilot mcp` with a real host's client.
//! kubernetes-validate checks the Kubernetes manifests against the schemas it carries.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, bail};

/// The SDK version the tests speak with, and the validator with its schemas.
const REQUIREMENTS: &[&str] = &["mcp==2.3.0", "kubernetes-validate==1.37.0"];

/// `target/mcp-venv`, created (and the SDK installed) when missing or out of date. Returns its
/// python.
pub fn ensure() -> anyhow::Result<PathBuf> {
    let dir = crate::root().join("target/mcp-venv");
    let python = dir.join("bin/python");
    let marker = dir.join("deskpilot-requirements.txt");
    let wanted = REQUIREMENTS.join("\n");
    if python.exists() && std::fs::read_to_string(&marker).is_ok_and(|m| m.trim() == wanted) {
        return Ok(python);
    }
    eprintln!(
        "xtask: creating {} with {}",
        dir.display(),
        REQUIREMENTS.join(", ")
    );
    run(Command::new("/usr/bin/python3")
        .args(["-m", "venv", "--clear"])
        .arg(&dir))?;
    run(Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(REQUIREMENTS))?;
    std::fs::write(&marker, &wanted).context("writing the venv marker")?;
    Ok(python)
}

fn run(cmd: &mut Command) -> anyhow::Result<()> {
    let status = cmd.status().with_context(|| format!("running {cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed: {status}");
    }
    Ok(())
}
