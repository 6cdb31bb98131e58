//! Choosing an option of a web `<select>` in one call, on Firefox ESR and Chromium: the calls
//! users make first (`select_option` on the combo box, `select` on an option of its closed
//! list, a click on the combo box then on the option) each make the page's `change` handler
//! post the new value to a loopback server, the oracle. One post per choice: the keys route
//! commits once, never the options on the way.

#[path = "support/engine.rs"]
mod support_engine;

use std::time::Duration;

use deskpilot_core::{Action, Choice, Effect, Engine, MouseButton, Selector, Target, present};
use deskpilot_testkit::{App, ChromiumPages, FormReceiver, VirtualDesktop};
use support_engine::{engine_on, session_on_page};

const PAGE: &str = r#"<!doctype html><html><head><meta charset="utf-8"><title>Sizes</title></head>
<body><form><label for="size">Size</label>
<select id="size" name="size"
  onchange="fetch('ACTION', {method: 'POST', mode: 'no-cors', body: new URLSearchParams({size: this.value})})">
<option>Small</option><option>Medium</option><option>Large</option></select>
<input type="text" name="note" aria-label="Note"></form></body></html>"#;

struct Page {
    desktop: VirtualDesktop,
    _browser: App,
    receiver: FormReceiver,
    engine: Engine,
    session: String,
}

enum Browser {
    Firefox,
    Chromium,
}

async fn page(browser: Browser) -> Page {
    let desktop = VirtualDesktop::start().unwrap();
    let receiver = FormReceiver::start().unwrap();
    let file = desktop.dir().join("sizes.html");
    std::fs::write(&file, PAGE.replace("ACTION", &receiver.url("/change"))).unwrap();
    let url = format!("file://{}", file.display());
    let (app, name) = match browser {
        Browser::Firefox => (desktop.launch_firefox(&url).unwrap(), "Firefox"),
        Browser::Chromium => (
            desktop
                .launch_chromium(&url, ChromiumPages::Default)
                .unwrap(),
            "Chromium",
        ),
    };
    let (_backend, engine) = engine_on(&desktop).await;
    let session = session_on_page(&engine, name, "combobox[name=Size]").await;
    Page {
        desktop,
        _browser: app,
        receiver,
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

const CLICK: Action = Action::Click {
    button: MouseButton::Left,
    double: false,
};

impl Page {
    /// Acts, as an agent's `act` does (waiting for the element to be actionable).
    async fn act(&self, on: &str, action: &Action) -> deskpilot_core::ActionReport {
        let report = self
            .engine
            .session(&self.session)
            .unwrap()
            .act_when_ready(&target(on), action, Duration::from_secs(2))
            .await
            .unwrap_or_else(|e| panic!("{} on {on}: {e}", action.verb()));
        eprintln!("{}", present::action(&report));
        report
    }

    /// The value the page posted for its next change, and that no other followed.
    fn posted(&self) -> String {
        let form = self
            .receiver
            .next_form(Duration::from_secs(10))
            .expect("the page posted no change");
        let value = form.field("size").unwrap().to_owned();
        assert!(
            self.receiver
                .next_form(Duration::from_millis(300))
                .is_none(),
            "more than one change was posted after {value}"
        );
        value
    }

    async fn choose_every_way(self) {
        // The verb on the combo box itself.
        let report = self
            .act(
                "combobox[name=Size]",
                &Action::SelectOption(Choice::Name("Large".into())),
            )
            .await;
        assert_eq!(report.effect, Effect::Confirmed);
        assert_eq!(self.posted(), "Large");
        // By place, from 0.
        let report = self
            .act(
                "combobox[name=Size]",
                &Action::SelectOption(Choice::Index(0)),
            )
            .await;
        assert_eq!(report.effect, Effect::Confirmed);
        assert_eq!(self.posted(), "Small");
        // `select` on an option of the closed list, in one call.
        let report = self
            .act(
                "combobox[name=Size] >> menuitem[name=Medium]",
                &Action::Select,
            )
            .await;
        assert_eq!(report.effect, Effect::Confirmed);
        assert!(
            report.note.as_deref().unwrap_or("").contains("combo box"),
            "{report:?}"
        );
        assert_eq!(self.posted(), "Medium");
        // A click on the combo box, then on the option.
        self.act("combobox[name=Size]", &CLICK).await;
        let report = self.act("menuitem[name=Large]", &CLICK).await;
        assert_ne!(report.effect, Effect::Noop);
        assert_eq!(self.posted(), "Large");
        // The option asked for already shows: nothing is sent, nothing posted.
        let report = self
            .act(
                "combobox[name=Size]",
                &Action::SelectOption(Choice::Name("Large".into())),
            )
            .await;
        assert!(report.route.is_none(), "{report:?}");
        assert!(
            self.receiver
                .next_form(Duration::from_millis(500))
                .is_none()
        );
        // No such option: refused with the options there are.
        let refused = self
            .engine
            .session(&self.session)
            .unwrap()
            .act_when_ready(
                &target("combobox[name=Size]"),
                &Action::SelectOption(Choice::Name("Huge".into())),
                Duration::from_secs(1),
            )
            .await
            .unwrap_err();
        assert_eq!(refused.code, deskpilot_core::Code::NotFound);
        assert!(
            refused.message.contains("\"Medium\""),
            "{}",
            refused.message
        );
        drop(self.engine);
        self.desktop.stop().unwrap();
    }
}

#[tokio::test]
async fn firefox_select_takes_one_call() {
    page(Browser::Firefox).await.choose_every_way().await;
}

#[tokio::test]
async fn chromium_select_takes_one_call() {
    page(Browser::Chromium).await.choose_every_way().await;
}
