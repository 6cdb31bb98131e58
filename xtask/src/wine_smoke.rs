//! `cargo xtask wine-smoke`: the read path of `deskpilot.exe` against the Windows fixture,
//! under Wine 10 in a Debian trixie chroot (`target/wine-chroot`), on demand: never in CI,
//! never Wine on the host. Root only (debootstrap and chroot). Wine implements little of UI
//! Automation's client side; what it shows is the COM code running, not Windows' behaviour.

use std::process::Command;

use anyhow::{Context, bail};

/// What runs inside the chroot: Xvfb, the fixture, then the CLI's reads.
const SCRIPT: &str = r#"#!/bin/bash
export WINEDEBUG=-all HOME=/root WINEPREFIX=/root/.wine DISPLAY=:9
Xvfb :9 -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
for _ in $(seq 50); do [ -e /tmp/.X11-unix/X9 ] && break; sleep 0.1; done
timeout 180 wineboot -i >/dev/null 2>&1
echo "== $(wine --version)"
wine /smoke/deskpilot-winfixture.exe --oracle 'Z:\smoke\oracle.txt' >/dev/null 2>&1 &
for _ in $(seq 100); do
  wine /smoke/deskpilot.exe apps 2>/dev/null | grep -q winfixture && break
  sleep 0.2
done
for args in "apps" "snapshot|deskpilot Windows fixture" "find|deskpilot Windows fixture|checkbox[name=Wrap]"; do
  IFS='|' read -r -a argv <<< "$args"
  echo "== deskpilot ${argv[*]}"
  timeout 60 wine /smoke/deskpilot.exe "${argv[@]}" 2>&1
  echo "== exit $?"
done
wineserver -k 2>/dev/null
kill $XVFB 2>/dev/null
"#;

pub fn run() -> anyhow::Result<()> {
    if !nix_root() {
        bail!("wine-smoke needs root (debootstrap and chroot)");
    }
    let root = crate::root().canonicalize().context("the workspace root")?;
    let chroot = root.join("target/wine-chroot");
    // `wine` is a link into the chroot: its own target does not exist on the host.
    if chroot.join("usr/bin/wine").symlink_metadata().is_err() {
        crate::install::ensure(&["debootstrap"])?;
        run_cmd(
            Command::new("debootstrap")
                .args(["--variant=minbase", "trixie"])
                .arg(&chroot)
                .arg("http://deb.debian.org/debian"),
            "debootstrap",
        )?;
        run_cmd(
            Command::new("chroot").arg(&chroot).args([
                "bash",
                "-c",
                "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
                 --no-install-recommends wine64 wine xvfb xauth",
            ]),
            "installing Wine in the chroot",
        )?;
    }
    crate::check_windows::debian_cargo(
        "build",
        &["deskpilot-winfixture", "deskpilot-cli"],
        &[],
        "target/windows-build",
    )?;
    let built = root.join(format!(
        "target/windows-build/{}/debug",
        crate::check_windows::TARGET
    ));
    let smoke = chroot.join("smoke");
    std::fs::create_dir_all(&smoke).context("creating the chroot's /smoke")?;
    for exe in ["deskpilot.exe", "deskpilot-winfixture.exe"] {
        std::fs::copy(built.join(exe), smoke.join(exe))
            .with_context(|| format!("copying {exe}"))?;
    }
    std::fs::write(smoke.join("run.sh"), SCRIPT).context("writing the smoke script")?;
    // Wine finds itself through /proc.
    let proc = chroot.join("proc");
    run_cmd(
        Command::new("mount").args(["--bind", "/proc"]).arg(&proc),
        "mounting /proc in the chroot",
    )?;
    // A clean environment: cargo's variables and library paths are not the chroot's.
    let ran = run_cmd(
        Command::new("chroot")
            .arg(&chroot)
            .args(["bash", "/smoke/run.sh"])
            .env_clear()
            .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin"),
        "the smoke run",
    );
    let _ = Command::new("umount").arg(&proc).status();
    ran
}

fn run_cmd(command: &mut Command, what: &str) -> anyhow::Result<()> {
    let status = command
        .status()
        .with_context(|| format!("starting {what}"))?;
    if !status.success() {
        bail!("{what} failed: {status}");
    }
    Ok(())
}

/// Whether this process runs as root.
fn nix_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}
