//! `cargo xtask image`: deskpilot's container image, built here from Debian's archive alone
//! (this machine reaches no image registry). The base is a Debian made by debootstrap and
//! imported into podman, kept as target/image/base-bookworm.tar and reused. Over it goes
//! deploy/Containerfile with deskpilot's Debian package, then each app layer asked for
//! (deploy/apps/NAME.Containerfile). Podman takes its settings from deploy/containers.conf,
//! never from the machine's own.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, bail};

/// The Debian release of the base, and where its packages come from.
const RELEASE: &str = "bookworm";
const MIRROR: &str = "http://deb.debian.org/debian";

/// The images, in podman's local store.
pub const BASE: &str = "localhost/deskpilot-base:bookworm";
pub const IMAGE: &str = "localhost/deskpilot:latest";

/// The image of the app layer `app` (deploy/apps/APP.Containerfile).
pub fn app_image(app: &str) -> String {
    format!("localhost/deskpilot-{app}:latest")
}

/// `podman`, with deskpilot's settings.
pub fn podman() -> Command {
    let mut command = Command::new("podman");
    command.env(
        "CONTAINERS_CONF",
        crate::root().join("deploy/containers.conf"),
    );
    command
}

/// Which build of the binary goes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// Optimized: what a fleet runs.
    Release,
    /// The debug one, built first.
    Debug,
    /// The debug one as it is: the one `cargo xtask test` has just built for its suites.
    Built,
}

/// Builds the image with the binary of `build`, and the app layers `apps`.
pub fn run(build_of: Build, apps: &[String]) -> anyhow::Result<()> {
    if !nix::unistd::geteuid().is_root() {
        bail!("cargo xtask image runs as root: debootstrap and rootful podman need it");
    }
    crate::install::ensure_packages()?;
    let started = Instant::now();
    base()?;
    let context = context(build_of)?;
    build(&crate::root().join("deploy/Containerfile"), IMAGE, &context)?;
    for app in apps {
        let file = crate::root().join(format!("deploy/apps/{app}.Containerfile"));
        if !file.is_file() {
            bail!("no app layer {app}: {} is missing", file.display());
        }
        build(&file, &app_image(app), &context)?;
    }
    eprintln!(
        "xtask: the image built in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The base image: in podman already, or imported from the kept tarball, or made.
fn base() -> anyhow::Result<()> {
    if status(podman().args(["image", "exists", BASE]))? {
        return Ok(());
    }
    let dir = crate::root().join("target/image");
    let tarball = dir.join(format!("base-{RELEASE}.tar"));
    if !tarball.is_file() {
        bootstrap(&dir, &tarball)?;
    }
    let mut import = podman();
    import.arg("import").arg(&tarball).arg(BASE);
    run_ok(&mut import)
}

/// A minimal Debian from the archive, packed as `tarball`.
fn bootstrap(dir: &Path, tarball: &Path) -> anyhow::Result<()> {
    let rootfs = dir.join("rootfs");
    let _ = std::fs::remove_dir_all(&rootfs);
    std::fs::create_dir_all(dir)?;
    eprintln!("xtask: debootstrap {RELEASE} from {MIRROR}");
    let mut debootstrap = Command::new("debootstrap");
    debootstrap
        .args(["--variant=minbase", RELEASE])
        .arg(&rootfs)
        .arg(MIRROR);
    run_ok(&mut debootstrap)?;
    let partial = tarball.with_extension("tar.partial");
    let mut tar = Command::new("tar");
    tar.arg("-C").arg(&rootfs).arg("-cf").arg(&partial).arg(".");
    run_ok(&mut tar)?;
    std::fs::rename(&partial, tarball)?;
    std::fs::remove_dir_all(&rootfs)?;
    Ok(())
}

/// The build context: the binary in its Debian package (`deb.rs`).
fn context(build_of: Build) -> anyhow::Result<PathBuf> {
    let binary = binary(build_of)?;
    let context = crate::root().join("target/image/context");
    std::fs::create_dir_all(&context)?;
    let deb = crate::deb::package(&binary, &crate::root().join("target/deb"))?;
    std::fs::copy(&deb, context.join("deskpilot.deb"))
        .with_context(|| format!("copying {}", deb.display()))?;
    Ok(context)
}

/// The binary of `build_of`, built unless it is the one just built.
pub fn binary(build_of: Build) -> anyhow::Result<PathBuf> {
    let mut args = vec!["build", "-p", "deskpilot-cli", "--bin", "deskpilot"];
    let profile = match build_of {
        Build::Release => {
            args.push("--release");
            "release"
        }
        Build::Debug | Build::Built => "debug",
    };
    if build_of != Build::Built {
        crate::cargo::cargo(&args)?;
    }
    Ok(crate::root().join("target").join(profile).join("deskpilot"))
}

/// `podman build` of `file` as `tag`.
fn build(file: &Path, tag: &str, context: &Path) -> anyhow::Result<()> {
    eprintln!("xtask: podman build {tag}");
    let mut build = podman();
    build.args(["build", "--quiet", "-f"]).arg(file);
    build.args(["-t", tag]).arg(context);
    run_ok(&mut build)
}

fn run_ok(command: &mut Command) -> anyhow::Result<()> {
    let shown = format!("{command:?}");
    if !status(command)? {
        bail!("{shown} failed");
    }
    Ok(())
}

fn status(command: &mut Command) -> anyhow::Result<bool> {
    let shown = format!("{command:?}");
    Ok(command
        .status()
        .with_context(|| format!("running {shown}"))?
        .success())
}
