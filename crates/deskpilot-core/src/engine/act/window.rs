//! `Engine::window_action`: activate, minimize, maximize, restore or close the session's
//! window through the window manager, confirmed by the window's state read back.

use crate::act::action::WindowAction;
use crate::act::report::{ActionReport, Effect, Route, Rung};
use crate::act::verbs::Named;
use crate::act::window::*;
use crate::engine::act::acting::{Acting, reported};
use crate::engine::act::after::with_tree_after;
use crate::engine::session_window;
use crate::error::{Code, Error, Result};
use std::time::Duration;
use tokio::time::Instant;

/// Longest wait for the window manager to carry a request out.
const WAIT: Duration = Duration::from_millis(2000);

const POLL: Duration = Duration::from_millis(40);

async fn window_action_once(
    acting: &Acting<'_>,
    session: &str,
    action: WindowAction,
) -> Result<ActionReport> {
    let engine = acting.engine;
    let input = engine.wiring().window_system()?.clone();
    let window = session_window(engine, session).await?.ok_or_else(|| {
        Error::new(
            Code::NotFound,
            "the session's window is gone",
            "`list_apps`, then `connect` to a window that exists",
        )
    })?;
    let window_id = window.system_id.ok_or_else(|| {
        Error::new(
            Code::WindowNotForeground,
            format!(
                "the window system does not know window {}",
                crate::escape::quoted(&window.title, 100)
            ),
            "the window may be closing; `list_apps` to check",
        )
    })?;
    let display = crate::act::deliver::window_error;
    let activate = action == WindowAction::Activate;
    if activate && acting.background {
        return Err(Error::new(
            Code::InputNotAllowed,
            "raising a window takes the foreground, which background mode never does",
            "run it outside background mode",
        ));
    }
    // Held through the read-back: another session's request cannot pass for this one.
    let _input = engine.input_lock().await;
    let before = input.window_state(window_id).await.map_err(display)?;
    // Only a raise asks which window was active (one round trip less for the others).
    let was_active = activate && input.active_window().await.ok().flatten() == Some(window_id);
    input
        .window_action(window_id, action)
        .await
        .map_err(display)?;
    if activate && !was_active {
        acting.raised_window();
    }
    let deadline = Instant::now() + WAIT;
    let after = loop {
        let state = input.window_state(window_id).await.map_err(display)?;
        let active = input.active_window().await.map_err(display)?;
        if reached(action, state, active == Some(window_id)) {
            break state;
        }
        if Instant::now() >= deadline {
            return Err(Error::new(
                Code::NoEffect,
                format!(
                    "{} {}: the window manager did not do it within {WAIT:?} (state now {})",
                    action.name(),
                    crate::escape::quoted(&window.title, 100),
                    describe(state)
                ),
                "the window may refuse it (a modal dialog, a fixed-size window); check with `list_apps`",
            ));
        }
        tokio::time::sleep(POLL).await;
    };
    let mut changes = Vec::new();
    if describe(before) != describe(after) {
        changes.push(format!(
            "window: {} -> {}",
            describe(before),
            describe(after)
        ));
    }
    Ok(ActionReport {
        verb: action.name(),
        reference: "window".into(),
        route: Some(Route {
            rung: Rung::WindowManager,
            how: format!("window manager request for window {window_id}"),
        }),
        skipped: Vec::new(),
        effect: Effect::Confirmed,
        changes,
        foreground_changed: None,
        note: None,
        tree: None,
        observed: Vec::new(),
        interaction: Default::default(),
    })
}

impl crate::engine::Session<'_> {
    /// Does `action` with the session's window and reads its state back.
    pub async fn window_action(&self, action: WindowAction) -> Result<ActionReport> {
        let session = self.id();
        let acting = Acting::of(self);
        reported(&acting, async {
            let report = window_action_once(&acting, session, action).await;
            with_tree_after(self.engine, session, report).await
        })
        .await
    }
}
