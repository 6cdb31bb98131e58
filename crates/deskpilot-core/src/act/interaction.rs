//! What an action did to the user's desktop besides the element: whether it raised a window
//! (made another window the active one) or moved the pointer. Every action reports it, so a
//! user can run agents beside their own work; in background mode (a pipeline's `mode:
//! background`) the ladder takes no rung that would (keys need the focus, the pointer the
//! screen) and says so in the rungs it skipped.
//!
//! Both are task-local: an action runs in one task, under the input lock, and what its
//! rungs did is noted where they do it (`deliver.rs`, `drag.rs`, `window.rs`).

use std::cell::Cell;
use std::future::Future;

use serde::Serialize;

/// What an action did beside its element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Interaction {
    /// Another window was made the active one (before keys, a click, or on request).
    pub raised_window: bool,
    /// The pointer was moved (a click, a drag, the wheel).
    pub pointer_moved: bool,
}

impl Interaction {
    /// Its parts that happened, by name (`raised_window`, `pointer_moved`).
    pub fn names(self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.raised_window {
            out.push("raised_window");
        }
        if self.pointer_moved {
            out.push("pointer_moved");
        }
        out
    }
}

tokio::task_local! {
    static SEEN: Cell<Interaction>;
    static BACKGROUND: ();
}

/// Runs `action`, noting what it did beside its element.
pub(crate) async fn watched<F: Future>(action: F) -> (F::Output, Interaction) {
    SEEN.scope(Cell::new(Interaction::default()), async {
        let out = action.await;
        (out, SEEN.with(Cell::get))
    })
    .await
}

/// Notes that the running action raised a window.
pub(crate) fn raised_window() {
    let _ = SEEN.try_with(|seen| {
        seen.set(Interaction {
            raised_window: true,
            ..seen.get()
        })
    });
}

/// Notes that the running action moved the pointer.
pub(crate) fn pointer_moved() {
    let _ = SEEN.try_with(|seen| {
        seen.set(Interaction {
            pointer_moved: true,
            ..seen.get()
        })
    });
}

/// Makes `window` the active one through `system`, noting a raise when another window was
/// active (before keys or the pointer, `deliver.rs`; before a drag, `drag.rs`).
pub(crate) async fn raise(
    system: &dyn crate::platform::WindowSystem,
    window: crate::app::WindowId,
) -> Result<(), crate::platform::WindowError> {
    let was_active = system.active_window().await.ok().flatten() == Some(window);
    system.activate_window(window).await?;
    if !was_active {
        raised_window();
    }
    Ok(())
}

/// Runs `work` in background mode: no action in it raises a window or moves the pointer.
pub async fn in_background<F: Future>(work: F) -> F::Output {
    BACKGROUND.scope((), work).await
}

/// Whether the running task is in background mode.
pub fn background() -> bool {
    BACKGROUND.try_with(|_| ()).is_ok()
}

/// The active window and the pointer's place, to give back after work that took them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Foreground {
    pub window: Option<crate::app::WindowId>,
    pub pointer: Option<(i32, i32)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an action's rungs note is what it reports; background mode holds only inside.
    #[tokio::test]
    async fn notes_stay_with_their_action() {
        let ((), seen) = watched(async { pointer_moved() }).await;
        assert_eq!(seen.names(), ["pointer_moved"]);
        let ((), seen) = watched(async {}).await;
        assert!(seen.names().is_empty());
        assert!(!background());
        assert!(in_background(async { background() }).await);
    }
}
