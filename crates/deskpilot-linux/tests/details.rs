//! Targeted reads on the real fixtures: read_table, read_text, hit_test, focus, properties.

use std::time::Duration;

use deskpilot_core::{ConnectTarget, Engine, Selector, Target};
use deskpilot_testkit::{Fixture, VirtualDesktop};
use serde_json::json;

async fn engine_on(desktop: &VirtualDesktop, fixture: Fixture) -> (Engine, String) {
    let options = deskpilot_linux::LinuxOptions::new(
        desktop.session_bus_address(),
        Some(desktop.display().to_owned()),
    );
    let engine = deskpilot_linux::linux_engine(options).await.unwrap().engine;
    let session = engine
        .connect(&ConnectTarget::WindowTitle(fixture.window_title().into()))
        .await
        .unwrap()
        .id;
    (engine, session)
}

fn sel(text: &str) -> Target {
    Target::Selector(Selector::parse(text).unwrap())
}

async fn reads_the_inventory_table(fixture: Fixture) {
    let desktop = VirtualDesktop::start().unwrap();
    let _app = desktop.launch_fixture(fixture).unwrap();
    let (engine, s) = engine_on(&desktop, fixture).await;
    let table = sel("table[name=Inventory]");
    let handle = engine.session(&s).unwrap();
    let first = handle.read_table(&table, 0, 3).await.unwrap();
    assert_eq!(first.slice.headers, ["Name", "Quantity", "Status"]);
    assert_eq!(first.slice.row_count, 200);
    assert_eq!(first.slice.rows[0], ["Item 001", "7", "Backorder"]);
    assert_eq!(first.next_row, Some(3));
    // A later page, far below what is on screen: headers repeated, rows read through the
    // Table interface.
    let last = handle.read_table(&table, 198, 10).await.unwrap();
    assert_eq!(last.slice.headers, ["Name", "Quantity", "Status"]);
    assert_eq!(last.slice.rows.len(), 2);
    assert_eq!(last.slice.rows[1][0], "Item 200");
    assert_eq!(last.next_row, None);
}

#[tokio::test]
async fn gtk3_read_table() {
    reads_the_inventory_table(Fixture::Gtk3).await;
}

#[tokio::test]
async fn qt5_read_table() {
    reads_the_inventory_table(Fixture::Qt5).await;
}

#[tokio::test]
async fn gtk3_read_text_pages_and_refuses_the_password() {
    let desktop = VirtualDesktop::start().unwrap();
    let mut app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    for (widget, text) in [("name", "Ada Lovelace"), ("password", "hunter2")] {
        app.command("set_text", json!({"widget": widget, "text": text}))
            .unwrap();
        app.oracle
            .wait_value(widget, "text", json!(text), Duration::from_secs(5))
            .unwrap();
    }
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let name = sel("textbox[name=Name]");
    let handle = engine.session(&s).unwrap();
    let page = handle.read_text(&name, 4, Some(8)).await.unwrap();
    assert_eq!(page.slice.text, "Lovelace");
    assert_eq!((page.slice.total, page.next_offset), (12, None));
    let head = handle.read_text(&name, 0, Some(3)).await.unwrap();
    assert_eq!(
        (head.slice.text.as_str(), head.next_offset),
        ("Ada", Some(3))
    );
    let refused = handle
        .read_text(&sel("password"), 0, None)
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("7 characters"),
        "{}",
        refused.message
    );
    assert!(!refused.message.contains("hunter2"));
}

/// Hit-testing the centre of the Count button finds it, on GTK3 and on GTK4 (whose
/// coordinates are window-relative on the wire).
async fn hit_test_finds_the_button(fixture: Fixture) {
    let desktop = VirtualDesktop::start().unwrap();
    let _app = desktop.launch_fixture(fixture).unwrap();
    let (engine, s) = engine_on(&desktop, fixture).await;
    let handle = engine.session(&s).unwrap();
    let count = handle.properties(&sel("button[name=Count]")).await.unwrap();
    let b = count.node.bounds.expect("bounds");
    let path = handle
        .hit_test(b.x + b.width / 2, b.y + b.height / 2)
        .await
        .unwrap();
    let deepest = path.last().expect("something is there");
    assert!(
        path.iter()
            .any(|m| m.name == "Count" && m.role == deskpilot_core::model::Role::Button),
        "{:?}",
        path.iter()
            .map(|m| (m.role, m.name.clone()))
            .collect::<Vec<_>>()
    );
    assert!(
        deepest
            .node
            .bounds
            .unwrap()
            .contains(b.x + b.width / 2, b.y + b.height / 2)
    );
    let focus = handle.focus().await.unwrap().expect("a focused element");
    assert_eq!(focus.name, "Count", "the fixture starts with Count focused");
}

#[tokio::test]
async fn gtk3_hit_test_and_focus() {
    hit_test_finds_the_button(Fixture::Gtk3).await;
}

#[tokio::test]
async fn gtk4_hit_test_and_focus() {
    hit_test_finds_the_button(Fixture::Gtk4).await;
}

#[tokio::test]
async fn gtk3_properties_include_attributes_and_id() {
    let desktop = VirtualDesktop::start().unwrap();
    let _app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (engine, s) = engine_on(&desktop, Fixture::Gtk3).await;
    let props = engine
        .session(&s)
        .unwrap()
        .properties(&sel("[id=counter]"))
        .await
        .unwrap();
    assert_eq!(props.node.name, "Count");
    assert_eq!(props.node.accessible_id.as_deref(), Some("counter"));
    assert!(props.node.actions.contains(&"click".to_owned()));
    assert!(
        !props.node.attributes.is_empty(),
        "GTK3 reports toolkit attributes"
    );
}
