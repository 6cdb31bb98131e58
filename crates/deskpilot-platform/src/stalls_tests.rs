use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Probed, Ran, Stalls};

const TIMEOUT: Duration = Duration::from_millis(1500);

/// A probe that answers once `frozen` is cleared, and is silent (never returns) before.
fn probe(
    frozen: &Arc<AtomicBool>,
) -> impl Fn() -> std::pin::Pin<Box<dyn Future<Output = Probed> + Send>> + Send + 'static {
    let frozen = frozen.clone();
    move || {
        let frozen = frozen.clone();
        Box::pin(async move {
            if frozen.load(Ordering::SeqCst) {
                std::future::pending::<()>().await;
            }
            Probed::Answered
        })
    }
}

/// One timeout is a frozen app's cost: its calls fail at once (not waited for) until a probe
/// finds it answering; other apps are never stalled by it; calls that timed out together
/// count once.
#[tokio::test(start_paused = true)]
async fn a_frozen_app_fails_at_once_until_a_probe_finds_it_answering() {
    let stalls = Stalls::<u32>::new(TIMEOUT);
    let frozen = Arc::new(AtomicBool::new(true));
    stalls.timed_out(&7, probe(&frozen));
    stalls.timed_out(&7, probe(&frozen));
    assert_eq!(stalls.timeouts(), 1);
    assert!(stalls.stalled(&7));
    assert!(!stalls.stalled(&8));
    let started = tokio::time::Instant::now();
    assert!(
        !stalls.waited_for(&7).await,
        "a frozen app is not waited for"
    );
    assert_eq!(started.elapsed(), Duration::ZERO);
    tokio::time::sleep(TIMEOUT * 3).await;
    assert!(stalls.stalled(&7), "silent probes keep it stalled");
    frozen.store(false, Ordering::SeqCst);
    let deadline = tokio::time::Instant::now() + TIMEOUT * 2;
    assert!(stalls.answered_by(&7, deadline).await);
    assert!(!stalls.stalled(&7));
    assert!(stalls.waited_for(&7).await);
}

/// An app busy with one slow answer is waited for until its patience runs out, not one
/// call timeout: a toolkit built a 9,300-label box's cache in 8.3 s on a loaded machine.
#[tokio::test(start_paused = true)]
async fn a_busy_app_is_waited_for_within_its_patience() {
    let stalls = Stalls::<&'static str>::new(TIMEOUT);
    let frozen = Arc::new(AtomicBool::new(true));
    stalls.timed_out(&":1.2", probe(&frozen));
    stalls.busy(&":1.2", Duration::from_secs(15));
    let answers = {
        let frozen = frozen.clone();
        async move {
            tokio::time::sleep(Duration::from_secs(7)).await;
            frozen.store(false, Ordering::SeqCst);
        }
    };
    let started = tokio::time::Instant::now();
    let (waited, ()) = tokio::join!(stalls.waited_for(&":1.2"), answers);
    assert!(waited);
    assert!(
        started.elapsed() > Duration::from_secs(7),
        "{:?}",
        started.elapsed()
    );
    assert!(started.elapsed() < Duration::from_secs(7) + TIMEOUT * 2);
}

/// Past its patience a busy app is taken for frozen: the wait ends then, and the next call
/// fails at once.
#[tokio::test(start_paused = true)]
async fn a_busy_app_past_its_patience_is_taken_for_frozen() {
    let stalls = Stalls::<u32>::new(TIMEOUT);
    let frozen = Arc::new(AtomicBool::new(true));
    stalls.timed_out(&7, probe(&frozen));
    stalls.busy(&7, Duration::from_secs(15));
    let started = tokio::time::Instant::now();
    assert!(!stalls.waited_for(&7).await);
    assert_eq!(started.elapsed(), Duration::from_secs(15));
    let again = tokio::time::Instant::now();
    assert!(!stalls.waited_for(&7).await);
    assert_eq!(again.elapsed(), Duration::ZERO);
}

/// An app that answers its calls one at a time, each in 300 ms: 16 calls sent together take
/// 4.8 s, and none times out, since each call's timeout counts from its turn. A frozen app's
/// first call times out once and the calls queued behind it are not run.
#[tokio::test(start_paused = true)]
async fn calls_in_turn_are_timed_from_their_turn() {
    let stalls = Stalls::<u32>::new(TIMEOUT);
    let frozen = Arc::new(AtomicBool::new(true));
    let slow = || async { tokio::time::sleep(Duration::from_millis(300)).await };
    let calls = (0..16).map(|_| stalls.in_turn(&7, slow(), probe(&frozen)));
    let started = tokio::time::Instant::now();
    let ran = futures_util::future::join_all(calls).await;
    assert!(ran.iter().all(|r| *r == Ran::Answered(())), "{ran:?}");
    assert_eq!(started.elapsed(), Duration::from_millis(4800));
    assert_eq!(stalls.timeouts(), 0);
    let hung = || std::future::pending::<()>();
    let calls = (0..3).map(|_| stalls.in_turn(&7, hung(), probe(&frozen)));
    let ran = futures_util::future::join_all(calls).await;
    assert_eq!(ran, [Ran::TimedOut, Ran::Stalled, Ran::Stalled]);
    assert_eq!(stalls.timeouts(), 1);
}
