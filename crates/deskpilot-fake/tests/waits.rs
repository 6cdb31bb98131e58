//! The engine's wait primitive on the in-memory backend, on tokio's paused clock: a change
//! the app announces with an event is seen at once; one it does not announce, at the next
//! poll; and the outcome says which woke the wait.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::model::State;
use deskpilot_core::{
    Action, Code, Condition, ConnectTarget, Engine, FALLBACK_POLL, MouseButton, Selector, Target,
};
use deskpilot_fake::{FakeBackend, Flavour, id};

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" path=/win
    checkbox "Notify" path=/notify [checked]
"#;

async fn unchecked_after(events: bool, change_at: Duration) -> deskpilot_core::WaitOutcome {
    unchecked_after_flood(events, change_at, 0).await
}

/// The checkbox unchecked at `change_at`, just after `flood` other changes (each an event
/// when events are on).
async fn unchecked_after_flood(
    events: bool,
    change_at: Duration,
    flood: usize,
) -> deskpilot_core::WaitOutcome {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(APP);
    if events {
        fake.send_events();
    }
    let engine = Engine::new(fake.clone());
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Main".into()))
        .await
        .unwrap()
        .id;
    let edit = tokio::spawn(async move {
        tokio::time::sleep(change_at).await;
        for _ in 0..flood {
            fake.edit(&id(":1.1", "/win"), |n| n.node.name = "Main".into());
        }
        fake.edit(&id(":1.1", "/notify"), |n| {
            n.node.states.set(State::Checked, false)
        });
    });
    let outcome = engine
        .session(&session)
        .unwrap()
        .wait_for(
            &Selector::parse("checkbox[name=Notify]").unwrap(),
            None,
            &Condition::State {
                state: State::Checked,
                on: false,
            },
            Duration::from_secs(5),
        )
        .await
        .unwrap();
    edit.await.unwrap();
    outcome
}

#[tokio::test(start_paused = true)]
async fn an_event_wakes_the_wait_before_the_poll() {
    let outcome = unchecked_after(true, Duration::from_millis(30)).await;
    assert!(outcome.wakes.events_watched);
    assert_eq!((outcome.wakes.by_event, outcome.wakes.by_poll), (1, 0));
    assert!(
        Duration::from_millis(outcome.elapsed_ms) < FALLBACK_POLL,
        "seen after {} ms",
        outcome.elapsed_ms
    );
    // The look on the event read only the checkbox the event named (and its ancestors).
    assert_eq!(outcome.wakes.targeted, 1);
    let text = deskpilot_core::present::waited(&outcome);
    assert!(
        text.contains(
            "2 looks: 1 on events, 0 on the poll; the last read only what the events named"
        ),
        "{text}"
    );
}

/// More events than are remembered one by one (a flood) before the change: the look they
/// woke reads the whole tree, and the outcome says so.
#[tokio::test(start_paused = true)]
async fn after_a_flood_of_events_the_whole_tree_is_read_and_the_wait_says_so() {
    let outcome =
        unchecked_after_flood(true, Duration::from_millis(30), deskpilot_fake::REMEMBERED).await;
    assert_eq!((outcome.wakes.by_event, outcome.wakes.flooded), (1, 1));
    assert_eq!(outcome.wakes.targeted, 0);
    let text = deskpilot_core::present::waited(&outcome);
    assert!(
        text.contains(
            "2 looks: 1 on events, 0 on the poll; 1 after a flood of events read the whole tree"
        ),
        "{text}"
    );
}

/// An event naming an element outside the session's window, or a selector that counts
/// matches across the tree (`:nth`), is left to the full look: the outcome is the same.
#[tokio::test(start_paused = true)]
async fn a_targeted_look_only_confirms_what_a_full_look_would() {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(APP);
    fake.send_events();
    let engine = Engine::new(fake.clone());
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Main".into()))
        .await
        .unwrap()
        .id;
    let edit = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(30)).await;
        fake.edit(&id(":1.1", "/notify"), |n| {
            n.node.states.set(State::Checked, false)
        });
    });
    let outcome = engine
        .session(&session)
        .unwrap()
        .wait_for(
            &Selector::parse("checkbox:nth(0)").unwrap(),
            None,
            &Condition::State {
                state: State::Checked,
                on: false,
            },
            Duration::from_secs(5),
        )
        .await
        .unwrap();
    edit.await.unwrap();
    assert_eq!(outcome.wakes.targeted, 0);
    assert_eq!((outcome.wakes.by_event, outcome.wakes.by_poll), (1, 0));
}

