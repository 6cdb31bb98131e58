//! The hostile AT-SPI app (`fixtures/hostile/fixture.py`) in each misbehaviour, read and acted
//! on with every tool through the engine as `deskpilot mcp` builds it, while a well-behaved
//! GTK 3 app is read at the same time. Every tool ends (a hang guard fails the test), answers
//! a result or a failure with a documented code, prints no app text unescaped, and no call to
//! the other app times out. Oracles: the fixture's own reports (presses, text set, calls it
//! was sent) and the backend's per-app timeout count. Each group shares one desktop.

#[path = "support/cli.rs"]
mod support_cli;
#[path = "support/engine.rs"]
mod support_engine;

use std::time::Duration;

use deskpilot_core::{
    Action, Code, ConnectTarget, Effect, Engine, InputText, MouseButton, Selector, SnapshotRequest,
    Target, ValueInput, present,
};
use deskpilot_core::{Condition, Filter};
use deskpilot_testkit::{Fixture, FixtureApp, VirtualDesktop};
use serde_json::json;
use support_cli::deskpilot;
use support_engine::engine_on;

/// No tool may take longer than this: past it, the test fails as a hang.
const HANG: Duration = Duration::from_secs(60);

/// What one tool answered, as the server and the CLI would print it.
struct Answer {
    tool: &'static str,
    text: String,
    code: Option<Code>,
}

async fn guarded<T>(
    tool: &'static str,
    op: impl Future<Output = Result<T, deskpilot_core::Error>>,
    show: impl Fn(&T) -> String,
) -> (Answer, Option<T>) {
    let result = tokio::time::timeout(HANG, op)
        .await
        .unwrap_or_else(|_| panic!("{tool} hung past {HANG:?}"));
    match result {
        Ok(value) => (
            Answer {
                tool,
                text: show(&value),
                code: None,
            },
            Some(value),
        ),
        Err(error) => (
            Answer {
                tool,
                text: present::failure(&error),
                code: Some(error.code),
            },
            None,
        ),
    }
}

fn selector(text: &str) -> Target {
    Target::Selector(Selector::parse(text).unwrap())
}

/// Every tool once on the hostile app's session.
async fn every_tool(engine: &Engine, session: &str, mode: &str) -> Vec<Answer> {
    let mut answers = Vec::new();
    let handle = engine.session(session).unwrap();
    let request = SnapshotRequest {
        filter: Filter::All,
        ..SnapshotRequest::default()
    };
    let (a, _) = guarded("snapshot", handle.snapshot(&request), |s| {
        present::snapshot(s).joined()
    })
    .await;
    answers.push(a);
    let labels = Selector::parse("label").unwrap();
    let (a, _) = guarded("find", handle.find(&labels, None, 50), present::find).await;
    answers.push(a);
    for target in ["[name=Trap] >> label", "[name=Level]"] {
        let (a, _) = guarded("properties", handle.properties(&selector(target)), |r| {
            format!("{} {:?}", r.reference, r.node.value)
        })
        .await;
        answers.push(a);
    }
    for target in ["[name=Field]", "[name=Trap] >> label"] {
        let target = selector(target);
        let read = handle.read_text(&target, 0, None);
        let (a, _) = guarded("read_text", read, |t| present::text_page(t).joined()).await;
        answers.push(a);
    }
    let trap = selector("[name=Trap]");
    let table = handle.read_table(&trap, 0, 10);
    let (a, _) = guarded("read_table", table, present::table).await;
    answers.push(a);
    let never = Selector::parse("label[name=Never]").unwrap();
    let wait = handle.wait_for(&never, None, &Condition::Appears, Duration::from_secs(2));
    let (a, _) = guarded("wait_for", wait, present::waited).await;
    answers.push(a);
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    for (target, action) in [
        ("[name=Press]", click.clone()),
        ("[name=Trap] >> button", click),
        (
            "[name=Field]",
            Action::SetValue(ValueInput::Text(InputText::plain(mode))),
        ),
        ("[name=Level]", Action::SetValue(ValueInput::Number(7.0))),
    ] {
        let resolved = selector(target);
        let act = handle.act(&resolved, &action);
        let (mut a, report) = guarded("act", act, present::action).await;
        if let Some(report) = report
            && target == "[name=Field]"
        {
            a.text
                .push_str(&format!("\n(field effect: {:?})", report.effect));
        }
        answers.push(a);
    }
    answers
}

