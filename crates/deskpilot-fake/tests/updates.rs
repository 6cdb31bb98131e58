//! Subscribers' updates of a session's tree, on tokio's paused clock: a burst of events is
//! one update after the app is quiet for 30 ms; a stream that never stops is flushed every
//! 100 ms (coalesced, counted); the updates end when the app quits.

use std::sync::Arc;
use std::time::Duration;

use deskpilot_core::engine::{FLUSH, LIVENESS, TRAILING};
use deskpilot_core::model::State;
use deskpilot_core::{ConnectTarget, Engine};
use deskpilot_fake::{FakeBackend, id};
use tokio::time::Instant;

const APP: &str = r#"
application "Editor" pid=42 toolkit=GTK
  window "Main" path=/win
    checkbox "Notify" path=/notify
"#;

async fn rig() -> (Arc<FakeBackend>, Arc<Engine>, String) {
    let fake = Arc::new(FakeBackend::new());
    fake.add_app(APP);
    fake.send_events();
    let engine = Arc::new(Engine::new(fake.clone()));
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Main".into()))
        .await
        .unwrap()
        .id;
    (fake, engine, session)
}

fn flip(fake: &FakeBackend, on: bool) {
    fake.edit(&id(":1.1", "/notify"), |n| {
        n.node.states.set(State::Checked, on)
    });
}

#[tokio::test(start_paused = true)]
async fn a_burst_is_one_update_after_a_quiet_trailing_window() {
    let (fake, engine, session) = rig().await;
    let mut updates = updates_of(&engine, &session).await;
    let started = Instant::now();
    let burst = tokio::spawn(async move {
        for i in 0..3 {
            flip(&fake, i % 2 == 0);
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    let update = updates.next(&engine).await.unwrap();
    burst.await.unwrap();
    assert_eq!(update.events, 3);
    // The last event at 20 ms, then 30 ms of quiet.
    assert_eq!(started.elapsed(), Duration::from_millis(20) + TRAILING);
}

#[tokio::test(start_paused = true)]
async fn an_endless_stream_is_flushed_every_100_ms_coalesced() {
    let (fake, engine, session) = rig().await;
    let mut updates = updates_of(&engine, &session).await;
    let stream = tokio::spawn(async move {
        // 200 events over one second (a progress bar, an animation).
        for i in 0..200 {
            flip(&fake, i % 2 == 0);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    });
    let started = Instant::now();
    let mut sent = Vec::new();
    while started.elapsed() < Duration::from_millis(1000) {
        let update = updates.next(&engine).await.unwrap();
        sent.push((started.elapsed(), update.events));
    }
    stream.await.unwrap();
    let events: u64 = sent.iter().map(|(_, n)| n).sum();
    assert!(events >= 195, "{sent:?}");
    assert!(
        sent.len() <= 11,
        "{} updates for {events} events: {sent:?}",
        sent.len()
    );
    for pair in sent.windows(2) {
        assert!(
            pair[1].0 - pair[0].0 <= FLUSH + Duration::from_millis(5),
            "{sent:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn the_updates_end_when_the_app_quits() {
    let (fake, engine, session) = rig().await;
    let mut updates = updates_of(&engine, &session).await;
    let started = Instant::now();
    let app = id(":1.1", "/org/a11y/atspi/accessible/root");
    let quit = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        fake.quit(&app);
    });
    assert_eq!(updates.next(&engine).await, None);
    quit.await.unwrap();
    assert!(
        started.elapsed() <= Duration::from_millis(200) + LIVENESS,
        "{:?}",
        started.elapsed()
    );
}

/// The session's tree updates, which the fake always has.
async fn updates_of(engine: &Engine, session: &str) -> deskpilot_core::engine::TreeUpdates {
    let handle = engine.session(session).unwrap();
    handle.tree_updates().await.unwrap().unwrap()
}
