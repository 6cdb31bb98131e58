//! A wait woken by the app's events reads only what the events named, with its ancestors
//! (the targeted look), and that look sees what a full look would: a field's text (it was
//! read as if inside a password field, so a `value` selector never matched), and a
//! LibreOffice Writer paragraph whose `Parent` chain never reaches its window (it is followed
//! the way the last walk found it). The change is made by another client each time: the
//! fixture's control channel, pyatspi in Writer (which reads its text back).

#[path = "support/quiet.rs"]
mod support_quiet;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

use deskpilot_core::{Condition, ConnectTarget, Engine, Filter, Selector, SnapshotRequest};
use deskpilot_linux::{LinuxOptions, linux_engine};
use deskpilot_testkit::{Fixture, SYSTEM_PYTHON, VirtualDesktop, fixtures_dir};
use serde_json::json;

async fn engine(desktop: &VirtualDesktop) -> Engine {
    let options = LinuxOptions::new(desktop.session_bus_address(), None);
    linux_engine(options).await.unwrap().engine
}

/// Reads the session's whole tree once, then until the app's own events from that are over.
async fn read_and_settle(engine: &Engine, session: &str) {
    let all = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let handle = engine.session(session).unwrap();
    handle.snapshot(&all).await.unwrap();
    let app = handle.info().unwrap().app.id;
    let mut events = engine.backend().events().changes(&app).await.unwrap();
    support_quiet::quiet(&mut events).await;
}

#[tokio::test]
async fn gtk3_a_targeted_look_reads_a_fields_text() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let engine = engine(&desktop).await;
    let s = engine
        .connect(&ConnectTarget::WindowTitle(
            Fixture::Gtk3.window_title().into(),
        ))
        .await
        .unwrap()
        .id;
    read_and_settle(&engine, &s).await;
    let selector = Selector::parse("textbox[value=\"Targeted text\"]").unwrap();
    let handle = engine.session(&s).unwrap();
    let wait = handle.wait_for(
        &selector,
        None,
        &Condition::Appears,
        Duration::from_secs(10),
    );
    let change = async {
        // After the wait's first look, while it sleeps.
        tokio::time::sleep(Duration::from_millis(600)).await;
        fixture
            .command(
                "set_text",
                json!({"widget": "name", "text": "Targeted text"}),
            )
            .unwrap();
    };
    let (outcome, ()) = tokio::join!(wait, change);
    let outcome = outcome.unwrap();
    assert_eq!(outcome.wakes.targeted, 1, "{outcome:?}");
    assert_eq!(
        fixture.oracle.last("name", "text").unwrap(),
        Some(json!("Targeted text"))
    );
}

#[tokio::test]
async fn writer_a_targeted_look_follows_a_paragraph_up_to_its_window() {
    let desktop = VirtualDesktop::start().unwrap();
    let doc = desktop.dir().join("targeted.txt");
    std::fs::write(&doc, "First line of the document.\nSecond line.\n").unwrap();
    let _writer = desktop
        .launch_libreoffice(&["--writer", doc.to_str().unwrap()], None)
        .unwrap();
    let engine = engine(&desktop).await;
    // The document's window comes after LibreOffice registers.
    let deadline = Instant::now() + Duration::from_secs(60);
    let info = loop {
        match engine
            .connect(&ConnectTarget::WindowTitle("targeted".into()))
            .await
        {
            Ok(info) => break info,
            Err(e) => assert!(Instant::now() < deadline, "{e}"),
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    read_and_settle(&engine, &info.id).await;
    let mut pyatspi = desktop
        .command(SYSTEM_PYTHON)
        .arg(fixtures_dir().join("pyatspi_insert.py"))
        .args([info.app.name.as_str(), "--each-line"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(pyatspi.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "ready");
    read_and_settle(&engine, &info.id).await;
    let selector = Selector::parse("paragraph[value*=\"Marker\"]").unwrap();
    let handle = engine.session(&info.id).unwrap();
    let wait = handle.wait_for(
        &selector,
        None,
        &Condition::Appears,
        Duration::from_secs(10),
    );
    let mut stdin = pyatspi.stdin.take().unwrap();
    let change = async {
        tokio::time::sleep(Duration::from_millis(600)).await;
        writeln!(stdin, "Marker ").unwrap();
    };
    let (outcome, ()) = tokio::join!(wait, change);
    let outcome = outcome.unwrap();
    drop(stdin);
    // pyatspi's insertion returned (it prints the time then).
    assert!(lines.next().unwrap().is_ok());
    assert!(pyatspi.wait().unwrap().success());
    assert_eq!(outcome.wakes.targeted, 1, "{outcome:?}");
    let element = outcome.element.expect("the paragraph");
    assert!(
        format!("{:?}", element.node.value).contains("Marker First line"),
        "{element:?}"
    );
}