/// No line of any answer carries a forged element or ref, or raw controls.
fn assert_nothing_forged(mode: &str, answers: &[Answer]) {
    for answer in answers {
        for line in answer.text.lines() {
            let line = line.trim_start();
            assert!(
                !line.starts_with("- button \"Delete all\"")
                    && !line.starts_with("- button \"Pay\""),
                "{mode}: {} printed a forged line: {line}",
                answer.tool
            );
            // Escaped, the forged names read `\"Delete all\" \[ref=e1\]` and `"\[ref=e1\]"`.
            for forged in ["\"Delete all\" [ref=", "\"Pay\" [ref=", "\"[ref=e1]\""] {
                assert!(
                    !line.contains(forged),
                    "{mode}: {} forged a ref: {line}",
                    answer.tool
                );
            }
            assert!(
                !line.contains(['\u{202e}', '\u{1b}', '\u{2028}']),
                "{mode}: {} printed raw controls: {line:?}",
                answer.tool
            );
        }
    }
}

/// The CLI's output and errors for `args`, against the desktop's bus and display.
fn cli(desktop: &VirtualDesktop, args: &[&str]) -> Answer {
    let out = deskpilot(desktop, args);
    Answer {
        tool: "cli",
        text: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        code: None,
    }
}

/// One hostile app and one GTK 3 app on a desktop, the engine connected to both.
struct Rig {
    desktop: VirtualDesktop,
    hostile: FixtureApp,
    other: FixtureApp,
    backend: std::sync::Arc<deskpilot_atspi::AtspiBackend>,
    engine: Engine,
    session: String,
    other_session: String,
    other_app: String,
}

impl Rig {
    async fn start() -> Rig {
        let desktop = VirtualDesktop::start().unwrap();
        let hostile = desktop.launch_fixture(Fixture::HostileAtspi).unwrap();
        let other = desktop.launch_fixture(Fixture::Gtk3).unwrap();
        let (backend, engine) = engine_on(&desktop).await;
        let connect = |name: &str| ConnectTarget::AppName(name.into());
        let session = engine
            .connect(&connect(Fixture::HostileAtspi.app_name()))
            .await
            .unwrap();
        let other_session = engine
            .connect(&connect(Fixture::Gtk3.app_name()))
            .await
            .unwrap();
        Rig {
            desktop,
            hostile,
            other,
            backend,
            engine,
            session: session.id,
            other_app: other_session.app.id.app.clone(),
            other_session: other_session.id,
        }
    }

    /// Runs every tool on the hostile app in `mode` while the other app is read; checks
    /// what every misbehaviour must keep, and gives the answers.
    async fn misbehave(&mut self, mode: &str) -> Vec<Answer> {
        self.hostile.run("mode", json!({ "mode": mode })).unwrap();
        self.hostile.run("calls", json!({})).unwrap();
        let calls_before = self.calls();
        let timeouts_before = self.backend.timeouts_of(&self.other_app);
        let other = async {
            let mut reads = 0;
            for _ in 0..3 {
                let request = SnapshotRequest::default();
                let read = self
                    .engine
                    .session(&self.other_session)
                    .unwrap()
                    .snapshot(&request)
                    .await;
                let read = read.unwrap_or_else(|e| panic!("{mode}: the other app: {e}"));
                assert!(read.truncated.is_none(), "{mode}: the other app cut short");
                reads += 1;
            }
            reads
        };
        let (answers, reads) = tokio::join!(every_tool(&self.engine, &self.session, mode), other);
        assert_eq!(reads, 3);
        assert_eq!(
            self.backend.timeouts_of(&self.other_app) - timeouts_before,
            0,
            "{mode}: a call to the other app timed out"
        );
        self.hostile.run("calls", json!({})).unwrap();
        let calls = self.calls() - calls_before;
        for answer in &answers {
            println!(
                "{mode} {} {:?}: {}",
                answer.tool,
                answer.code,
                answer.text.lines().next().unwrap_or_default()
            );
        }
        println!("{mode}: {calls} calls to the hostile app");
        assert!(calls < 20_000, "{mode}: {calls} calls: a loop?");
        assert_nothing_forged(mode, &answers);
        answers
    }

