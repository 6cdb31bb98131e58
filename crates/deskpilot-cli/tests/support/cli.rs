//! The `deskpilot` CLI run against a test desktop's bus and display, never the caller's.
//! Included with `#[path]` by the CLI tests, the hostile-app tests and their benchmark.

use std::process::{Command, Output};

use deskpilot_testkit::VirtualDesktop;

/// Runs `deskpilot ARGS` on `desktop` and gives its output, whatever its exit status.
pub fn deskpilot(desktop: &VirtualDesktop, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_deskpilot"))
        .args(args)
        .args(["--bus", desktop.session_bus_address()])
        .args(["--display", desktop.display()])
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env_remove("DISPLAY")
        .output()
        .expect("deskpilot runs")
}
