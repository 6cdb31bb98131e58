//! `Engine::drag`: press at one point, move in steps, release at another. Each end is an
//! element (the centre of its live bounds, hit-tested) or a screen point.

use crate::act::drag::*;
use crate::act::report::{ActionReport, Effect, Route, Rung};
use crate::engine::Engine;
use crate::engine::act::acting::{Acting, reported};
use crate::engine::act::after::with_tree_after;
use crate::engine::session_window;
use crate::error::{Code, Error, Result};
use crate::model::{ElementId, Node, Role};
use crate::platform::{BackendError, Secrecy, WalkLimits};
use crate::read::Target;
use std::time::Duration;
use tokio::time::Instant;

/// How long a drop gets to show its effect (a file manager moves the file, then its view
/// hears of it).
const DROP_WAIT: Duration = Duration::from_millis(1500);

/// The fallback poll between two looks (the app's events wake them sooner).
const POLL: Duration = Duration::from_millis(40);

/// At most this many siblings of the source are compared.
const PLACE_NODES: usize = 2000;

async fn drag_once(
    acting: &Acting<'_>,
    session: &str,
    from: &DragEnd,
    to: &DragEnd,
) -> Result<ActionReport> {
    let engine = acting.engine;
    let input = engine.wiring().input_device()?.clone();
    let (start, source) = drag_point(engine, session, from).await?;
    let (end, target) = drag_point(engine, session, to).await?;
    let info = engine.session_info(session)?;
    // Held through the read-back: another session's input cannot pass for this drop.
    let _input = engine.input_lock().await;
    let place = match &source {
        Some(source) => engine.backend().parent(&source.id).await.ok().flatten(),
        None => None,
    };
    let look = || drop_look(engine, source.as_ref(), place.as_ref(), target.as_ref());
    let before = look().await;
    {
        if let Some(window_id) = window_system_id(engine, session).await {
            let system = engine.wiring().window_system()?;
            acting
                .raise(system.as_ref(), window_id)
                .await
                .map_err(|e| {
                    Error::new(
                        Code::WindowNotForeground,
                        e.to_string(),
                        "activate the window first",
                    )
                })?;
        }
        acting.pointer_moved();
        input.drag(start, end).await.map_err(|e| {
            Error::new(
                Code::Backend,
                e.to_string(),
                "retry; the display server failed",
            )
        })?;
    }
    let deadline = Instant::now() + DROP_WAIT;
    let mut wake = engine.wake_on(&info.app.id, POLL).await;
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
        skipped: vec![crate::act::report::Skipped {
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
        observed: Vec::new(),
        interaction: Default::default(),
    })
}

async fn drag_point(
    engine: &Engine,
    session: &str,
    end: &DragEnd,
) -> Result<((i32, i32), Option<Node>)> {
    match end {
        DragEnd::Point { x, y } => Ok(((*x, *y), None)),
        DragEnd::Element(target) => {
            let resolved = engine.handle(session).resolve(target).await?;
            let live = engine
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
    engine: &Engine,
    source: Option<&Node>,
    place: Option<&ElementId>,
    target: Option<&Node>,
) -> DropLook {
    // No text is needed to see a drop: never read any (the source may be secret).
    let alive = match source {
        Some(n) => Some(!matches!(
            engine.backend().node(&n.id, Secrecy::NoText).await,
            Err(BackendError::Defunct { .. } | BackendError::AppGone { .. })
        )),
        None => None,
    };
    let place = match place {
        Some(place) => children_of(engine, place).await,
        None => None,
    };
    let target = match target {
        Some(t) => match engine.backend().node(&t.id, Secrecy::NoText).await {
            Ok(now) => Some(Seen {
                value: crate::act::observe::value_text(&now),
                name: now.name,
                children: children_of(engine, &t.id).await.unwrap_or_default(),
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
async fn children_of(engine: &Engine, parent: &ElementId) -> Option<Vec<(Role, String)>> {
    let limits = WalkLimits {
        max_nodes: PLACE_NODES,
        max_depth: 1,
        ..WalkLimits::with_timeout(Duration::from_secs(2))
    };
    let tree = engine.backend().snapshot(parent, &limits).await.ok()?;
    Some(
        tree.nodes
            .iter()
            .skip(1)
            .map(|n| (n.node.role, n.node.name.clone()))
            .collect(),
    )
}

/// The session window's window-system id, if known.
pub(crate) async fn window_system_id(
    engine: &Engine,
    session: &str,
) -> Option<crate::app::WindowId> {
    session_window(engine, session).await.ok()??.system_id
}

impl crate::engine::Session<'_> {
    /// Drags from `from` to `to` with the left button. Confirmed only by what the drop
    /// changed: the source gone from its place or moved in it, the target's name or value,
    /// or the source's name appearing in the target; never by a selection, the focus or the
    /// drag's own windows.
    pub async fn drag(&self, from: &DragEnd, to: &DragEnd) -> Result<ActionReport> {
        let session = self.id();
        if self.background {
            return Err(crate::error::Error::new(
                crate::error::Code::InputNotAllowed,
                "a drag moves the pointer, which background mode never does",
                "run it outside background mode",
            ));
        }
        let acting = Acting::of(self);
        reported(&acting, async {
            let report = drag_once(&acting, session, from, to).await;
            with_tree_after(self.engine, session, report).await
        })
        .await
    }
}
