//! `cargo xtask demo`: a headless desktop with the GTK3 fixture, and deskpilot at work on it,
//! narrated on the terminal. It grows with each capability.

use std::process::Command;

use anyhow::{Context, bail};
use deskpilot_desktop::{Fixture, VirtualDesktop};

pub fn run() -> anyhow::Result<()> {
    crate::install::ensure_packages()?;
    crate::test::cargo(&["build", "--package", "deskpilot-cli"])?;
    let deskpilot = crate::root().join("target/debug/deskpilot");

    say("Starting a private headless desktop (Xvfb, D-Bus session, AT-SPI bus, openbox)");
    let desktop = VirtualDesktop::start().context("starting the desktop")?;
    println!(
        "    DISPLAY={}  session bus={}",
        desktop.display(),
        desktop.session_bus_address()
    );
    say("Launching the GTK3 fixture app and waiting until it registers on the AT-SPI bus");
    let fixture = desktop
        .launch_fixture(Fixture::Gtk3)
        .context("launching the GTK3 fixture")?;
    println!("    pid {}", fixture.pid());

    let run = |args: &[&str]| -> anyhow::Result<()> {
        println!("\n$ deskpilot {}", args.join(" "));
        let started = std::time::Instant::now();
        let output = Command::new(&deskpilot)
            .args(args)
            .arg("--bus")
            .arg(desktop.session_bus_address())
            .output()
            .context("running deskpilot")?;
        print!("{}", String::from_utf8_lossy(&output.stdout));
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
        println!(
            "    ({} ms, {})",
            started.elapsed().as_millis(),
            output.status
        );
        if !output.status.success() {
            bail!("deskpilot {} failed", args.join(" "));
        }
        Ok(())
    };
    say("What applications are on this desktop?");
    run(&["apps"])?;
    say("The fixture's window as an agent reads it (interactive filter)");
    run(&["snapshot", Fixture::Gtk3.window_title()])?;

    say("Stopping the desktop and every process it started");
    drop(fixture);
    if let Err(left) = desktop.stop() {
        bail!("processes survived teardown: {left:?}");
    }
    println!("    done: no process left behind");
    Ok(())
}

fn say(what: &str) {
    println!("\n== {what}");
}
