//! `Engine::drag`: press at one point, move in steps, release at another. Each end is an
//! element (the centre of its live bounds, hit-tested) or a screen point.

use super::report::{ActionReport, Effect, Route, Rung};
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::platform::Secrecy;
use crate::read::Target;

/// One end of a drag.
#[derive(Debug, Clone)]
pub enum DragEnd {
    Element(Target),
    Point { x: i32, y: i32 },
}

impl Engine {
    /// Drags from `from` to `to` with the left button. Reported unverified unless the source
    /// element or the app's windows visibly changed.
    pub async fn drag(&self, session: &str, from: &DragEnd, to: &DragEnd) -> Result<ActionReport> {
        let report = self.drag_once(session, from, to).await;
        self.with_tree_after(session, report).await
    }

    async fn drag_once(&self, session: &str, from: &DragEnd, to: &DragEnd) -> Result<ActionReport> {
        let input = self.input_device()?.clone();
        let (start, source) = self.drag_point(session, from).await?;
        let (end, _) = self.drag_point(session, to).await?;
        let info = self.session(session)?;
        // Held through the read-back: another session's input cannot pass for this drop.
        let _input = self.input_lock().await;
        let before = self.drag_look(source.as_ref(), &info.app.id).await;
        {
            if let Some(window_id) = self.window_system_id(session).await {
                input.activate_window(window_id).await.map_err(|e| {
                    Error::new(
                        Code::WindowNotForeground,
                        e.to_string(),
                        "activate the window first",
                    )
                })?;
            }
            input.drag(start, end).await.map_err(|e| {
                Error::new(
                    Code::Backend,
                    e.to_string(),
                    "retry; the display server failed",
                )
            })?;
        }
        // Look for a change for a short while (a drop is handled at once or not at all).
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_millis(600);
        let changed = loop {
            let after = self.drag_look(source.as_ref(), &info.app.id).await;
            if after != before {
                break true;
            }
            if tokio::time::Instant::now() >= deadline {
                break false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(40)).await;
        };
        Ok(ActionReport {
            verb: "drag",
            reference: match from {
                DragEnd::Element(Target::Ref(r)) => r.clone(),
                _ => format!("({}, {})", start.0, start.1),
            },
            route: Some(Route {
                rung: Rung::Pointer,
                how: format!(
                    "pointer drag from ({}, {}) to ({}, {})",
                    start.0, start.1, end.0, end.1
                ),
            }),
            skipped: vec![super::report::Skipped {
                rung: Rung::Semantic,
                why: "no semantic drag".into(),
            }],
            effect: if changed {
                Effect::Confirmed
            } else {
                Effect::Unverified
            },
            changes: if changed {
                vec!["the source element or the app's windows changed".into()]
            } else {
                Vec::new()
            },
            foreground_changed: None,
            note: (!changed).then(|| "sent; check the result with a snapshot".to_owned()),
            tree: None,
        })
    }

    async fn drag_point(
        &self,
        session: &str,
        end: &DragEnd,
    ) -> Result<((i32, i32), Option<crate::model::Node>)> {
        match end {
            DragEnd::Point { x, y } => Ok(((*x, *y), None)),
            DragEnd::Element(target) => {
                let resolved = self.resolve(session, target).await?;
                let live = self
                    .backend()
                    .node(&resolved.node.id, Secrecy::of(resolved.secret))
                    .await?;
                let b = live.bounds.filter(|b| !b.is_empty()).ok_or_else(|| {
                    Error::new(
                        Code::Offscreen,
                        format!("{} has no bounds on screen", resolved.reference),
                        "scroll it into view first",
                    )
                })?;
                Ok(((b.x + b.width / 2, b.y + b.height / 2), Some(live)))
            }
        }
    }

    /// What a drag may visibly change: the source element, the app's window titles.
    async fn drag_look(
        &self,
        source: Option<&crate::model::Node>,
        app: &crate::model::ElementId,
    ) -> (Option<crate::model::Node>, Vec<String>) {
        let node = match source {
            // No text is needed to see a change: never read any (the source may be secret).
            // What a press and release do on their own (focus, selection, pressed) is no
            // evidence of a drag: only its value, name or place moving is.
            Some(n) => self
                .backend()
                .node(&n.id, Secrecy::NoText)
                .await
                .ok()
                .map(|n| {
                    let mut seen = crate::model::Node::new(n.id, n.role);
                    seen.name = n.name;
                    seen.value = n.value;
                    seen.bounds = n.bounds;
                    seen
                }),
            None => None,
        };
        let windows = self
            .windows_of(app)
            .await
            .unwrap_or_default()
            .into_iter()
            .map(|w| w.title)
            .collect();
        (node, windows)
    }

    /// The session window's window-system id, if known.
    pub(crate) async fn window_system_id(&self, session: &str) -> Option<crate::app::WindowId> {
        self.session_window(session).await.ok()??.system_id
    }
}
