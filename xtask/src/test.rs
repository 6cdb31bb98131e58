//! `cargo xtask test`: check the layout rules, install, build, run every test, then check that
//! no desktop process outlived the tests.

use std::process::Command;

use anyhow::{Context, bail};
use deskpilot_testkit::procs;

pub fn run(extra: &[String]) -> anyhow::Result<()> {
    // The layout rules first: cheap, and a broken one fails the run before any desktop.
    crate::structure::run(&crate::root())?;
    crate::install::ensure_packages()?;
    crate::venv::ensure()?;
    crate::node::ensure()?;
    let before = procs::marked_pids(None);
    cargo(&["build", "--workspace", "--all-targets"])?;
    let mut args = vec!["test", "--workspace"];
    args.extend(extra.iter().map(String::as_str));
    // Tests written with deskpilot-test leave a trace (target/deskpilot-traces) when they fail.
    let trace = std::env::var("DESKPILOT_TRACE").unwrap_or_else(|_| "retain-on-failure".into());
    let result = cargo_with(&args, &[("DESKPILOT_TRACE", trace.as_str())]);
    let leftovers: Vec<u32> = procs::marked_pids(None)
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    if !leftovers.is_empty() {
        procs::signal_all(&leftovers, nix::sys::signal::Signal::SIGKILL);
        bail!("desktop processes outlived the tests (now killed): {leftovers:?}");
    }
    result
}

pub fn cargo(args: &[&str]) -> anyhow::Result<()> {
    cargo_with(args, &[])
}

/// `cargo` with these environment variables set.
pub fn cargo_with(args: &[&str], env: &[(&str, &str)]) -> anyhow::Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("xtask: cargo {}", args.join(" "));
    let status = Command::new(cargo)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(crate::root())
        .status()
        .context("running cargo")?;
    if !status.success() {
        bail!("cargo {} failed: {status}", args.join(" "));
    }
    Ok(())
}