    /// The well-behaved button, by the ref a find gave it.
    async fn press_ref(&self) -> Target {
        let press = Selector::parse("[name=Press]").unwrap();
        let found = self
            .engine
            .session(&self.session)
            .unwrap()
            .find(&press, None, 1)
            .await;
        Target::Ref(found.unwrap().matches[0].reference.clone())
    }

    fn calls(&self) -> u64 {
        let last = self.hostile.oracle.last("calls", "count").unwrap();
        last.and_then(|v| v.as_u64()).unwrap_or(0)
    }
}

fn answer<'a>(answers: &'a [Answer], tool: &str) -> &'a Answer {
    answers.iter().find(|a| a.tool == tool).unwrap()
}

/// Misbehaviours of the tree's shape and content.
#[tokio::test]
async fn a_lying_tree_is_read_in_time_and_forges_nothing() {
    let mut rig = Rig::start().await;

    // An ancestor as a child, and one child under two parents: each element once.
    for mode in ["cycle", "shared"] {
        let answers = rig.misbehave(mode).await;
        let tree = &answer(&answers, "snapshot").text;
        for once in ["button \"Press\"", "label \"Twin\""] {
            assert!(
                tree.matches(once).count() <= 1,
                "{mode}: {once} twice:\n{tree}"
            );
        }
    }
    let answers = rig.misbehave("bad_index").await;
    assert!(answer(&answers, "snapshot").text.contains("label \"Real\""));
    rig.misbehave("count_zero").await;
    let answers = rig.misbehave("count_million").await;
    let tree = &answer(&answers, "snapshot").text;
    assert!(tree.contains("1000000 children not realized"), "{tree}");
    let answers = rig.misbehave("deep").await;
    assert!(answer(&answers, "snapshot").text.contains("Level 10"));
    let answers = rig.misbehave("huge_name").await;
    for a in &answers {
        assert!(a.text.len() < 100_000, "{}: {} bytes", a.tool, a.text.len());
    }
    let answers = rig.misbehave("forged").await;
    assert!(answer(&answers, "snapshot").text.contains("\\u{202e}evil"));
    // The CLI prints what the server prints: its output and its errors, forged names in both.
    let title = Fixture::HostileAtspi.window_title();
    let cli = [
        cli(&rig.desktop, &["snapshot", "--filter", "all", title]),
        cli(&rig.desktop, &["find", title, "label"]),
        cli(&rig.desktop, &["props", title, "[name=Trap] >> label"]),
        cli(&rig.desktop, &["click", title, "[name=Trap] >> button"]),
    ];
    assert!(cli[0].text.contains("\\u{202e}evil"), "{}", cli[0].text);
    assert!(cli[2].text.contains("ambiguous"), "{}", cli[2].text);
    assert_nothing_forged("forged (CLI)", &cli);
    rig.misbehave("unknown_states").await;
    rig.misbehave("items_100k").await;
    // A NaN read again is no change: setting it is no unexpected effect.
    let answers = rig.misbehave("nan_value").await;
    let set = answers.iter().rfind(|a| a.tool == "act").unwrap();
    assert_ne!(set.code, Some(Code::UnexpectedEffect), "{}", set.text);

    // The field's setter says yes and does nothing: never reported confirmed.
    let answers = rig.misbehave("lying_editable").await;
    let set = answers
        .iter()
        .find(|a| a.text.contains("field effect"))
        .map(|a| a.text.clone());
    if let Some(set) = set {
        assert!(
            !set.contains(&format!("{:?}", Effect::Confirmed)),
            "a lying setter was confirmed: {set}"
        );
    }
    assert!(
        rig.hostile
            .oracle
            .last("field", "ignored")
            .unwrap()
            .is_some(),
        "the setter was never called"
    );
    // The well-behaved button was pressed once per mode.
    let presses = rig.hostile.oracle.last("button", "pressed").unwrap();
    assert_eq!(presses, Some(json!(12)));
    rig.desktop.stop().unwrap();
    drop(rig.other);
}

