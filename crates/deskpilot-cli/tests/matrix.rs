//! The action-support matrix: toolkit x widget x action, each row judged by the fixture's own
//! oracle (its JSON state lines), never by deskpilot's report. A row is `delivered` (the
//! oracle saw the effect), `refused` (refused with exactly the designed code) or `FAILED`;
//! a row where deskpilot says `confirmed` and the oracle disagrees is a `LIE` and fails the
//! test. `cargo xtask matrix` prints the tables written to target/matrix/.

#[path = "support/display_rungs.rs"]
mod display_rungs;
#[path = "support/engine.rs"]
mod support_engine;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use deskpilot_core::{
    Action, ActionReport, Choice, Chord, Code, ConnectTarget, Effect, Engine, MouseButton, OnOff,
    Selector, Target, ValueInput,
};
use deskpilot_linux::headless::DisplayServer;
use deskpilot_testkit::{DesktopOptions, Fixture, Oracle, VirtualDesktop};
use serde_json::{Value, json};
use support_engine::engine_on;

/// How long the oracle gets to report an effect.
const ORACLE_WAIT: Duration = Duration::from_secs(4);

/// What a row should produce.
enum Outcome {
    /// The oracle reports `widget`.`prop` = `value`.
    Oracle(&'static str, &'static str, Value),
    /// Refused with this code.
    Refused(Code),
    /// Nothing may happen (the oracle stays silent about `widget`.`prop`), and the report
    /// must not claim an effect: where a toolkit cannot tell deskpilot that a control is
    /// disabled (GTK 4.8 reports no `enabled` state), the click is sent and reported as
    /// unverified, never as confirmed.
    Nothing(&'static str, &'static str),
}

