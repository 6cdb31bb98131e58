//! Typing on a real X display into the GTK3 fixture, judged by its oracle: the keys remapped
//! for characters the layout lacks are mapped back afterwards, typing cut short says how much
//! was sent and is never repeated, and two sessions acting at once never confirm each other's
//! effects.

#[path = "support/engine.rs"]
mod support_engine;

use std::time::Duration;

use deskpilot_core::{
    Action, ActionReport, Code, ConnectTarget, Effect, Engine, InputText, Selector, Target,
};
use deskpilot_testkit::{Fixture, FixtureApp, VirtualDesktop};
use serde_json::json;
use support_engine::{engine_on, engine_with_input};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::ConnectionExt;

const ORACLE_WAIT: Duration = Duration::from_secs(5);

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

async fn session(engine: &Engine, fixture: Fixture) -> String {
    engine
        .connect(&ConnectTarget::WindowTitle(fixture.window_title().into()))
        .await
        .unwrap()
        .id
}

/// Every keysym the X server's keyboard map holds now.
fn keysyms_mapped(display: &str) -> Vec<u32> {
    let (conn, _) = x11rb::connect(Some(display)).unwrap();
    let setup = conn.setup();
    let (min, max) = (setup.min_keycode, setup.max_keycode);
    conn.get_keyboard_mapping(min, max - min + 1)
        .unwrap()
        .reply()
        .unwrap()
        .keysyms
}

/// Characters the layout lacks are typed through spare keycodes remapped for them; once the
/// text is in, those keycodes map to nothing again, so a password's last characters cannot be
/// read from the server's keymap.
#[tokio::test]
async fn typed_keys_leave_the_keymap_as_it_was() {
    let desktop = VirtualDesktop::start().unwrap();
    let app: FixtureApp = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (_, engine) = engine_on(&desktop).await;
    let session = session(&engine, Fixture::Gtk3).await;
    let secret = "pw✓ж😀";
    // U+2713, U+0436 and U+1F600 as X keysyms (0x1000000 + code point).
    let keysyms = [0x100_2713, 0x100_0436, 0x101_f600];
    let before = keysyms_mapped(desktop.display());
    assert!(keysyms.iter().all(|k| !before.contains(k)));
    let report = engine
        .session(&session)
        .unwrap()
        .act(&by("password"), &Action::TypeText(InputText::plain(secret)))
        .await
        .unwrap();
    app.oracle
        .wait_value("password", "text", json!(secret), ORACLE_WAIT)
        .unwrap();
    assert_eq!(
        report.effect,
        Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&report)
    );
    let after = keysyms_mapped(desktop.display());
    for keysym in keysyms {
        assert!(
            !after.contains(&keysym),
            "keysym {keysym:#x} is still mapped after typing"
        );
    }
    drop(engine);
    desktop.stop().unwrap();
}

/// Typing that runs out of time stops between two characters, answers `input_incomplete`
/// (not retryable) with how many characters were sent, and nothing arrives after the answer:
/// the field holds exactly that many, once.
#[tokio::test]
async fn typing_cut_short_says_how_much_was_sent_and_sends_no_more() {
    let desktop = VirtualDesktop::start().unwrap();
    let app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let input = deskpilot_x11::X11Input::connect(desktop.display())
        .unwrap()
        .with_typing_budget(Duration::from_millis(60));
    let (_, engine) = engine_with_input(&desktop, input).await;
    let session = session(&engine, Fixture::Gtk3).await;
    let total = 3000;
    let error = engine
        .session(&session)
        .unwrap()
        .act(
            &by("textbox[name=Name]"),
            &Action::TypeText(InputText::plain("a".repeat(total))),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, Code::InputIncomplete, "{error:?}");
    assert!(!error.retryable());
    let sent: usize = error
        .message
        .split("after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {:?}", error.message));
    assert!(
        sent > 0 && sent < total,
        "{sent} of {total}: {}",
        error.message
    );
    assert!(
        error.message.contains(&format!("of {total}")),
        "{}",
        error.message
    );
    let typed = json!("a".repeat(sent));
    app.oracle
        .wait_value("name", "text", typed.clone(), ORACLE_WAIT)
        .unwrap();
    // Nothing more arrives.
    let more = app.oracle.wait_for(Duration::from_millis(700), |e| {
        e.is("name", "text") && e.value.as_str().is_some_and(|t| t.len() > sent)
    });
    assert!(
        more.is_err(),
        "more text arrived after the answer: {more:?}"
    );
    drop(engine);
    desktop.stop().unwrap();
}

/// The text value a report saw before and after (`value: "a" -> "ab"`).
fn value_change(report: &ActionReport) -> (String, String) {
    let line = report
        .changes
        .iter()
        .find_map(|c| c.strip_prefix("value: "))
        .unwrap_or_else(|| {
            panic!(
                "no value change in {}",
                deskpilot_core::present::action(report)
            )
        });
    let (before, after) = line.split_once(" -> ").unwrap();
    let unquote = |s: &str| serde_json::from_str::<String>(s).unwrap();
    (unquote(before), unquote(after))
}

/// Two sessions type into the same field at once: each report that says `confirmed` shows
/// exactly its own text added, and the field ends with both, each once.
#[tokio::test]
async fn two_sessions_acting_at_once_never_confirm_each_others_effects() {
    let desktop = VirtualDesktop::start().unwrap();
    let app = desktop.launch_fixture(Fixture::Gtk3).unwrap();
    let (_, engine) = engine_on(&desktop).await;
    let (one, two) = (
        session(&engine, Fixture::Gtk3).await,
        session(&engine, Fixture::Gtk3).await,
    );
    let field = by("textbox[name=Name]");
    let type_into = |session: String, text: &'static str| {
        let (engine, field) = (&engine, field.clone());
        async move {
            engine
                .session(&session)
                .unwrap()
                .act(&field, &Action::TypeText(InputText::plain(text)))
                .await
                .unwrap()
        }
    };
    let (first, second) = tokio::join!(type_into(one, "abc"), type_into(two, "xyz"));
    let final_text = app
        .oracle
        .wait_for(ORACLE_WAIT, |e| {
            e.is("name", "text") && e.value.as_str().is_some_and(|t| t.len() == 6)
        })
        .unwrap()
        .value;
    assert!(
        final_text == json!("abcxyz") || final_text == json!("xyzabc"),
        "{final_text}"
    );
    for (report, text) in [(&first, "abc"), (&second, "xyz")] {
        assert_eq!(
            report.effect,
            Effect::Confirmed,
            "{}",
            deskpilot_core::present::action(report)
        );
        let (before, after) = value_change(report);
        assert_eq!(
            after,
            format!("{before}{text}"),
            "{}",
            deskpilot_core::present::action(report)
        );
    }
    drop(engine);
    desktop.stop().unwrap();
}