/// Misbehaviours of the answers: wrong types, late, failing, vanishing, a flood of events.
#[tokio::test]
async fn bad_answers_end_in_time_and_other_apps_are_not_kept_waiting() {
    let mut rig = Rig::start().await;
    let answers = rig.misbehave("wrong_types").await;
    let tree = &answer(&answers, "snapshot").text;
    assert!(tree.contains("[0 of 3 realized]"), "{tree}");
    rig.misbehave("slow").await;
    rig.misbehave("flaky").await;
    rig.misbehave("vanishing").await;
    rig.misbehave("flood").await;
    rig.hostile.run("calls", json!({})).unwrap();
    let sent = rig.hostile.oracle.last("events", "sent").unwrap();
    assert!(
        sent.and_then(|v| v.as_u64()).unwrap_or(0) > 1000,
        "no flood"
    );
    rig.hostile.run("mode", json!({"mode": "normal"})).unwrap();
    let answers = rig.misbehave("normal").await;
    assert_eq!(answer(&answers, "snapshot").code, None);

    // Its direct connections closed, the app is still there: no tool says it is gone, the
    // first call on the closed connection included.
    let press = rig.press_ref().await;
    rig.hostile.run("drop_peers", json!({})).unwrap();
    let read = rig
        .engine
        .session(&rig.session)
        .unwrap()
        .properties(&press)
        .await;
    assert!(read.is_ok(), "{:?}", read.err());
    let answers = rig.misbehave("normal").await;
    for a in &answers {
        assert_ne!(a.code, Some(Code::AppGone), "{}: {}", a.tool, a.text);
    }
    let presses = rig.hostile.oracle.last("button", "pressed").unwrap();
    assert_eq!(presses, Some(json!(5)), "a press lost or sent twice");
    rig.desktop.stop().unwrap();
    drop(rig.other);
}

/// An app that embeds itself again under the same bus name is listed once; after it crashes
/// and a new one registers under the same app name, a ref read from the old one is refused and
/// nothing is pressed in the new one, which a new connection reaches.
#[tokio::test]
async fn a_restarted_app_is_another_app() {
    let mut rig = Rig::start().await;
    let old_ref = rig.press_ref().await;
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };

    rig.hostile.run("reregister", json!({})).unwrap();
    let listed = |apps: &[deskpilot_core::ListedApp]| {
        let name = Fixture::HostileAtspi.app_name();
        apps.iter().filter(|a| a.name == name).count()
    };
    let apps = rig.engine.list_apps().await.unwrap();
    assert_eq!(listed(&apps), 1, "listed twice after embedding again");
    let handle = rig.engine.session(&rig.session).unwrap();
    handle.act(&old_ref, &click).await.unwrap();
    let presses = rig.hostile.oracle.last("button", "pressed").unwrap();
    assert_eq!(presses, Some(json!(1)));

    rig.hostile.app.kill();
    let mut again = rig.desktop.launch_fixture(Fixture::HostileAtspi).unwrap();
    let error = handle
        .act(&old_ref, &click)
        .await
        .expect_err("a ref of the crashed app acted");
    println!("the old ref: {error}");
    assert!(
        matches!(error.code, Code::AppGone | Code::StaleRef | Code::NotFound),
        "{error}"
    );
    let apps = rig.engine.list_apps().await.unwrap();
    assert_eq!(listed(&apps), 1, "the crashed app is still listed");
    let session = rig
        .engine
        .connect(&ConnectTarget::AppName(
            Fixture::HostileAtspi.app_name().into(),
        ))
        .await
        .unwrap();
    let target = Target::Selector(Selector::parse("[name=Press]").unwrap());
    rig.engine
        .session(&session.id)
        .unwrap()
        .act(&target, &click)
        .await
        .unwrap();
    let presses = again.oracle.last("button", "pressed").unwrap();
    assert_eq!(presses, Some(json!(1)), "the new app was pressed twice");
    again.run("quit", json!({})).unwrap();
    rig.desktop.stop().unwrap();
    drop(rig.other);
}
