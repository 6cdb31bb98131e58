//! Which events each toolkit sends for which change, measured on the fixtures and on a page
//! in Firefox: after each change (made through the fixture's control channel, or by the
//! page's script when one of its buttons is pressed, not through deskpilot's reading), the
//! elements the app's events named, read and classified against what the change touched. The table in
//! `docs/events.md` is what this test prints; its assertions keep that table true.

#[path = "support/quiet.rs"]
mod support_quiet;

use std::time::Duration;

use deskpilot_core::model::{ElementId, Role};
use deskpilot_core::{
    Condition, ConnectTarget, Engine, Filter, NativeOp, Secrecy, Selector, SnapshotRequest, Target,
};
use deskpilot_linux::{LinuxOptions, linux_engine};
use deskpilot_testkit::{Fixture, FixtureApp, VirtualDesktop};
use serde_json::{Value, json};
use support_quiet::quiet;

/// What one change's events named.
#[derive(Debug, Default)]
struct Seen {
    events: u64,
    /// Role and name of every element named (afresh; gone ones as "gone").
    named: Vec<(Option<Role>, String)>,
}

impl Seen {
    fn names(&self, role: Role, name: &str) -> bool {
        self.named
            .iter()
            .any(|(r, n)| *r == Some(role) && n == name)
    }

    fn names_role(&self, role: Role) -> bool {
        self.named.iter().any(|(r, _)| *r == Some(role))
    }
}

/// What the app's events named while `act` ran (after it went quiet before and after), but
/// `besides` (the element pressed to make the change).
async fn observe(
    engine: &Engine,
    app: &ElementId,
    besides: Option<&ElementId>,
    act: impl std::future::Future<Output = ()>,
) -> Seen {
    let mut events = engine
        .backend()
        .events()
        .changes(app)
        .await
        .expect("events watched");
    quiet(&mut events).await;
    let mark = *events.borrow_and_update();
    act.await;
    if let Some(pressed) = besides {
        named_besides(engine, app, mark, pressed, &mut events).await;
    }
    quiet(&mut events).await;
    let now = *events.borrow();
    let named = engine
        .backend()
        .events()
        .named_since(app, mark)
        .await
        .unwrap_or_default();
    let mut seen = Seen {
        events: now - mark,
        named: Vec::new(),
    };
    for id in named.iter().filter(|id| Some(*id) != besides) {
        seen.named
            .push(match engine.backend().node(id, Secrecy::NoText).await {
                Ok(node) => (Some(node.role), node.name),
                Err(_) => (None, "gone".into()),
            });
    }
    seen
}

/// Until the app's events name an element other than `pressed` (at most 30 s): a page's
/// script makes its change after the press returned, later than a quiet spell on a busy
/// machine (the label's row once saw no event in CI).
async fn named_besides(
    engine: &Engine,
    app: &ElementId,
    mark: u64,
    pressed: &ElementId,
    events: &mut tokio::sync::watch::Receiver<u64>,
) {
    let until = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let named = engine.backend().events().named_since(app, mark).await;
        if named.unwrap_or_default().iter().any(|id| id != pressed) {
            return;
        }
        let changed = tokio::time::timeout_at(until, events.changed()).await;
        if !matches!(changed, Ok(Ok(()))) {
            return;
        }
    }
}

async fn change(
    engine: &Engine,
    app: &ElementId,
    fixture: &mut FixtureApp,
    cmd: &str,
    args: Value,
) -> Seen {
    observe(engine, app, None, async {
        fixture.run(cmd, args).unwrap();
    })
    .await
}

/// A page making the fixtures' changes from its own script, each when one of its buttons is
/// pressed.
const GECKO_PAGE: &str = concat!(
    r#"<!doctype html><html><head><meta charset="utf-8">
<title>deskpilot events</title></head><body>
<p id="delayed">Waiting</p>
<label>Name <input id="name" type="text"></label>
<div id="dynamic" role="group" aria-label="Dynamic box"></div>
<ul id="fruits" aria-label="Fruits"><li>Apple</li><li>Banana</li><li>Cherry</li><li>Date</li></ul>
<button onclick="document.getElementById('delayed').textContent = 'Measured'">Set label</button>
<button onclick="document.getElementById('name').value = 'Ada'">Set text</button>
<button onclick="add()">Add item</button>
<button onclick="removeItem()">Remove item</button>
<button onclick="reorder()">Reorder list</button>
<button onclick="openDialog()">Open dialog</button>
<script>
"#,
    include_str!("support/changes.js"),
    r#"function openDialog() {
  const d = document.createElement('div');
  d.setAttribute('role', 'dialog');
  d.setAttribute('aria-label', 'Confirm');
  d.textContent = 'Apply the changes?';
  document.body.appendChild(d);
}
</script></body></html>"#
);

