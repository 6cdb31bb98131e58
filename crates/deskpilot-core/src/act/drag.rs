//! `Engine::drag`: press at one point, move in steps, release at another. Each end is an
//! element (the centre of its live bounds, hit-tested) or a screen point.

use std::time::Duration;

use tokio::time::Instant;

use super::report::{ActionReport, Effect, Route, Rung};
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::escape::quoted;
use crate::model::{ElementId, Node, Role};
use crate::platform::{BackendError, Secrecy, WalkLimits};
use crate::read::Target;

/// One end of a drag.
#[derive(Debug, Clone)]
pub enum DragEnd {
    Element(Target),
    Point { x: i32, y: i32 },
}

/// How long a drop gets to show its effect (a file manager moves the file, then its view
/// hears of it).
const DROP_WAIT: Duration = Duration::from_millis(1500);
/// The fallback poll between two looks (the app's events wake them sooner).
const POLL: Duration = Duration::from_millis(40);
/// At most this many siblings of the source are compared.
const PLACE_NODES: usize = 2000;

impl Engine {
    async fn drag_once(&self, session: &str, from: &DragEnd, to: &DragEnd) -> Result<ActionReport> {
        let input = self.wiring().input_device()?.clone();
        let (start, source) = self.drag_point(session, from).await?;
        let (end, target) = self.drag_point(session, to).await?;
        let info = self.session_info(session)?;
        // Held through the read-back: another session's input cannot pass for this drop.
        let _input = self.input_lock().await;
        let place = match &source {
            Some(source) => self.backend().parent(&source.id).await.ok().flatten(),
            None => None,
        };
        let look = || self.drop_look(source.as_ref(), place.as_ref(), target.as_ref());
        let before = look().await;
        {
            if let Some(window_id) = self.window_system_id(session).await {
                let system = self.wiring().window_system()?;
                super::interaction::raise(system.as_ref(), window_id)
                    .await
                    .map_err(|e| {
                        Error::new(
                            Code::WindowNotForeground,
                            e.to_string(),
                            "activate the window first",
                        )
                    })?;
            }
            super::interaction::pointer_moved();
            input.drag(start, end).await.map_err(|e| {
                Error::new(
                    Code::Backend,
                    e.to_string(),
                    "retry; the display server failed",
                )
            })?;
        }
        let deadline = Instant::now() + DROP_WAIT;
        let mut wake = self.wake_on(&info.app.id, POLL).await;
        let seen = loop {
            let seen = drop_evidence(source.as_ref(), &before, &look().await);
            if !seen.is_empty() || Instant::now() >= deadline {
                break seen;
            }
            wake.next(deadline).await;
        };
        let confirmed = !seen.is_empty();
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
            effect: if confirmed {
                Effect::Confirmed
            } else {
                Effect::Unverified
            },
            changes: seen,
            foreground_changed: None,
            note: (!confirmed).then(|| {
                if source.is_none() && target.is_none() {
                    "sent between two points: no element to read the drop on; check the result with a snapshot"
                } else {
                    "sent; the drop changed nothing readable (the source is where it was, the target as it was; a selection or the drag's own windows are no evidence): check with a snapshot"
                }
                .to_owned()
            }),
            tree: None,
            interaction: Default::default(),
        })
    }

    async fn drag_point(&self, session: &str, end: &DragEnd) -> Result<((i32, i32), Option<Node>)> {
        match end {
            DragEnd::Point { x, y } => Ok(((*x, *y), None)),
            DragEnd::Element(target) => {
                let resolved = self.handle(session).resolve(target).await?;
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

    /// What a drop may change: the source (still there?), its place (its container's
    /// children, by role and name), the target (its name, value and children).
    async fn drop_look(
        &self,
        source: Option<&Node>,
        place: Option<&ElementId>,
        target: Option<&Node>,
    ) -> DropLook {
        // No text is needed to see a drop: never read any (the source may be secret).
        let alive = match source {
            Some(n) => Some(!matches!(
                self.backend().node(&n.id, Secrecy::NoText).await,
                Err(BackendError::Defunct { .. } | BackendError::AppGone { .. })
            )),
            None => None,
        };
        let place = match place {
            Some(place) => self.children_of(place).await,
            None => None,
        };
        let target = match target {
            Some(t) => match self.backend().node(&t.id, Secrecy::NoText).await {
                Ok(now) => Some(Seen {
                    value: super::observe::value_text(&now),
                    name: now.name,
                    children: self.children_of(&t.id).await.unwrap_or_default(),
                }),
                Err(_) => None,
            },
            None => None,
        };
        DropLook {
            alive,
            place,
            target,
        }
    }

    /// The children of `parent` by role and name, in order.
    async fn children_of(&self, parent: &ElementId) -> Option<Vec<(Role, String)>> {
        let limits = WalkLimits {
            max_nodes: PLACE_NODES,
            max_depth: 1,
            ..WalkLimits::with_timeout(Duration::from_secs(2))
        };
        let tree = self.backend().snapshot(parent, &limits).await.ok()?;
        Some(
            tree.nodes
                .iter()
                .skip(1)
                .map(|n| (n.node.role, n.node.name.clone()))
                .collect(),
        )
    }

    /// The session window's window-system id, if known.
    pub(crate) async fn window_system_id(&self, session: &str) -> Option<crate::app::WindowId> {
        self.session_window(session).await.ok()??.system_id
    }
}

impl crate::engine::Session<'_> {
    /// Drags from `from` to `to` with the left button. Confirmed only by what the drop
    /// changed: the source gone from its place or moved in it, the target's name or value,
    /// or the source's name appearing in the target; never by a selection, the focus or the
    /// drag's own windows.
    pub async fn drag(&self, from: &DragEnd, to: &DragEnd) -> Result<ActionReport> {
        let session = self.id();
        if super::background() {
            return Err(crate::error::Error::new(
                crate::error::Code::InputNotAllowed,
                "a drag moves the pointer, which background mode never does",
                "run it outside background mode",
            ));
        }
        super::report::reported(async {
            let report = self.engine.drag_once(session, from, to).await;
            self.engine.with_tree_after(session, report).await
        })
        .await
    }
}

/// What a drop may change, read before and after it.
#[derive(Debug, Clone, PartialEq, Default)]
struct DropLook {
    /// Whether the source element still exists (none: the drag started at a point).
    alive: Option<bool>,
    /// The children of the source's container, by role and name.
    place: Option<Vec<(Role, String)>>,
    target: Option<Seen>,
}

/// The target of a drop as read.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    name: String,
    value: Option<String>,
    children: Vec<(Role, String)>,
}