#[tokio::test(start_paused = true)]
async fn without_events_the_poll_finds_the_change() {
    let outcome = unchecked_after(false, Duration::from_millis(30)).await;
    assert!(!outcome.wakes.events_watched);
    assert_eq!((outcome.wakes.by_event, outcome.wakes.by_poll), (0, 1));
    assert_eq!(Duration::from_millis(outcome.elapsed_ms), FALLBACK_POLL);
    let text = deskpilot_core::present::waited(&outcome);
    assert!(
        text.contains("2 looks on the poll (events not watched)"),
        "{text}"
    );
}

/// A change made while a slow full look runs (a big app) is confirmed by a look at what the
/// events named, without waiting for the full look to end.
#[tokio::test(start_paused = true)]
async fn a_change_during_a_slow_full_look_is_seen_at_once() {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(APP);
    fake.send_events();
    let engine = Engine::new(fake.clone());
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Main".into()))
        .await
        .unwrap()
        .id;
    fake.set_walk_time(Duration::from_millis(200));
    let edit = tokio::spawn(async move {
        // During the second full look (the first ends at 200 ms, the poll starts the second
        // at 300 ms; it reads at its end, 500 ms).
        tokio::time::sleep(Duration::from_millis(350)).await;
        fake.edit(&id(":1.1", "/notify"), |n| {
            n.node.states.set(State::Checked, false)
        });
    });
    let outcome = engine
        .session(&session)
        .unwrap()
        .wait_for(
            &Selector::parse("checkbox[name=Notify]").unwrap(),
            None,
            &Condition::State {
                state: State::Checked,
                on: false,
            },
            Duration::from_secs(5),
        )
        .await
        .unwrap();
    edit.await.unwrap();
    assert_eq!(outcome.wakes.targeted, 1);
    // Seen when the change came, not when the full look in progress ended (500 ms).
    assert_eq!(outcome.elapsed_ms, 350, "{outcome:?}");
}

/// Mousepad's Save As, reduced: a hidden "Save" that is enabled beside the visible one,
/// disabled until the name is looked at.
const SAVE_AS: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Save As" path=/win bounds=0,0,400,300
    button "Save" path=/hidden-save [!showing] actions=click
    button "Save" path=/save [!enabled] actions=click bounds=300,250,80,30
"#;

/// `wait_for` a state and an action on the same selector judge the same element, the one an
/// action resolves (the visible one), read the same way: the hidden button's `enabled` met
/// the wait while the click was refused `disabled`. Actions wait for actionability, and
/// refuse `disabled` (retryable) when the wait runs out.
#[tokio::test(start_paused = true)]
async fn a_wait_for_a_state_and_an_action_agree() {
    wait_and_action_agree(Flavour::AtSpi).await;
}

/// The same on the fake in UI Automation's words (patterns, UIA's routes).
#[tokio::test(start_paused = true)]
async fn a_wait_for_a_state_and_an_action_agree_on_uia() {
    wait_and_action_agree(Flavour::Uia).await;
}

async fn wait_and_action_agree(flavour: Flavour) {
    let fake = Arc::new(FakeBackend::with_flavour(flavour));
    fake.add_app(SAVE_AS);
    let engine = Engine::new(fake.clone());
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Save As".into()))
        .await
        .unwrap()
        .id;
    let save = Selector::parse("button[name=Save]").unwrap();
    let enabled = Condition::State {
        state: State::Enabled,
        on: true,
    };
    let handle = engine.session(&session).unwrap();
    let waited = handle
        .wait_for(&save, None, &enabled, Duration::from_millis(300))
        .await;
    assert_eq!(
        waited
            .map(|o| o.element.map(|e| e.node.id))
            .map_err(|e| e.code),
        Err(Code::Timeout),
        "met by the hidden button"
    );
    let click = Action::Click {
        button: MouseButton::Left,
        double: false,
    };
    let target = Target::Selector(save.clone());
    let refused = handle
        .act_when_ready(&target, &click, Duration::ZERO)
        .await
        .unwrap_err();
    assert_eq!(refused.code, Code::Disabled, "{refused:?}");
    assert!(
        refused.retryable() && refused.message.contains("[ref="),
        "{refused:?}"
    );

    // Enabled a moment later: the click waits for it, and the wait sees the same button.
    let app = fake.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(400)).await;
        app.edit(&id(":1.1", "/save"), |n| {
            n.node.states.set(State::Enabled, true)
        });
    });
    let clicked = handle
        .act_when_ready(&target, &click, Duration::from_secs(2))
        .await
        .unwrap();
    assert_ne!(clicked.effect, deskpilot_core::Effect::Noop, "{clicked:?}");
    let met = handle
        .wait_for(&save, None, &enabled, Duration::ZERO)
        .await
        .unwrap();
    assert_eq!(met.element.unwrap().node.id, id(":1.1", "/save"));
}
