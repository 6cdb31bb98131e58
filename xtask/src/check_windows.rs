//! `cargo xtask check-windows`: compile-checks and lints the crates that must build for
//! Windows, for `x86_64-pc-windows-gnu`, with Debian's Rust and its std sources
//! (`../shared/design/windows-uia.md` §5.2). Nothing is linked or run: Windows is not here.

use std::process::Command;

use anyhow::{Context, bail};

/// Debian's Rust with std's sources (rustup's toolchain has no Windows std), its clippy,
/// and the MinGW toolchain the `windows` crate's raw-dylib needs once something links.
pub const PACKAGES: &[&str] = &[
    "rustc-web",
    "cargo-web",
    "rust-web-src",
    "libstd-rust-web-dev",
    "rust-web-clippy",
    "gcc-mingw-w64-x86-64-win32",
    "binutils-mingw-w64-x86-64",
    "mingw-w64-x86-64-dev",
];

pub const TARGET: &str = "x86_64-pc-windows-gnu";

/// Crates checked with all their targets (tests included): their tests need no desktop.
const ALL_TARGETS: &[&str] = &[
    "deskpilot-platform",
    "deskpilot-core",
    "deskpilot-fake",
    "deskpilot-desktop",
    "deskpilot-mcp",
    "deskpilot-packs",
    "deskpilot-windows",
    "deskpilot-winfixture",
];

/// Crates checked as libraries and binaries: their tests and benches drive Linux desktops.
const LIB_AND_BINS: &[&str] = &["deskpilot-test", "deskpilot-cli"];

pub fn run() -> anyhow::Result<()> {
    crate::install::ensure(PACKAGES)?;
    for tool in ["check", "clippy"] {
        let lints: &[&str] = if tool == "clippy" {
            &["--", "-D", "warnings"]
        } else {
            &[]
        };
        // The live tests (a real desktop's) are checked too: they run on a Windows runner.
        let targets = ["--all-targets", "--features", "deskpilot-windows/live"];
        cargo(tool, ALL_TARGETS, &targets, lints)?;
        cargo(tool, LIB_AND_BINS, &[], lints)?;
    }
    eprintln!("xtask: the Windows crates check and lint clean for {TARGET}");
    Ok(())
}

/// Debian's cargo (by absolute path: rustup's comes first on PATH) on `crates` for Windows.
fn cargo(tool: &str, crates: &[&str], targets: &[&str], lints: &[&str]) -> anyhow::Result<()> {
    debian_cargo(
        tool,
        crates,
        &[targets, lints].concat(),
        "target/windows-check",
    )
}

/// Debian's cargo running `tool` on `crates` for Windows with std built from source, its
/// output in `target_dir` (relative to the workspace); MinGW links what it builds.
pub fn debian_cargo(
    tool: &str,
    crates: &[&str],
    extra: &[&str],
    target_dir: &str,
) -> anyhow::Result<()> {
    crate::install::ensure(PACKAGES)?;
    let mut args = vec![tool, "--locked", "--target", TARGET, "-Zbuild-std"];
    for name in crates {
        args.extend(["-p", name]);
    }
    args.extend(extra);
    eprintln!("xtask: /usr/bin/cargo {}", args.join(" "));
    // cargo finds cargo-clippy on PATH: Debian's, not rustup's.
    let path = format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default());
    let status = Command::new("/usr/bin/cargo")
        .args(&args)
        .env("PATH", path)
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTC", "/usr/bin/rustc")
        .env("RUSTDOC", "/usr/bin/rustdoc")
        .env("CARGO_TARGET_DIR", crate::root().join(target_dir))
        .env(
            "CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER",
            "x86_64-w64-mingw32-gcc",
        )
        .env_remove("RUSTC_WRAPPER")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .current_dir(crate::root())
        .status()
        .context("running /usr/bin/cargo")?;
    if !status.success() {
        bail!("/usr/bin/cargo {} failed: {status}", args.join(" "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crates each `cargo clippy` line of `workflow` names, line by line.
    fn clippy_lines(workflow: &str) -> Vec<Vec<String>> {
        workflow
            .lines()
            .map(str::trim)
            .filter(|line| line.starts_with("cargo clippy"))
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                words
                    .windows(2)
                    .filter(|pair| pair[0] == "-p")
                    .map(|pair| pair[1].to_owned())
                    .collect()
            })
            .collect()
    }

    /// The Windows runner lints for MSVC the crates this check lints for GNU, and its live
    /// tests' feature: one list kept in two places, held equal here.
    #[test]
    fn the_runner_lints_the_crates_checked_here() {
        let path = crate::root().join(".github/workflows/windows.yml");
        let workflow = std::fs::read_to_string(path).unwrap();
        assert_eq!(
            clippy_lines(&workflow),
            [ALL_TARGETS.to_vec(), LIB_AND_BINS.to_vec()]
        );
        assert!(workflow.contains("--all-targets --features deskpilot-windows/live"));
    }
}
