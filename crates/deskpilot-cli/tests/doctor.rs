//! `deskpilot doctor` on a private X11 desktop, with and without its display, as a Wayland
//! session's environment would say, on headless sway and GNOME Shell, and with no desktop at
//! all: each way of acting served or missing with its reason, the apps the bus lists, the
//! exit code.

use std::process::Output;

use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::Value;

fn doctor(desktop: &VirtualDesktop, args: &[&str], env: &[(&str, &str)]) -> (Output, Value) {
    let mut cmd = desktop.command(env!("CARGO_BIN_EXE_deskpilot"));
    cmd.arg("doctor").arg("--json").args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("deskpilot runs");
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out, json)
}

/// The rung named `name`: (served, detail).
fn rung(doctor: &Value, name: &str) -> (bool, String) {
    let rungs = doctor["rungs"].as_array().expect("rungs");
    let rung = rungs.iter().find(|r| r["rung"] == name).expect(name);
    let detail = rung["detail"].as_str().unwrap_or_default().to_owned();
    (rung["served"] == true, detail)
}

#[test]
fn doctor_says_what_serves_each_rung_and_what_is_missing() {
    let desktop = VirtualDesktop::start().unwrap();
    let _fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();

    let (out, found) = doctor(&desktop, &[], &[]);
    assert_eq!(out.status.code(), Some(0), "{found}");
    assert!(
        found["desktop"]
            .as_str()
            .unwrap()
            .contains(desktop.display()),
        "{found}"
    );
    for name in ["semantic", "input", "screenshots", "windows", "launch"] {
        assert!(rung(&found, name).0, "{name} not served: {found}");
    }
    let apps = found["apps"].as_array().unwrap();
    let fixture = Fixture::Gtk3.app_name();
    assert!(apps.iter().any(|a| a["name"] == fixture), "{found}");
    assert!(found["notes"].as_array().unwrap().is_empty(), "{found}");

    // No display: semantic actions only, each other rung says why.
    let (out, bare) = doctor(&desktop, &["--display", ""], &[]);
    assert_eq!(out.status.code(), Some(1), "{bare}");
    assert!(rung(&bare, "semantic").0);
    for name in ["input", "screenshots", "windows"] {
        let (served, why) = rung(&bare, name);
        assert!(!served && why.contains("no X11 display"), "{name}: {why}");
    }

    // A Wayland session's variables: said, with what it means.
    let (_, wayland) = doctor(&desktop, &[], &[("WAYLAND_DISPLAY", "wayland-1")]);
    let notes = wayland["notes"].to_string();
    assert!(notes.contains("Wayland session"), "{wayland}");
    let session = wayland["session"].as_array().unwrap();
    assert!(
        session
            .iter()
            .any(|v| v["name"] == "WAYLAND_DISPLAY" && v["value"] == "wayland-1")
    );

    // No bus: no desktop, and what to pass.
    let bus = [("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")];
    let (out, none) = doctor(&desktop, &[], &bus);
    assert_eq!(out.status.code(), Some(2), "{none}");
    assert!(
        none["missing"].as_str().unwrap().contains("/nonexistent"),
        "{none}"
    );
    assert!(
        none["pass"]
            .to_string()
            .contains("DBUS_SESSION_BUS_ADDRESS")
    );
}

/// On headless sway every rung is served by the compositor: input, screenshots and windows
/// through wlroots' protocols and sway's IPC.
#[test]
fn doctor_on_sway_names_the_compositor_for_each_rung() {
    let desktop = VirtualDesktop::start_sway().unwrap();
    let _fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (out, found) = doctor(&desktop, &["--display", ""], &[]);
    assert_eq!(out.status.code(), Some(0), "{found}");
    let wayland = desktop.wayland_display().unwrap();
    let reached = format!("Linux, Wayland {wayland} (sway)");
    assert_eq!(found["desktop"], reached.as_str(), "{found}");
    for name in ["input", "screenshots", "windows"] {
        assert_eq!(rung(&found, name), (true, reached.clone()), "{name}");
    }
    let apps = found["apps"].to_string();
    assert!(apps.contains(Fixture::Gtk3.app_name()), "{found}");
    assert!(found["notes"].to_string().contains("wlroots"), "{found}");
    assert!(found["pass"].to_string().contains("SWAYSOCK"), "{found}");
}

/// On headless GNOME Shell (unsafe mode) mutter serves input and the shell the windows and
/// screenshots; once the shell leaves unsafe mode, as a person's session runs, input stays
/// and the rest is missing with the reason.
#[test]
fn doctor_on_gnome_names_the_shell_and_what_its_safe_mode_keeps() {
    let desktop = VirtualDesktop::start_gnome().unwrap();
    let _fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (out, found) = doctor(&desktop, &["--display", ""], &[]);
    assert_eq!(out.status.code(), Some(0), "{found}");
    let reached = "Linux, Wayland on GNOME Shell";
    assert_eq!(found["desktop"], reached, "{found}");
    for name in ["input", "screenshots", "windows"] {
        assert_eq!(rung(&found, name), (true, reached.to_owned()), "{name}");
    }
    assert!(found["apps"].to_string().contains(Fixture::Gtk3.app_name()));
    assert!(found["notes"].to_string().contains("mutter"), "{found}");
    assert!(found["pass"].to_string().contains("XDG_CURRENT_DESKTOP"));

    desktop
        .gnome_eval("global.context.unsafe_mode = false")
        .expect("the shell leaves unsafe mode");
    let (out, safe) = doctor(&desktop, &["--display", ""], &[]);
    assert_eq!(out.status.code(), Some(1), "{safe}");
    let desktop_name = safe["desktop"].as_str().unwrap_or_default();
    assert!(desktop_name.contains("keys only"), "{safe}");
    assert!(rung(&safe, "input").0, "{safe}");
    for name in ["screenshots", "windows"] {
        let (served, detail) = rung(&safe, name);
        assert!(!served && detail.contains("unsafe mode"), "{name}: {safe}");
    }
}
