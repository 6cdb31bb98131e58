//! `cargo xtask package`: `cargo package` of the test library and the crates it needs, in one
//! run, so that cargo resolves them among themselves before any is on crates.io. Each is
//! then built from its packaged sources alone: no path outside it, no unpublished crate.
//! That build takes 4.6 minutes here (its own profile and features: nothing is reused), so
//! CI packages without it (`--no-verify`): versions, metadata and the files each carries.

/// `deskpilot-test` and every workspace crate it depends on, as published.
pub const PUBLISHED: &[&str] = &[
    "deskpilot-test",
    "deskpilot-core",
    "deskpilot-platform",
    "deskpilot-packs",
    "deskpilot-desktop",
    "deskpilot-linux",
    "deskpilot-atspi",
    "deskpilot-x11",
    "deskpilot-xkb",
    "deskpilot-wayland",
    "deskpilot-gnome",
    "deskpilot-windows",
];

/// Whether each package is built from its packaged sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verify {
    Build,
    Skip,
}

pub fn run(verify: Verify) -> anyhow::Result<()> {
    // A check, not a release: uncommitted changes are packaged as they are.
    let mut args = vec!["package", "--allow-dirty"];
    if verify == Verify::Skip {
        args.push("--no-verify");
    }
    for name in PUBLISHED {
        args.extend(["-p", name]);
    }
    crate::cargo::cargo(&args)
}
