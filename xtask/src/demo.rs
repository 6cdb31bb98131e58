//! `cargo xtask demo`: a headless desktop with the GTK3 fixture, and deskpilot at work on it.

pub fn run() -> anyhow::Result<()> {
    crate::install::ensure_packages()?;
    anyhow::bail!("the demo is not written yet")
}