struct Row {
    widget: &'static str,
    /// Actions done in order (element selector, action); the oracle judges the last.
    steps: Vec<(&'static str, Action)>,
    outcome: Outcome,
}

fn row(widget: &'static str, selector: &'static str, action: Action, outcome: Outcome) -> Row {
    Row {
        widget,
        steps: vec![(selector, action)],
        outcome,
    }
}

fn click() -> Action {
    Action::Click {
        button: MouseButton::Left,
        double: false,
    }
}

fn text(value: &str) -> Action {
    Action::SetValue(ValueInput::Text(value.into()))
}

fn choose(choice: Choice) -> Action {
    Action::SelectOption(choice)
}

fn number(value: f64) -> Action {
    Action::SetValue(ValueInput::Number(value))
}

fn oracle(widget: &'static str, prop: &'static str, value: Value) -> Outcome {
    Outcome::Oracle(widget, prop, value)
}

/// The rows every fixture shares (same widgets, same oracle vocabulary).
fn common_rows() -> Vec<Row> {
    vec![
        row(
            "button",
            "button[name=Count]",
            click(),
            oracle("counter", "clicks", json!(1)),
        ),
        row(
            "button (double click)",
            "button[name=Count]",
            Action::Click {
                button: MouseButton::Left,
                double: true,
            },
            oracle("counter", "clicks", json!(3)),
        ),
        row(
            "toggle button",
            "[name=Bold]",
            Action::Toggle { ensure: None },
            oracle("toggle", "active", json!(true)),
        ),
        row(
            "check box",
            "checkbox[name*=notifications]",
            Action::Toggle {
                ensure: Some(OnOff::On),
            },
            oracle("check", "checked", json!(true)),
        ),
        row(
            "check box",
            "checkbox[name*=notifications]",
            Action::Toggle {
                ensure: Some(OnOff::Off),
            },
            oracle("check", "checked", json!(false)),
        ),
        row(
            "check box (click)",
            "checkbox[name*=notifications]",
            click(),
            oracle("check", "checked", json!(true)),
        ),
        row(
            "radio",
            "radio[name=Large]",
            click(),
            oracle("size", "selected", json!("Large")),
        ),
        row(
            "entry",
            "textbox[name=Name]",
            text("Ada"),
            oracle("name", "text", json!("Ada")),
        ),
        row(
            "entry (typing)",
            "textbox[name=Name]",
            Action::TypeText(" Lovelace é€".into()),
            oracle("name", "text", json!("Ada Lovelace é€")),
        ),
        row(
            "entry (key)",
            "textbox[name=Name]",
            Action::PressKey("BackSpace".parse::<Chord>().unwrap()),
            oracle("name", "text", json!("Ada Lovelace é")),
        ),
        row(
            "password (typing)",
            "password",
            Action::TypeText("s3cret".into()),
            oracle("password", "length", json!(6)),
        ),
        row(
            "password",
            "password",
            text("hunter2"),
            oracle("password", "length", json!(7)),
        ),
        row(
            "spin button",
            "spinbutton[name=Quantity]",
            number(7.0),
            oracle("quantity", "value", json!(7.0)),
        ),
        row(
            "spin button (a number as text)",
            "spinbutton[name=Quantity]",
            text("9"),
            oracle("quantity", "value", json!(9.0)),
        ),
        row(
            "spin button (out of range)",
            "spinbutton[name=Quantity]",
            number(500.0),
            Outcome::Refused(Code::ValueClamped),
        ),
        row(
            "slider",
            "slider[name=Volume]",
            number(30.0),
            oracle("volume", "value", json!(30.0)),
        ),
        row(
            "list row",
            "listitem[name=Cherry]",
            Action::Select,
            oracle("fruits", "selected", json!("Cherry")),
        ),
        row(
            "tab",
            "tab[name=Advanced]",
            Action::Select,
            oracle("tabs", "page", json!("Advanced")),
        ),
        row(
            "combo box",
            "combobox",
            choose(Choice::Name("Green".into())),
            oracle("color", "selected", json!("Green")),
        ),
        row(
            "combo box (by place)",
            "combobox",
            choose(Choice::Index(2)),
            oracle("color", "selected", json!("Blue")),
        ),
        row(
            "combo box option (select)",
            "combobox >> [name=Red]",
            Action::Select,
            oracle("color", "selected", json!("Red")),
        ),
        row(
            "disabled button",
            "button[name=Locked]",
            click(),
            Outcome::Refused(Code::Disabled),
        ),
        row(
            "dialog opener",
            "button[name*=\"Open dialog\"]",
            click(),
            oracle("dialog", "open", json!(true)),
        ),
        row(
            "dialog button",
            "dialog >> button[name=OK]",
            click(),
            oracle("dialog", "response", json!("ok")),
        ),
    ]
}

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

/// Waits for an oracle event after the first `seen` events.
fn oracle_saw(oracle: &Oracle, seen: usize, widget: &str, prop: &str, value: &Value) -> bool {
    let deadline = Instant::now() + ORACLE_WAIT;
    loop {
        let events = oracle.events().unwrap_or_default();
        if events
            .iter()
            .skip(seen)
            .any(|e| e.is(widget, prop) && &e.value == value)
        {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether any `widget`.`prop` event came after the first `seen` (waits the full time).
fn oracle_saw_any(oracle: &Oracle, seen: usize, widget: &str, prop: &str) -> bool {
    let deadline = Instant::now() + Duration::from_millis(1500);
    loop {
        let events = oracle.events().unwrap_or_default();
        if events.iter().skip(seen).any(|e| e.is(widget, prop)) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One judged row.
struct Judged {
    widget: &'static str,
    verb: &'static str,
    route: String,
    effect: String,
    verdict: &'static str,
}

async fn run_rows(engine: &Engine, session: &str, oracle: &Oracle, rows: Vec<Row>) -> Vec<Judged> {
    let mut judged = Vec::new();
    for row in rows {
        let seen = oracle.events().unwrap_or_default().len();
        let mut result = Err(deskpilot_core::Error::new(Code::Backend, "no steps", ""));
        for (selector, action) in &row.steps {
            result = engine
                .session(session)
                .unwrap()
                .act(&by(selector), action)
                .await;
            if result.is_err() {
                break;
            }
        }
        let verb = row.steps.last().map_or("-", |(_, a)| a.verb());
        let (route, effect) = match &result {
            Ok(report) => (
                route_of(report),
                format!("{:?}", report.effect).to_lowercase(),
            ),
            Err(e) => ("-".into(), format!("refused {}", e.code.name())),
        };
        let verdict = match (&row.outcome, &result) {
            (Outcome::Oracle(widget, prop, value), Ok(report)) => {
                let saw = oracle_saw(oracle, seen, widget, prop, value);
                match (saw, report.effect) {
                    (true, _) => "delivered",
                    (false, Effect::Confirmed) => "LIE",
                    (false, _) => "FAILED",
                }
            }
            (Outcome::Oracle(..), Err(_)) => "FAILED",
            (Outcome::Refused(code), Err(e)) if e.code == *code => "refused",
            (Outcome::Refused(_), _) => "FAILED",
            (Outcome::Nothing(widget, prop), _) => {
                let claimed = matches!(&result, Ok(r) if r.effect == Effect::Confirmed);
                let happened = oracle_saw_any(oracle, seen, widget, prop);
                match (happened, claimed) {
                    (false, false) => "refused",
                    (true, _) => "FAILED",
                    (false, true) => "LIE",
                }
            }
        };
        if verdict != "delivered" && verdict != "refused" {
            eprintln!(
                "row {} {verb}: {verdict}: {}",
                row.widget,
                match &result {
                    Ok(report) => deskpilot_core::present::action(report),
                    Err(e) => format!("{e:?}"),
                }
            );
        }
        judged.push(Judged {
            widget: row.widget,
            verb,
            route,
            effect,
            verdict,
        });
    }
    judged
}

fn route_of(report: &ActionReport) -> String {
    report
        .route
        .as_ref()
        .map(|r| deskpilot_core::act::rung_name(r.rung).to_owned())
        .unwrap_or_else(|| "none".into())
}

/// Writes and prints one toolkit's table; fails on any row that is neither delivered nor
/// refused as designed.
fn report_table(toolkit: &str, judged: &[Judged]) {
    let mut table = format!(
        "## {toolkit}\n\n| widget | action | route | effect | verdict |\n|---|---|---|---|---|\n"
    );
    for j in judged {
        writeln!(
            table,
            "| {} | {} | {} | {} | {} |",
            j.widget, j.verb, j.route, j.effect, j.verdict
        )
        .unwrap();
    }
    let delivered = judged.iter().filter(|j| j.verdict == "delivered").count();
    let refused = judged.iter().filter(|j| j.verdict == "refused").count();
    let failed = judged.len() - delivered - refused;
    let lies = judged.iter().filter(|j| j.verdict == "LIE").count();
    writeln!(
        table,
        "\n{toolkit}: {} rows, {delivered} delivered, {refused} refused as designed, {failed} failed ({lies} confirmed while the oracle disagreed)\n",
        judged.len()
    )
    .unwrap();
    println!("{table}");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/matrix");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{toolkit}.md")), &table).unwrap();
    assert_eq!(failed, 0, "{table}");
}

/// Runs the common rows (with `overrides`: widget -> selector, where a toolkit names or
/// shapes a widget differently) and `extra` (replacing a common row of the same widget) on a
/// fixture.
async fn fixture_matrix(fixture: Fixture, overrides: &[(&str, &'static str)], extra: Vec<Row>) {
    fixture_matrix_on(DisplayServer::Xvfb, fixture, overrides, extra).await
}

/// The same on a desktop whose display server is `server`; on sway the display server's own
/// rungs (drag, screenshot, activation) are rows too.
async fn fixture_matrix_on(
    server: DisplayServer,
    fixture: Fixture,
    overrides: &[(&str, &'static str)],
    extra: Vec<Row>,
) {
    let desktop = VirtualDesktop::start_with(DesktopOptions {
        server,
        ..DesktopOptions::default()
    })
    .unwrap();
    // The Qt fixture's checklist; the others take the flag and show none.
    let app = desktop
        .launch_fixture_with_args(fixture, &["--checklist"])
        .unwrap();
    let (_, engine) = engine_on(&desktop).await;
    let session = engine
        .connect(&ConnectTarget::WindowTitle(fixture.window_title().into()))
        .await
        .unwrap()
        .id;
    let mut rows = common_rows();
    for row in &mut rows {
        if let Some((_, selector)) = overrides.iter().find(|(w, _)| *w == row.widget) {
            for step in &mut row.steps {
                step.0 = selector;
            }
        }
    }
    for row in extra {
        // A toolkit's own version of a common row replaces it.
        match rows.iter().position(|r| r.widget == row.widget) {
            Some(i) => rows[i] = row,
            None => rows.push(row),
        }
    }
    let mut judged = run_rows(&engine, &session, &app.oracle, rows).await;
    let name = match server {
        DisplayServer::Xvfb => fixture.name().to_owned(),
        DisplayServer::Sway | DisplayServer::Gnome => {
            let handle = engine.session(&session).unwrap();
            let title = fixture.window_title();
            let (activation, minimize) = match server {
                DisplayServer::Gnome => (
                    display_rungs::activation_on_gnome(&handle, &desktop, title).await,
                    display_rungs::minimize_on_gnome(&handle, &desktop, title).await,
                ),
                _ => (
                    display_rungs::activation(&handle, &desktop, title).await,
                    display_rungs::minimize(&handle, &desktop, title).await,
                ),
            };
            let rungs = [
                display_rungs::drag_slider(&handle, &app.oracle).await,
                display_rungs::screenshot(&handle, &desktop, title).await,
                activation,
                minimize,
            ];
            judged.extend(rungs.into_iter().map(|r| Judged {
                widget: r.widget,
                verb: r.verb,
                route: r.route,
                effect: r.effect,
                verdict: r.verdict,
            }));
            let on = match server {
                DisplayServer::Gnome => "GNOME",
                _ => "sway",
            };
            format!("{} on {on}", fixture.name())
        }
    };
    report_table(&name, &judged);
}

#[tokio::test]
async fn gtk3() {
    fixture_matrix(Fixture::Gtk3, &[], gtk3_rows()).await;
}

/// The GTK 3 fixture native on headless sway: every input through the compositor's virtual
/// keyboard and pointer, a chord among them.
#[tokio::test]
async fn gtk3_on_sway() {
    let mut rows = gtk3_rows();
    rows.push(chord_then_typing("Zoë ✓"));
    fixture_matrix_on(DisplayServer::Sway, Fixture::Gtk3, &[], rows).await;
}

/// The name field's text replaced: ctrl+a, then `text` typed.
fn chord_then_typing(text: &'static str) -> Row {
    Row {
        widget: "entry (chord, then typing)",
        steps: vec![
            (
                "textbox[name=Name]",
                Action::PressKey("ctrl+a".parse::<Chord>().unwrap()),
            ),
            ("textbox[name=Name]", Action::TypeText(text.into())),
        ],
        outcome: oracle("name", "text", json!(text)),
    }
}

/// The GTK 3 fixture native on headless GNOME Shell: keys through mutter's remote desktop
/// session; a text with characters mutter's keymap lacks goes through the app's own text
/// interface.
#[tokio::test]
async fn gtk3_on_gnome() {
    let mut rows = gtk3_rows();
    rows.push(chord_then_typing("Zoe and 42"));
    fixture_matrix_on(DisplayServer::Gnome, Fixture::Gtk3, &[], rows).await;
}

/// The GTK 3 fixture's own rows.
fn gtk3_rows() -> Vec<Row> {
    vec![
        row(
            "tree row",
            "[name=Animals]",
            Action::Expand,
            oracle("tree", "expanded", json!("Animals")),
        ),
        row(
            "table row",
            "cell[name=\"Item 003\"]",
            Action::Select,
            oracle("table", "selected", json!("Item 003")),
        ),
        Row {
            widget: "menu: File, then Open",
            steps: vec![
                ("menu[name=File]", click()),
                ("menuitem[name=Open]", click()),
            ],
            outcome: oracle("menu.file.open", "activated", json!(true)),
        },
    ]
}

/// GTK 4.8: the toggle button is a plain `button` (its label child has the same name), and
/// notebook tabs are all named "Tab".
const GTK4_OVERRIDES: &[(&str, &str)] = &[
    ("toggle button", "button[name=Bold]"),
    ("tab", "tab:nth(1)"),
];

#[tokio::test]
async fn gtk4() {
    fixture_matrix(Fixture::Gtk4, GTK4_OVERRIDES, gtk4_rows()).await;
}

/// The GTK 4 fixture native on headless sway.
#[tokio::test]
async fn gtk4_on_sway() {
    fixture_matrix_on(
        DisplayServer::Sway,
        Fixture::Gtk4,
        GTK4_OVERRIDES,
        gtk4_rows(),
    )
    .await;
}

/// The GTK 4 fixture native on headless GNOME Shell.
#[tokio::test]
async fn gtk4_on_gnome() {
    fixture_matrix_on(
        DisplayServer::Gnome,
        Fixture::Gtk4,
        GTK4_OVERRIDES,
        gtk4_rows(),
    )
    .await;
}

/// The GTK 4 fixture's own rows. GTK 4.8 reports no `enabled` state: the click is sent and
/// must not be claimed.
fn gtk4_rows() -> Vec<Row> {
    vec![
        Row {
            widget: "menu: File, then Open",
            steps: vec![
                ("menuitem[name=File]", click()),
                ("menuitem[name=Open]", click()),
            ],
            outcome: oracle("menu.file.open", "activated", json!(true)),
        },
        row(
            "disabled button",
            "button[name=Locked]",
            click(),
            Outcome::Nothing("locked", "clicked"),
        ),
        // GTK 4.8's combo box exposes no options: chosen by place only.
        row(
            "combo box",
            "combobox",
            choose(Choice::Index(1)),
            oracle("color", "selected", json!("Green")),
        ),
        row(
            "combo box option (select)",
            "combobox >> [name=Red]",
            Action::Select,
            Outcome::Refused(Code::NotFound),
        ),
    ]
}

#[tokio::test]
async fn qt5() {
    fixture_matrix(Fixture::Qt5, &[], qt5_rows()).await;
}

/// The Qt 5 fixture native on headless sway (`QT_QPA_PLATFORM=wayland`, qtwayland5).
#[tokio::test]
async fn qt5_on_sway() {
    fixture_matrix_on(DisplayServer::Sway, Fixture::Qt5, &[], qt5_rows()).await;
}

/// The Qt 5 fixture's own rows.
fn qt5_rows() -> Vec<Row> {
    let check = |on| Action::Toggle {
        ensure: Some(if on { OnOff::On } else { OnOff::Off }),
    };
    vec![
        Row {
            widget: "menu: File, then Open",
            steps: vec![
                ("menuitem[name=File]", click()),
                ("menuitem[name=Open]", click()),
            ],
            outcome: oracle("menu.file.open", "activated", json!(true)),
        },
        // kdialog's checklist: an item's on/off is its selection in a multi-selection list.
        Row {
            widget: "checklist (multi-selection)",
            steps: vec![
                ("listitem[name=Olives]", check(true)),
                ("listitem[name=Basil]", check(true)),
                ("listitem[name=Olives]", check(false)),
            ],
            outcome: oracle("toppings", "selected", json!(["Basil"])),
        },
    ]
}

/// LibreOffice Writer: type a paragraph into a new document, judged by reading the
/// paragraph's text back afresh (Writer has no oracle of its own).
#[tokio::test]
async fn writer() {
    let desktop = VirtualDesktop::start().unwrap();
    let _writer = desktop.launch_libreoffice(&["--writer"], None).unwrap();
    let (_, engine) = engine_on(&desktop).await;
    let deadline = Instant::now() + Duration::from_secs(90);
    let title = loop {
        let apps = engine.apps().await.unwrap_or_default();
        if let Some(w) = apps
            .iter()
            .flat_map(|a| &a.windows)
            .find(|w| w.title.contains("LibreOffice Writer"))
        {
            break w.title.clone();
        }
        assert!(
            Instant::now() < deadline,
            "Writer showed no window: {apps:#?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let session = engine
        .connect(&ConnectTarget::WindowTitle(title))
        .await
        .unwrap()
        .id;
    let typed = "Typed by deskpilot: ünïcode ✓";
    let paragraph = by("paragraph:nth(0)");
    let handle = engine.session(&session).unwrap();
    let result = handle
        .act(&paragraph, &Action::TypeText(typed.into()))
        .await;
    let read = handle
        .read_text(&paragraph, 0, None)
        .await
        .map(|r| r.slice.text)
        .unwrap_or_default();
    let verdict = match &result {
        Ok(_) if read.contains(typed) => "delivered",
        Ok(report) if report.effect == Effect::Confirmed => "LIE",
        _ => "FAILED",
    };
    if verdict != "delivered" {
        eprintln!("writer: {verdict}: {result:?}; read back {read:?}");
    }
    let (route, effect) = match &result {
        Ok(report) => (
            route_of(report),
            format!("{:?}", report.effect).to_lowercase(),
        ),
        Err(e) => ("-".into(), format!("refused {}", e.code.name())),
    };
    report_table(
        "writer",
        &[Judged {
            widget: "document paragraph",
            verb: "type_text",
            route,
            effect,
            verdict,
        }],
    );
}
