//! Running cargo from xtask, in the workspace, with its failures said.

use std::process::Command;

use anyhow::{Context, bail};

pub fn cargo(args: &[&str]) -> anyhow::Result<()> {
    cargo_in(args, &[], &[])
}

/// `cargo` with these environment variables set and those removed.
pub fn cargo_in(args: &[&str], env: &[(&str, &str)], remove: &[&str]) -> anyhow::Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("xtask: cargo {}", args.join(" "));
    let mut command = Command::new(cargo);
    command
        .args(args)
        .envs(env.iter().copied())
        .current_dir(crate::root());
    for name in remove {
        command.env_remove(name);
    }
    let status = command.status().context("running cargo")?;
    if !status.success() {
        bail!("cargo {} failed: {status}", args.join(" "));
    }
    Ok(())
}
