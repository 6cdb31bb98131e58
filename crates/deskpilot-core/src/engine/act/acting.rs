//! One action's run: the engine it goes through, whether it may take the foreground (a
//! session handle in background mode may not), and what its rungs did beside the element,
//! noted where they do it (`deliver.rs`, `drag.rs`, `window.rs`) and reported with it.

use std::future::Future;
use std::sync::Mutex;

use crate::act::{ActionReport, Interaction};
use crate::app::WindowId;
use crate::engine::{Engine, Session};
use crate::error::Result;
use crate::platform::{WindowError, WindowSystem};

/// The context an action's rungs run in.
pub(crate) struct Acting<'a> {
    pub engine: &'a Engine,
    /// No rung may raise a window or move the pointer (keys need the focus, the pointer the
    /// screen): the ladder skips them and says so.
    pub background: bool,
    seen: Mutex<Interaction>,
}

impl<'a> Acting<'a> {
    /// A run of one action through `session`, in its mode.
    pub(crate) fn of(session: &Session<'a>) -> Self {
        Acting {
            engine: session.engine,
            background: session.background,
            seen: Mutex::new(Interaction::default()),
        }
    }

    /// What the run did beside its element so far.
    pub(crate) fn seen(&self) -> Interaction {
        *self.seen.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes that the run moved the pointer.
    pub(crate) fn pointer_moved(&self) {
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pointer_moved = true;
    }

    /// Notes that the run made another window the active one.
    pub(crate) fn raised_window(&self) {
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .raised_window = true;
    }

    /// Makes `window` the active one through `system`, noting a raise when another window
    /// was active (before keys or the pointer, `deliver.rs`; before a drag, `drag.rs`).
    pub(crate) async fn raise(
        &self,
        system: &dyn WindowSystem,
        window: WindowId,
    ) -> std::result::Result<(), WindowError> {
        let was_active = system.active_window().await.ok().flatten() == Some(window);
        system.activate_window(window).await?;
        if !was_active {
            self.raised_window();
        }
        Ok(())
    }
}

/// Runs `action` in `acting` and reports what it did beside its element.
pub(crate) async fn reported<F>(acting: &Acting<'_>, action: F) -> Result<ActionReport>
where
    F: Future<Output = Result<ActionReport>>,
{
    // Boxed: an action's future is large, and faces nest it in theirs (a test thread's
    // stack is 2 MiB; the test library's `locators_act_and_expectations_wait` overflowed it).
    let result = Box::pin(action).await;
    crate::act::report::with_interaction(result, acting.seen())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::platform::NoDesktop;

    /// What a run's rungs note is what it reports, and only its own; background mode is the
    /// handle's, never another handle's.
    #[test]
    fn notes_stay_with_their_run_and_background_with_its_handle() {
        let engine = Engine::new(Arc::new(NoDesktop::unsupported_platform("test")));
        let handle = engine.handle("s1");
        let run = Acting::of(&handle);
        run.pointer_moved();
        assert_eq!(run.seen().names(), ["pointer_moved"]);
        assert!(Acting::of(&handle).seen().names().is_empty());
        assert!(!run.background);
        let quiet = handle.clone().in_background();
        assert!(Acting::of(&quiet).background);
        assert!(!Acting::of(&handle).background);
    }
}
