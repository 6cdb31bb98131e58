//! `cargo xtask under-load`: the desktop tests that once failed only on a busy machine, each
//! run `runs` times while stress-ng keeps two CPU workers busy (issue 39). Every run must
//! pass: a test that fails under load is a defect, never retried away.

use std::process::{Child, Command};
use std::time::Instant;

use anyhow::{Context, bail};

/// (package, test target, test name).
const TESTS: &[(&str, &str, &str)] = &[
    (
        "deskpilot-linux",
        "live",
        "gtk3_a_burst_of_1000_changes_read_as_diffs_ends_as_a_cold_read",
    ),
    ("deskpilot-linux", "events_table", "gecko_events_per_change"),
    (
        "deskpilot-cli",
        "hostile_atspi",
        "bad_answers_end_in_time_and_other_apps_are_not_kept_waiting",
    ),
    (
        "deskpilot-cli",
        "hostile",
        "a_box_of_9300_labels_is_read_in_part_and_the_app_stays_free",
    ),
];

/// Kills stress-ng when the runs end, also on failure.
struct Load(Child);

impl Drop for Load {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn run(runs: u32) -> anyhow::Result<()> {
    crate::install::ensure(&["stress-ng"])?;
    for (package, target, _) in TESTS {
        let feature = format!("{package}/e2e");
        let build = ["test", "-p", package, "--features", &feature];
        crate::cargo::cargo(&[&build[..], &["--test", target, "--no-run"]].concat())?;
    }
    let _load = Load(
        Command::new("stress-ng")
            .args(["--cpu", "2", "--quiet"])
            .spawn()
            .context("starting stress-ng")?,
    );
    let mut failed = Vec::new();
    for run in 1..=runs {
        for (package, target, name) in TESTS {
            let feature = format!("{package}/e2e");
            let started = Instant::now();
            let args = [
                "test",
                "-p",
                package,
                "--features",
                &feature,
                "--test",
                target,
            ];
            let result = crate::cargo::cargo(&[&args[..], &["--", "--exact", name]].concat());
            let took = started.elapsed().as_secs();
            let verdict = if result.is_ok() { "passed" } else { "FAILED" };
            eprintln!("xtask: under load, run {run}: {name} {verdict} in {took} s");
            if result.is_err() {
                failed.push(format!("run {run}: {name}"));
            }
        }
    }
    if !failed.is_empty() {
        bail!("failed under load: {}", failed.join(", "));
    }
    Ok(())
}