/// What the drop changed, one line each; empty when nothing is evidence of it.
fn drop_evidence(source: Option<&Node>, before: &DropLook, after: &DropLook) -> Vec<String> {
    let mut seen = Vec::new();
    let key = source.map(|s| (s.role, s.name.clone()));
    let what = source
        .map(|s| format!("{} {}", s.role, quoted(s.display_name(), 100)))
        .unwrap_or_default();
    if before.alive == Some(true) && after.alive == Some(false) {
        seen.push(format!("the dragged {what} is gone"));
    }
    if let (Some(key), Some(was), Some(now)) = (&key, &before.place, &after.place) {
        let count = |list: &Vec<(Role, String)>| list.iter().filter(|c| *c == key).count();
        let position = |list: &Vec<(Role, String)>| list.iter().position(|c| c == key);
        if count(now) < count(was) {
            seen.push(format!("the dragged {what} left its place"));
        } else if count(now) == 1 && count(was) == 1 && position(now) != position(was) {
            seen.push(format!(
                "the dragged {what} moved from position {} to {} among its siblings",
                position(was).map_or(0, |p| p + 1),
                position(now).map_or(0, |p| p + 1)
            ));
        }
    }
    if let (Some(was), Some(now)) = (&before.target, &after.target) {
        if was.name != now.name {
            seen.push(format!(
                "the target's name: {} -> {}",
                quoted(&was.name, 100),
                quoted(&now.name, 100)
            ));
        }
        if was.value != now.value {
            seen.push("the target's value changed".to_owned());
        }
        if let Some(key) = &key {
            let holds = |t: &Seen| t.children.iter().any(|c| c == key);
            if holds(now) && !holds(was) {
                seen.push(format!("the dragged {what} is in the target"));
            }
        }
    }
    seen
}

#[cfg(test)]
#[path = "drag_tests.rs"]
mod tests;
