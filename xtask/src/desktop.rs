//! `cargo xtask desktop`: a headless desktop for a person, up until Ctrl-C.

use anyhow::{Context, bail};
use deskpilot_testkit::{DesktopOptions, DisplayServer, Fixture, VirtualDesktop};
use nix::sys::signal::{SigSet, Signal};

pub fn run(fixture_names: &[String], server: DisplayServer) -> anyhow::Result<()> {
    crate::install::ensure_packages()?;
    let fixtures = fixture_names
        .iter()
        .map(|name| parse_fixture(name))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Block the signals before any thread starts, so that sigwait gets them.
    let mut signals = SigSet::empty();
    signals.add(Signal::SIGINT);
    signals.add(Signal::SIGTERM);
    signals.thread_block().context("blocking SIGINT/SIGTERM")?;

    let options = DesktopOptions {
        server,
        ..DesktopOptions::default()
    };
    let desktop = VirtualDesktop::start_with(options).context("starting the desktop")?;
    let mut apps = Vec::new();
    for fixture in fixtures {
        let app = desktop
            .launch_fixture(fixture)
            .with_context(|| format!("launching the {} fixture", fixture.name()))?;
        eprintln!(
            "fixture {} pid {} oracle {}",
            fixture.name(),
            app.pid(),
            app.oracle.path().display()
        );
        apps.push(app);
    }
    match (desktop.wayland_display(), desktop.sway_socket()) {
        (Some(wayland), Some(sway)) => {
            println!(
                "export WAYLAND_DISPLAY={wayland} SWAYSOCK={}",
                sway.display()
            );
            println!("export XDG_RUNTIME_DIR={}", desktop.runtime_dir().display());
        }
        (Some(wayland), None) => {
            println!("export WAYLAND_DISPLAY={wayland}");
            if desktop.wayland().is_some_and(|w| w.gnome) {
                println!("export XDG_CURRENT_DESKTOP=GNOME");
            }
            println!("export XDG_RUNTIME_DIR={}", desktop.runtime_dir().display());
        }
        _ => println!("export DISPLAY={}", desktop.display()),
    }
    println!(
        "export DBUS_SESSION_BUS_ADDRESS='{}'",
        desktop.session_bus_address()
    );
    println!("# accessibility bus: {}", desktop.a11y_bus_address());
    println!("# logs: {}", desktop.dir().display());
    println!("# Ctrl-C stops the desktop and everything on it.");
    let signal = signals.wait().context("waiting for Ctrl-C")?;
    eprintln!("xtask: {signal:?}, stopping the desktop");
    drop(apps);
    if let Err(left) = desktop.stop() {
        bail!("processes survived teardown: {left:?}");
    }
    Ok(())
}

pub fn parse_fixture(name: &str) -> anyhow::Result<Fixture> {
    Fixture::ALL
        .into_iter()
        .find(|f| f.name() == name)
        .with_context(|| format!("unknown fixture {name:?} (gtk3, gtk4, qt5, qt6)"))
}
