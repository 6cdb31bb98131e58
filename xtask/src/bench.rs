//! `cargo xtask bench <which>`: benchmarks on real applications, in release builds; each run's
//! numbers go to `docs/benchmarks.md` with the date and the commit (`bench_record.rs`).

use anyhow::bail;

pub fn run(which: &str, filter: &[String]) -> anyhow::Result<()> {
    // The Windows walk runs on the fake alone: no desktop, no package.
    if which != "windows" {
        crate::install::ensure_packages()?;
        crate::install::ensure(crate::install::BENCH_PACKAGES)?;
    }
    bench(which, filter)?;
    crate::bench_record::record(&crate::root(), which)?;
    if which == "snapshot" {
        crate::bench_record::record(&crate::root(), "apps")?;
    }
    Ok(())
}

fn bench(which: &str, filter: &[String]) -> anyhow::Result<()> {
    match which {
        "snapshot" => {
            let mut args = vec![
                "bench",
                "--package",
                "deskpilot-linux",
                "--bench",
                "snapshot",
                "--",
            ];
            args.extend(filter.iter().map(String::as_str));
            crate::cargo::cargo(&args)?;
            // The apps nobody tuned for, through the server (issue 49).
            crate::cargo::cargo(&["bench", "--package", "deskpilot-cli", "--bench", "apps"])
        }
        "apps" => crate::cargo::cargo(&["bench", "--package", "deskpilot-cli", "--bench", "apps"]),
        "act" => crate::cargo::cargo(&["bench", "--package", "deskpilot-cli", "--bench", "act"]),
        "screenshot" => crate::cargo::cargo(&[
            "bench",
            "--package",
            "deskpilot-cli",
            "--bench",
            "screenshot",
        ]),
        "list" => {
            crate::cargo::cargo(&["bench", "--package", "deskpilot-linux", "--bench", "list"])
        }
        "live" => crate::cargo::cargo(&["bench", "--package", "deskpilot-cli", "--bench", "live"]),
        "load" => crate::cargo::cargo(&["bench", "--package", "deskpilot-cli", "--bench", "load"]),
        "hostile" => {
            crate::cargo::cargo(&["bench", "--package", "deskpilot-cli", "--bench", "hostile"])
        }
        "windows" => crate::cargo::cargo(&[
            "bench",
            "--package",
            "deskpilot-windows",
            "--features",
            "fake",
            "--bench",
            "walk",
        ]),
        "testlib" => {
            crate::cargo::cargo(&["bench", "--package", "deskpilot-test", "--bench", "testlib"])
        }
        other => {
            bail!(
                "unknown benchmark {other:?} (snapshot, apps, act, screenshot, list, testlib, live, load, hostile, windows)"
            )
        }
    }
}
