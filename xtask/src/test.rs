//! `cargo xtask test`: check the layout rules, install, then two tiers: every test that needs
//! no desktop (with DISPLAY and DBUS_SESSION_BUS_ADDRESS unset, as on a bare machine) and the
//! MCP conformance suite (`conformance.rs`), then the container image (`image.rs`) and the
//! desktop suites behind the `e2e` feature, which must start desktops. Last, no desktop
//! process may outlive the tests.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};
use deskpilot_testkit::{STARTED_LOG_VAR, procs};

/// Cases per property in the long run (`tests/properties.rs`, `tests/arguments.rs`).
const PROPTEST_CASES: &str = "50000";

pub fn run(extra: &[String]) -> anyhow::Result<()> {
    // The layout rules first: cheap, and a broken one fails the run before any desktop.
    crate::structure::run(&crate::root())?;
    crate::install::ensure_packages()?;
    crate::venv::ensure()?;
    crate::node::ensure()?;
    let mut fast = vec!["test", "--workspace"];
    fast.extend(extra.iter().map(String::as_str));
    eprintln!("xtask: the tests that need no desktop");
    crate::cargo::cargo_in(&fast, &[], &["DISPLAY", "DBUS_SESSION_BUS_ADDRESS"])?;
    // The property tests again, with many more cases: about 2 minutes here. `--workspace`
    // keeps the features of the run above, so that nothing is built twice.
    let mut props = vec![
        "test",
        "--workspace",
        "--test",
        "properties",
        "--test",
        "arguments",
    ];
    props.extend(extra.iter().map(String::as_str));
    crate::cargo::cargo_in(
        &props,
        &[("PROPTEST_CASES", PROPTEST_CASES)],
        &["DISPLAY", "DBUS_SESSION_BUS_ADDRESS"],
    )?;
    // The official conformance suite, over HTTP, needs no desktop either; it serves the
    // binaries just built (deskpilot-conformance's own test makes cargo build its binary).
    crate::conformance::run(crate::image::Build::Built)?;
    desktop_tier(extra)
}

/// The suites behind the `e2e` feature; fails when they started no desktop.
fn desktop_tier(extra: &[String]) -> anyhow::Result<()> {
    let targets = desktop_targets()?;
    // `--workspace`, as above: the dependencies keep their features and are not built again.
    let mut args = vec!["test".to_owned(), "--workspace".to_owned()];
    let mut features = Vec::new();
    for target in &targets {
        if !features.contains(&format!("{}/e2e", target.package)) {
            features.push(format!("{}/e2e", target.package));
        }
    }
    args.extend(["--features".to_owned(), features.join(",")]);
    for target in &targets {
        args.extend([format!("--{}", target.kind), target.name.clone()]);
    }
    args.extend(extra.iter().cloned());
    let log = crate::root().join("target/desktops-started.log");
    let _ = std::fs::remove_file(&log);
    let before = procs::marked_pids(None);
    eprintln!("xtask: the desktop suites ({} targets)", targets.len());
    // Tests written with deskpilot-test leave a trace (target/deskpilot-traces) when they fail.
    let trace = std::env::var("DESKPILOT_TRACE").unwrap_or_else(|_| "retain-on-failure".into());
    let log_text = log.to_string_lossy().into_owned();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Compiled first (`--no-run` before any argument for the test binaries), so that the
    // image takes the binary the suites run.
    let mut compile = args.clone();
    compile.insert(1, "--no-run");
    crate::cargo::cargo(&compile)?;
    image()?;
    let env = [
        ("DESKPILOT_TRACE", trace.as_str()),
        (STARTED_LOG_VAR, &log_text),
    ];
    let result = crate::cargo::cargo_in(&args, &env, &[]);
    let leftovers: Vec<u32> = procs::marked_pids(None)
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    if !leftovers.is_empty() {
        procs::signal_all(&leftovers, nix::sys::signal::Signal::SIGKILL);
        bail!("desktop processes outlived the tests (now killed): {leftovers:?}");
    }
    result?;
    let started = started_desktops(&log);
    if started == 0 {
        bail!("the desktop suites started no desktop: none of their tests ran");
    }
    eprintln!("xtask: the desktop suites started {started} desktops");
    Ok(())
}

/// The container image the suites' tests/container.rs and tests/kube.rs run, with the
/// binary just built for them: about 2 minutes on a fresh machine (the Debian base made
/// once, then kept in target/image/).
fn image() -> anyhow::Result<()> {
    if !nix::unistd::geteuid().is_root() {
        eprintln!("xtask: not root: no image built, and the container suites fail without it");
        return Ok(());
    }
    crate::image::run(crate::image::Build::Built, &["mousepad".to_owned()])
}

fn started_desktops(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |text| text.lines().count())
}

/// A test or example that runs only with its package's `e2e` feature.
struct DesktopTarget {
    package: String,
    /// `test` or `example`.
    kind: String,
    name: String,
}

/// The workspace's targets that require the `e2e` feature, from `cargo metadata`.
fn desktop_targets() -> anyhow::Result<Vec<DesktopTarget>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .current_dir(crate::root())
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let mut targets = Vec::new();
    for package in meta["packages"].as_array().into_iter().flatten() {
        for target in package["targets"].as_array().into_iter().flatten() {
            let e2e = target["required-features"]
                .as_array()
                .is_some_and(|f| f.iter().any(|f| f == "e2e"));
            let kind = target["kind"][0].as_str().unwrap_or_default();
            if e2e && matches!(kind, "test" | "example") {
                targets.push(DesktopTarget {
                    package: package["name"].as_str().unwrap_or_default().to_owned(),
                    kind: kind.to_owned(),
                    name: target["name"].as_str().unwrap_or_default().to_owned(),
                });
            }
        }
    }
    if targets.is_empty() {
        bail!("no target requires the e2e feature: the desktop suites are gone");
    }
    Ok(targets)
}
