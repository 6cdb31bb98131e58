//! The exports of a recorded agent session (deskpilot-cli's `tests/record_roundtrip.rs`
//! keeps each equal to a fresh export), each an ordinary test of this target. Each also
//! runs again here, alone, on a desktop of this file's own (`DESKPILOT_HEADED=1` points the
//! export at it), and an oracle that is not deskpilot judges what it did there. The
//! fixture's export runs on the fixture with its controls moved (it passes) and with its
//! checkbox renamed (it fails, naming the locator).

use std::process::Output;

use deskpilot_testkit::{Replayed, VirtualDesktop};

#[path = "exported/gnome_calculator.rs"]
mod gnome_calculator;
#[path = "exported/gtk3_fixture.rs"]
mod gtk3_fixture;
#[path = "exported/mousepad.rs"]
mod mousepad;

/// `app`'s exported test, alone, on `desktop`, from this crate's directory (as cargo runs
/// it).
fn replay(desktop: &VirtualDesktop, app: Replayed) -> Output {
    let mut command = desktop.command(std::env::current_exe().unwrap());
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command.args([&app.test_name(), "--exact", "--nocapture"]);
    command.env("DESKPILOT_HEADED", "1").output().unwrap()
}

fn said(out: &Output) -> String {
    let (stdout, stderr) = (&out.stdout, &out.stderr);
    let both = [stdout, stderr].map(|b| String::from_utf8_lossy(b).into_owned());
    both.join("\n")
}

/// Whether the run ran the one test and it passed.
fn passed(out: &Output) -> bool {
    out.status.success() && said(out).contains("1 passed")
}

#[test]
fn each_export_does_what_the_session_did() {
    for app in Replayed::ALL {
        let desktop = VirtualDesktop::start().unwrap();
        let out = replay(&desktop, app);
        assert!(passed(&out), "{app:?}: {}", said(&out));
        app.judge(&desktop)
            .unwrap_or_else(|e| panic!("{app:?}'s replay: {e}"));
    }
}

/// Its siblings in reverse order, an element inserted before each target: the export's
/// locators still find their elements.
#[test]
fn the_fixtures_export_survives_moved_controls() {
    let desktop = VirtualDesktop::start().unwrap();
    desktop.set_fixture_layout("moved").unwrap();
    let out = replay(&desktop, Replayed::Gtk3Fixture);
    assert!(passed(&out), "{}", said(&out));
    Replayed::Gtk3Fixture.judge(&desktop).unwrap();
}

/// The checkbox renamed (its id and its name): the export fails, and says which locator
/// found nothing.
#[test]
fn the_fixtures_export_fails_on_a_renamed_checkbox_naming_its_locator() {
    let desktop = VirtualDesktop::start().unwrap();
    desktop.set_fixture_layout("renamed").unwrap();
    let out = replay(&desktop, Replayed::Gtk3Fixture);
    let said = said(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains(r#"checkbox[name="Enable notifications"]: not visible"#),
        "{said}"
    );
}
