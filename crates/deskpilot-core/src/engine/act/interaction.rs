//! What an action did to the user's desktop besides the element: whether it raised a window
//! (made another window the active one) or moved the pointer. Every action reports it, so a
//! user can run agents beside their own work; in background mode (a pipeline's `mode:
//! background`) the ladder takes no rung that would (keys need the focus, the pointer the
//! screen) and says so in the rungs it skipped.
//!
//! Both are task-local: an action runs in one task, under the input lock, and what its
//! rungs did is noted where they do it (`deliver.rs`, `drag.rs`, `window.rs`).

use crate::act::interaction::*;

impl crate::engine::Engine {
    /// The active window and where the pointer is now (each `None` when the platform cannot
    /// tell).
    pub async fn foreground(&self) -> Foreground {
        let window = match self.wiring().window_system() {
            Ok(system) => system.active_window().await.ok().flatten(),
            Err(_) => None,
        };
        let pointer = match self.wiring().input_device() {
            Ok(input) => input.pointer().await.ok().flatten(),
            Err(_) => None,
        };
        Foreground { window, pointer }
    }

    /// Activates `then`'s window again and moves the pointer back, each only where it
    /// changed; says what was given back, or why not.
    pub async fn give_back(&self, then: Foreground) -> Vec<String> {
        let _input = self.input_lock().await;
        let now = self.foreground().await;
        let mut said = Vec::new();
        if let Some(window) = then.window
            && now.window != Some(window)
        {
            let given = match self.wiring().window_system() {
                Ok(system) => system
                    .activate_window(window)
                    .await
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.message),
            };
            said.push(match given {
                Ok(()) => "foreground_given_back".to_owned(),
                Err(why) => format!("foreground_not_given_back: {why}"),
            });
        }
        if let Some((x, y)) = then.pointer
            && now.pointer != Some((x, y))
        {
            let moved = match self.wiring().input_device() {
                Ok(input) => input.move_pointer(x, y).await.map_err(|e| e.to_string()),
                Err(e) => Err(e.message),
            };
            said.push(match moved {
                Ok(()) => "pointer_given_back".to_owned(),
                Err(why) => format!("pointer_not_given_back: {why}"),
            });
        }
        said
    }
}