/// A browser on the page, and the name its app registers under.
#[derive(Clone, Copy)]
enum Browser {
    Firefox,
    Chromium,
}

/// A browser's row: the same changes made by the page's script, each started by pressing a
/// page button from the measuring engine (a DoAction; the button's own events are left out).
async fn measure_page(browser: Browser) -> Vec<(&'static str, Seen)> {
    let desktop = VirtualDesktop::start().unwrap();
    let page = desktop.dir().join("events.html");
    std::fs::write(&page, GECKO_PAGE).unwrap();
    let url = format!("file://{}", page.display());
    let (_browser, name) = match browser {
        Browser::Firefox => (desktop.launch_firefox(&url).unwrap(), "Firefox"),
        Browser::Chromium => {
            let pages = deskpilot_testkit::ChromiumPages::Default;
            (desktop.launch_chromium(&url, pages).unwrap(), "Chromium")
        }
    };
    let options = LinuxOptions::new(desktop.session_bus_address(), None);
    let engine = linux_engine(options).await.unwrap().engine;
    let info = engine
        .connect(&ConnectTarget::AppName(name.into()))
        .await
        .unwrap();
    let button = |name: &str| {
        Target::Selector(Selector::parse(&format!("button[name=\"{name}\"]")).unwrap())
    };
    // The page's document arrives after the window.
    let handle = engine.session(&info.id).unwrap();
    handle
        .wait_for(
            &Selector::parse("button[name=\"Open dialog\"]").unwrap(),
            None,
            &Condition::Appears,
            Duration::from_secs(60),
        )
        .await
        .unwrap();
    let all = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    handle.snapshot(&all).await.unwrap();
    let app = info.app.id.clone();
    let mut rows = Vec::new();
    for (what, name) in [
        ("a label's text", "Set label"),
        ("a text field's text", "Set text"),
        ("a button added to a box", "Add item"),
        ("a button removed from a box", "Remove item"),
        ("a list rebuilt in another order", "Reorder list"),
        ("a dialog opened", "Open dialog"),
    ] {
        let pressed = handle.resolve(&button(name)).await.unwrap().node.id;
        let seen = observe(&engine, &app, Some(&pressed), async {
            engine
                .backend()
                .perform(&pressed, &NativeOp::Press)
                .await
                .unwrap();
        })
        .await;
        handle.snapshot(&all).await.unwrap();
        rows.push((what, seen));
    }
    rows
}

