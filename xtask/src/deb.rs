//! `cargo xtask deb`: deskpilot as a Debian package, made with Debian's own tools. It holds
//! the binary without its debug sections, its manual pages (`deskpilot man`, from the CLI's
//! definition) and its copyright. Its `Depends` are the C libraries the binary links
//! (`dpkg-shlibdeps`) and what `deskpilot serve` starts: the accessibility bus, a session bus,
//! Xvfb and a window manager. The image (`image.rs`) installs it, which proves them.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

/// What the binary runs beyond the libraries it links: the accessibility bus's launcher and
/// registry, and the private desktop of `deskpilot serve` (docs/deploy.md).
const DEPENDS: &[&str] = &["at-spi2-core", "dbus-daemon", "xvfb", "openbox"];
/// GTK's accessibility bridge and a font (what most apps want to be read), and the
/// authorities that let `--oauth-issuer` reach an issuer over HTTPS.
const RECOMMENDS: &[&str] = &["libatk-adaptor", "fonts-dejavu-core", "ca-certificates"];

const DESCRIPTION: &str = "see and drive desktop apps through their accessibility tree
 deskpilot reads a running application's accessibility tree and acts through
 the application's own semantics (press a button, set a field, select a row),
 then through keys and the pointer, checking every effect. One binary: the
 deskpilot command line, and an MCP server for agents (deskpilot mcp,
 deskpilot serve).";

/// The package of the binary at `binary`, written into `out_dir`; its path.
pub fn package(binary: &Path, out_dir: &Path) -> anyhow::Result<PathBuf> {
    crate::install::ensure(crate::install::PACKAGING)?;
    let version = version_of(binary)?;
    let arch = output(Command::new("dpkg").arg("--print-architecture"))?;
    let root = crate::root().join("target/deb/root");
    let _ = std::fs::remove_dir_all(&root);
    let bin = root.join("usr/bin");
    std::fs::create_dir_all(&bin)?;
    std::fs::copy(binary, bin.join("deskpilot"))
        .with_context(|| format!("copying {}", binary.display()))?;
    run_ok(
        Command::new("strip")
            .arg("--strip-debug")
            .arg(bin.join("deskpilot")),
    )?;
    manual(&bin.join("deskpilot"), &root.join("usr/share/man/man1"))?;
    docs(&root.join("usr/share/doc/deskpilot"))?;
    let depends = [shlib_depends(&bin.join("deskpilot"))?, DEPENDS.join(", ")].join(", ");
    let control = control(&version, &arch, &depends, installed_kb(&root)?);
    std::fs::create_dir_all(root.join("DEBIAN"))?;
    std::fs::write(root.join("DEBIAN/control"), control)?;
    std::fs::create_dir_all(out_dir)?;
    let deb = out_dir.join(format!("deskpilot_{version}-1_{arch}.deb"));
    let mut build = Command::new("dpkg-deb");
    build.args(["--root-owner-group", "-Zxz", "--build"]);
    run_ok(build.arg(&root).arg(&deb))?;
    eprintln!("xtask: {}", deb.display());
    Ok(deb)
}

/// `deskpilot --version`'s version: the package says what the binary says.
fn version_of(binary: &Path) -> anyhow::Result<String> {
    let said = output(Command::new(binary).arg("--version"))?;
    match said.strip_prefix("deskpilot ") {
        Some(version) if !version.is_empty() => Ok(version.to_owned()),
        _ => bail!("{} --version said {said:?}", binary.display()),
    }
}

/// The manual pages, compressed as Debian's policy asks (§12.1).
fn manual(binary: &Path, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    run_ok(Command::new(binary).arg("man").arg(dir))?;
    for page in std::fs::read_dir(dir)? {
        run_ok(Command::new("gzip").args(["-9n"]).arg(page?.path()))?;
    }
    Ok(())
}

/// The copyright file (machine-readable, §12.5) and the licences it names.
fn docs(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut copyright = String::from(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\
         Upstream-Name: deskpilot\n\
         Source: https://github.com/deskpilot/deskpilot\n\n\
         Files: *\n\
         Copyright: The deskpilot contributors\n\
         License: MIT or Apache-2.0\n",
    );
    for (name, file) in [("MIT", "LICENSE-MIT"), ("Apache-2.0", "LICENSE-APACHE")] {
        let text = std::fs::read_to_string(crate::root().join(file))?;
        copyright.push_str(&format!("\nLicense: {name}\n"));
        for line in text.lines() {
            let line = if line.trim().is_empty() { "." } else { line };
            copyright.push_str(&format!(" {line}\n"));
        }
    }
    std::fs::write(dir.join("copyright"), copyright)?;
    Ok(())
}

/// The packages of the libraries `binary` links, as dpkg-shlibdeps finds them.
fn shlib_depends(binary: &Path) -> anyhow::Result<String> {
    // dpkg-shlibdeps reads a source package's control file from where it runs.
    let dir = crate::root().join("target/deb/shlibs");
    std::fs::create_dir_all(dir.join("debian"))?;
    std::fs::write(
        dir.join("debian/control"),
        "Source: deskpilot\n\nPackage: deskpilot\nArchitecture: any\n",
    )?;
    let mut shlibdeps = Command::new("dpkg-shlibdeps");
    shlibdeps.arg("-O").arg(format!("-e{}", binary.display()));
    let said = output(shlibdeps.current_dir(&dir))?;
    said.lines()
        .find_map(|l| l.strip_prefix("shlibs:Depends="))
        .map(str::to_owned)
        .with_context(|| format!("dpkg-shlibdeps said no Depends: {said:?}"))
}

fn control(version: &str, arch: &str, depends: &str, installed_kb: u64) -> String {
    format!(
        "Package: deskpilot\n\
         Version: {version}-1\n\
         Architecture: {arch}\n\
         Maintainer: The deskpilot contributors <deskpilot@users.noreply.github.com>\n\
         Installed-Size: {installed_kb}\n\
         Depends: {depends}\n\
         Recommends: {}\n\
         Section: utils\n\
         Priority: optional\n\
         Homepage: https://github.com/deskpilot/deskpilot\n\
         Description: {DESCRIPTION}\n",
        RECOMMENDS.join(", ")
    )
}

/// The size of what the package installs, in KiB (`du -sk`).
fn installed_kb(root: &Path) -> anyhow::Result<u64> {
    let said = output(Command::new("du").arg("-sk").arg(root))?;
    said.split_whitespace()
        .next()
        .and_then(|kb| kb.parse().ok())
        .with_context(|| format!("du said {said:?}"))
}

fn output(command: &mut Command) -> anyhow::Result<String> {
    let shown = format!("{command:?}");
    let out = command
        .output()
        .with_context(|| format!("running {shown}"))?;
    if !out.status.success() {
        bail!("{shown} failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn run_ok(command: &mut Command) -> anyhow::Result<()> {
    output(command).map(|_| ())
}
