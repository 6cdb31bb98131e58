//! `cargo xtask probe PROGRAM`: the program started on a new headless desktop with a clean
//! private home, drafted into an app pack by `deskpilot probe`, the draft (checked as a pack
//! is) written to target/probe/NAME.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use deskpilot_testkit::VirtualDesktop;

/// How long the program may take to show up on the accessibility bus.
const REGISTER: Duration = Duration::from_secs(30);

pub fn run(program: &str, name: Option<&str>) -> anyhow::Result<()> {
    crate::install::ensure_packages()?;
    crate::cargo::cargo(&["build", "--package", "deskpilot-cli"])?;
    let name = name.unwrap_or(program);
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        bail!("{name:?} is not an app name: give --name as `deskpilot apps` lists it");
    }
    let out = crate::root().join("target/probe").join(name);
    if out.exists() {
        std::fs::remove_dir_all(&out).with_context(|| format!("removing {}", out.display()))?;
    }
    std::fs::create_dir_all(out.parent().unwrap_or(&out)).context("creating target/probe")?;
    let desktop = VirtualDesktop::start().context("starting the desktop")?;
    let app = desktop
        .launch(desktop.command(program))
        .with_context(|| format!("launching {program}"))?;
    let probed = probe_until_listed(&desktop, name, &out)?;
    print!("{}", String::from_utf8_lossy(&probed.stdout));
    eprint!("{}", String::from_utf8_lossy(&probed.stderr));
    drop(app);
    if let Err(left) = desktop.stop() {
        bail!("processes survived teardown: {left:?}");
    }
    if !probed.status.success() {
        bail!("deskpilot probe {name} failed: {}", probed.status);
    }
    eprintln!("xtask: the draft is in {}", out.display());
    Ok(())
}

/// `deskpilot probe NAME --out OUT`, again while the app is not yet listed (exit code 1).
fn probe_until_listed(
    desktop: &VirtualDesktop,
    name: &str,
    out: &std::path::Path,
) -> anyhow::Result<Output> {
    let deskpilot = crate::root().join("target/debug/deskpilot");
    let deadline = Instant::now() + REGISTER;
    loop {
        let output = Command::new(&deskpilot)
            .args(["probe", name, "--out"])
            .arg(out)
            .args([
                "--bus",
                desktop.session_bus_address(),
                "--display",
                desktop.display(),
            ])
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .env_remove("DISPLAY")
            .output()
            .context("running deskpilot")?;
        if output.status.code() != Some(1) || Instant::now() >= deadline {
            return Ok(output);
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}