/// The table row of one toolkit: each change and what its events named.
async fn measure(kind: Fixture) -> Vec<(&'static str, Seen)> {
    let desktop = VirtualDesktop::start().unwrap();
    let mut fixture = desktop.launch_fixture(kind).unwrap();
    let options = LinuxOptions::new(desktop.session_bus_address(), None);
    let engine = linux_engine(options).await.unwrap().engine;
    let info = engine
        .connect(&ConnectTarget::WindowTitle(kind.window_title().into()))
        .await
        .unwrap();
    // Read everything once: toolkits make objects when first read, and only those send.
    let all = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let handle = engine.session(&info.id).unwrap();
    handle.snapshot(&all).await.unwrap();
    let app = info.app.id.clone();
    let mut rows = Vec::new();
    let steps: [(&'static str, &str, Value); 6] = [
        ("a label's text", "set_label", json!({"text": "Measured"})),
        (
            "a text field's text",
            "set_text",
            json!({"widget": "name", "text": "Ada"}),
        ),
        ("a button added to a box", "add_item", json!({})),
        ("a button removed from a box", "remove_item", json!({})),
        ("a list rebuilt in another order", "reorder_list", json!({})),
        ("a dialog opened", "open_dialog", json!({})),
    ];
    for (what, cmd, args) in steps {
        let seen = change(&engine, &app, &mut fixture, cmd, args).await;
        // The next change starts from a read tree, as a wait's look would.
        handle.snapshot(&all).await.unwrap();
        rows.push((what, seen));
    }
    rows
}

fn print(kind: &str, rows: &[(&str, Seen)]) {
    for (what, seen) in rows {
        let named: Vec<String> = seen
            .named
            .iter()
            .take(8)
            .map(|(role, name)| match role {
                Some(role) => format!("{role} {name:?}"),
                None => "gone".into(),
            })
            .collect();
        println!(
            "| {} | {what} | {} events | {}{} |",
            kind,
            seen.events,
            named.join(", "),
            if seen.named.len() > 8 { ", ..." } else { "" }
        );
    }
}

#[tokio::test]
async fn gtk3_events_per_change() {
    let rows = measure(Fixture::Gtk3).await;
    print(Fixture::Gtk3.name(), &rows);
    let [label, field, added, _removed, _list, dialog] = &rows[..] else {
        unreachable!()
    };
    assert!(label.1.names(Role::Label, "Measured"), "{label:?}");
    assert!(field.1.names_role(Role::TextBox), "{field:?}");
    // The new button names itself; its box is not named.
    assert!(added.1.names(Role::Button, "Dynamic 1"), "{added:?}");
    assert!(!added.1.names_role(Role::Generic), "{added:?}");
    assert!(dialog.1.names_role(Role::Dialog), "{dialog:?}");
}

#[tokio::test]
async fn gtk4_events_per_change() {
    let rows = measure(Fixture::Gtk4).await;
    print(Fixture::Gtk4.name(), &rows);
    let [label, field, added, _removed, list, dialog] = &rows[..] else {
        unreachable!()
    };
    assert!(label.1.names(Role::Label, "Measured"), "{label:?}");
    assert!(field.1.names(Role::TextBox, "Name"), "{field:?}");
    // GTK 4 names the box that gained a child, not the child.
    assert!(added.1.names_role(Role::Generic), "{added:?}");
    assert!(!added.1.names(Role::Button, "Dynamic 1"), "{added:?}");
    assert!(list.1.names_role(Role::List), "{list:?}");
    assert!(dialog.1.names_role(Role::Dialog), "{dialog:?}");
}

#[tokio::test]
async fn qt5_events_per_change() {
    qt_events_per_change(Fixture::Qt5).await;
}

#[tokio::test]
async fn qt6_events_per_change() {
    qt_events_per_change(Fixture::Qt6).await;
}

async fn qt_events_per_change(kind: Fixture) {
    let rows = measure(kind).await;
    print(kind.name(), &rows);
    let [label, field, added, _removed, list, dialog] = &rows[..] else {
        unreachable!()
    };
    assert!(label.1.names(Role::Label, "Measured"), "{label:?}");
    assert!(field.1.names(Role::TextBox, "Name"), "{field:?}");
    // Like GTK 3: the new button names itself, its box is not named.
    assert!(added.1.names(Role::Button, "Dynamic 1"), "{added:?}");
    assert!(!added.1.names_role(Role::Generic), "{added:?}");
    // A list widget cleared and filled again sends nothing at all.
    assert_eq!(list.1.events, 0, "{list:?}");
    assert!(dialog.1.names_role(Role::Dialog), "{dialog:?}");
}

#[tokio::test]
async fn gecko_events_per_change() {
    let rows = measure_page(Browser::Firefox).await;
    print("gecko", &rows);
    a_pages_events_name_its_containers(&rows);
}

#[tokio::test]
async fn chromium_events_per_change() {
    let rows = measure_page(Browser::Chromium).await;
    print("chromium", &rows);
    a_pages_events_name_its_containers(&rows);
}

/// Gecko and Chromium alike: like GTK 4, the box that gained or lost a child is named, not
/// the child; a dialog made of page content is named through the document that gained it.
fn a_pages_events_name_its_containers(rows: &[(&'static str, Seen)]) {
    let [label, field, added, removed, list, dialog] = rows else {
        unreachable!()
    };
    assert!(label.1.names_role(Role::Paragraph), "{label:?}");
    assert!(field.1.names(Role::TextBox, "Name"), "{field:?}");
    assert!(added.1.names(Role::Generic, "Dynamic box"), "{added:?}");
    assert!(!added.1.names(Role::Button, "Dynamic 1"), "{added:?}");
    assert!(removed.1.names(Role::Generic, "Dynamic box"), "{removed:?}");
    assert!(list.1.names(Role::List, "Fruits"), "{list:?}");
    assert!(dialog.1.names_role(Role::Document), "{dialog:?}");
}
