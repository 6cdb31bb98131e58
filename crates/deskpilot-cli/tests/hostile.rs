//! Hostile apps: an app that answers slowly, wrongly or not at all never hangs deskpilot,
//! never makes it act elsewhere and never makes another app wait. Oracles: the fixture's
//! own reports and a second AT-SPI client (pyatspi).

#[path = "support/agent.rs"]
mod agent;
#[path = "support/cli.rs"]
mod support_cli;

use std::time::Duration;

use agent::Agent;
use deskpilot_testkit::{Fixture, SYSTEM_PYTHON, VirtualDesktop, pyatspi_nodes};
use serde_json::json;
use support_cli::deskpilot;

/// What a read of the labels' box must show: its first labels, the box said partial, and
/// none of its last labels.
fn assert_read_in_part(text: &str) {
    assert!(text.contains("label \"Label 0\""), "{text}");
    assert!(text.contains("label \"Label 199\""), "{text}");
    assert!(text.contains("[200 of 9300 realized]"), "{text}");
    assert!(!text.contains("Label 9299"), "{text}");
}

/// A GTK 3 window whose one box holds 9,300 labels: GTK answers `Cache.GetItems` in about
/// 4 s and `GetChildren` on the box in about 3.5 s, answering nothing else meanwhile. A
/// snapshot answered `app_not_responding` after 1.5 s and showed no row. It waits for the
/// app to finish the one slow answer, reads the box's first 200 labels one by one, and says
/// the box is read in part; the app answers another client right after, and a click on it
/// is counted by the app. Through the CLI (a fresh process meets the slow answer) and the
/// server (twice: the second read never asks for the slow answer again).
#[test]
fn a_box_of_9300_labels_is_read_in_part_and_the_app_stays_free() {
    let desktop = VirtualDesktop::start().unwrap();
    let fixture = Fixture::HostileLabels;
    let labels = desktop.launch_fixture(fixture).unwrap();

    let out = deskpilot(
        &desktop,
        &["snapshot", "--filter", "all", fixture.window_title()],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_read_in_part(&text);
    let nodes = pyatspi_nodes(desktop.command(SYSTEM_PYTHON), fixture.app_name());
    assert!(
        nodes.iter().any(|n| n["name"] == "Label 0"),
        "a second client read: {nodes:?}"
    );

    let mut agent = Agent::start(&desktop);
    agent.connect(fixture.app_name());
    for _ in 0..2 {
        let shown = agent.ok("snapshot", json!({"filter": "all"}));
        assert_read_in_part(shown["content"][0]["text"].as_str().unwrap_or_default());
    }
    agent.ok("click", json!({"target": "button[name=Count]"}));
    labels
        .oracle
        .wait_value("counter", "clicks", json!(1), Duration::from_secs(10))
        .unwrap_or_else(|e| panic!("{e}:\n{}", agent.transcript()));
    desktop.stop().unwrap();
}
