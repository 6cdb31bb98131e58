//! The Python venv for Python packages Debian does not ship (Debian's Python refuses pip
//! installs): the official MCP Python SDK, to test `deskpilot mcp` with a real host's client.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, bail};

/// The SDK version the tests speak with.
const MCP_SDK: &str = "mcp==2.3.0";

/// `target/mcp-venv`, created (and the SDK installed) when missing or out of date. Returns its
/// python.
pub fn ensure() -> anyhow::Result<PathBuf> {
    let dir = crate::root().join("target/mcp-venv");
    let python = dir.join("bin/python");
    let marker = dir.join("deskpilot-requirements.txt");
    if python.exists() && std::fs::read_to_string(&marker).is_ok_and(|m| m.trim() == MCP_SDK) {
        return Ok(python);
    }
    eprintln!("xtask: creating {} with {MCP_SDK}", dir.display());
    run(Command::new("/usr/bin/python3")
        .args(["-m", "venv", "--clear"])
        .arg(&dir))?;
    run(Command::new(&python).args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        MCP_SDK,
    ]))?;
    std::fs::write(&marker, MCP_SDK).context("writing the venv marker")?;
    Ok(python)
}

fn run(cmd: &mut Command) -> anyhow::Result<()> {
    let status = cmd.status().with_context(|| format!("running {cmd:?}"))?;
    if !status.success() {
        bail!("{cmd:?} failed: {status}");
    }
    Ok(())
}
