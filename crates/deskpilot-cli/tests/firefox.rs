//! Debian's Firefox ESR, fresh profile, a page of accents, CJK and emoji with a form: deskpilot
//! reads and acts on it again and again and the browser survives; what the page submits (to a
//! loopback server, not what deskpilot reports) judges the text deskpilot put in.

#[path = "support/engine.rs"]
mod support_engine;

use std::time::Duration;

use deskpilot_atspi::AtspiBackend;
use deskpilot_core::{Action, Engine, MouseButton, OnOff, Selector, SnapshotRequest, Target};
use deskpilot_testkit::{App, FormReceiver, VirtualDesktop};
use support_engine::{engine_on, session_on_page};

const PAGE: &str = r#"<!doctype html><html><head><meta charset="utf-8"><title>Café 東京 😀</title></head>
<body><h1>Zoë’s café — 東京 — 😀🇨🇭</h1>
<p>Ünïcödé text, 中文, 日本語, 한국어, emoji 👍🏽 and a flag 🇫🇷, 𝄞 music.</p>
<form method="post" action="ACTION">
<label for="city">City</label> <input id="city" name="city" type="text">
<label><input type="checkbox" name="agree"> I agree — 同意</label>
<button type="submit">Send ✓</button>
</form></body></html>"#;

struct Browser {
    desktop: VirtualDesktop,
    firefox: App,
    receiver: FormReceiver,
    backend: std::sync::Arc<AtspiBackend>,
    engine: Engine,
    session: String,
}

async fn browser() -> Browser {
    let desktop = VirtualDesktop::start().unwrap();
    let receiver = FormReceiver::start().unwrap();
    let page = desktop.dir().join("form.html");
    std::fs::write(&page, PAGE.replace("ACTION", &receiver.url("/submit"))).unwrap();
    let firefox = desktop
        .launch_firefox(&format!("file://{}", page.display()))
        .unwrap();
    let (backend, engine) = engine_on(&desktop).await;
    let session = session_on_page(&engine, "Firefox", "textbox[name=City]").await;
    Browser {
        desktop,
        firefox,
        receiver,
        backend,
        engine,
        session,
    }
}

fn selector(text: &str) -> Selector {
    Selector::parse(text).unwrap()
}

fn target(text: &str) -> Target {
    Target::Selector(selector(text))
}

impl Browser {
    fn bus_name(&self) -> String {
        self.firefox.registration().unwrap().bus_name.clone()
    }

    /// Clicks the page's Send button and returns what the loopback server received.
    async fn submit(&self) -> deskpilot_testkit::SubmittedForm {
        self.engine
            .session(&self.session)
            .unwrap()
            .act(
                &target("button[name*=Send]"),
                &Action::Click {
                    button: MouseButton::Left,
                    double: false,
                },
            )
            .await
            .unwrap();
        self.receiver
            .next_form(Duration::from_secs(20))
            .expect("the form was not submitted")
    }

    fn assert_alive(&mut self, after: &str) {
        assert!(
            self.firefox.is_running(),
            "Firefox died after {after}: {}",
            self.firefox.stderr_tail(20)
        );
    }
}

/// Gecko returns every action string from one static buffer: atk-bridge's `GetActions` sent
/// a freed pointer (libdbus aborted Firefox on the invalid UTF-8, 4 of 5 form tasks). Reads,
/// finds and actions, five rounds, on non-ASCII text: Firefox stays alive, and deskpilot never
/// asked it `GetActions` (while it did read action names, one `GetName` each).
#[tokio::test]
async fn firefox_survives_reading_and_acting_on_non_ascii_pages() {
    let mut b = browser().await;
    for round in 0..5 {
        let snapshot = b
            .engine
            .session(&b.session)
            .unwrap()
            .snapshot(&SnapshotRequest::default())
            .await
            .unwrap();
        assert!(
            snapshot.rendered.text.contains("東京"),
            "round {round}: {}",
            snapshot.rendered.text
        );
        b.assert_alive("a snapshot");
        b.engine
            .session(&b.session)
            .unwrap()
            .find(&selector("button"), None, 50)
            .await
            .unwrap();
        b.engine
            .session(&b.session)
            .unwrap()
            .act(
                &target("textbox[name=City]"),
                &Action::TypeText(format!("Zoë 東京 {round}").into()),
            )
            .await
            .unwrap();
        b.assert_alive("typing");
        let ensure = if round % 2 == 0 {
            OnOff::On
        } else {
            OnOff::Off
        };
        b.engine
            .session(&b.session)
            .unwrap()
            .act(
                &target("checkbox"),
                &Action::Toggle {
                    ensure: Some(ensure),
                },
            )
            .await
            .unwrap();
        b.assert_alive("a toggle");
    }
    let app = b.bus_name();
    assert_eq!(b.backend.sent_to(&app, "Action.GetActions"), 0);
    assert!(b.backend.sent_to(&app, "Action.GetName") > 0);
    // The form still works: the page sends what the oracle receives.
    let form = b.submit().await;
    assert_eq!(
        form.field("city"),
        Some("Zoë 東京 0Zoë 東京 1Zoë 東京 2Zoë 東京 3Zoë 東京 4")
    );
    assert_eq!(form.field("agree"), Some("on"));
    b.assert_alive("submitting");
    drop(b.engine);
    b.desktop.stop().unwrap();
}

/// Gecko counts text in UTF-16 units and marks the second unit of a character outside the BMP
/// with U+FEFF in what it shows AT-SPI: typed or set, "abc 😀x" and "Genève ⛰ 🇨🇭" must reach
/// the page whole (the loopback server's oracle) and be reported as they are, confirmed.
#[tokio::test]
async fn firefox_text_outside_the_bmp_arrives_whole() {
    let mut b = browser().await;
    let handle = b.engine.session(&b.session).unwrap();
    let typed = handle
        .act(
            &target("textbox[name=City]"),
            &Action::TypeText("abc 😀x 𝄞".into()),
        )
        .await
        .unwrap();
    eprintln!("typed: {}", deskpilot_core::present::action(&typed));
    assert_eq!(
        typed.effect,
        deskpilot_core::Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&typed)
    );
    let set = handle
        .act(
            &target("textbox[name=City]"),
            &Action::SetValue(deskpilot_core::ValueInput::Text("Genève ⛰ 🇨🇭 😀".into())),
        )
        .await
        .unwrap();
    eprintln!("set: {}", deskpilot_core::present::action(&set));
    assert_eq!(
        set.effect,
        deskpilot_core::Effect::Confirmed,
        "{}",
        deskpilot_core::present::action(&set)
    );
    assert!(
        !deskpilot_core::present::action(&set).contains('\u{feff}'),
        "{}",
        deskpilot_core::present::action(&set)
    );
    let form = b.submit().await;
    assert_eq!(form.field("city"), Some("Genève ⛰ 🇨🇭 😀"));
    b.assert_alive("typing outside the BMP");
    drop(b.engine);
    b.desktop.stop().unwrap();
}
