//! Delivering one rung: a native operation through the backend, keys after the element's
//! window is raised and the element focused, pointer input at its live bounds after a hit
//! test. Says how it was done, or why it was not (skip, refuse, stop).

use crate::act::action::{MouseButton, NativeOp};
use crate::act::deliver::*;
use crate::act::plan::{Attempt, Delivery, KeyInput};
use crate::act::subject::Subject;
use crate::engine::Engine;
use crate::engine::act::acting::Acting;
use crate::engine::act::actionable::open_popup_of;
use crate::engine::act::choose::list_shown;
use crate::engine::scope::keys_window;
use crate::error::{Code, Error};
use crate::model::{ElementId, State};
use crate::platform::{BackendError, Performed};
use std::time::Duration;
use tokio::time::Instant;

/// Longest wait for focus to arrive before keys are sent.
const FOCUS_WAIT: Duration = Duration::from_millis(800);

/// Time between two reads of the focus.
const POLL: Duration = Duration::from_millis(40);

/// Sends one rung. Returns how it was done.
pub(crate) async fn deliver(
    acting: &Acting<'_>,
    subject: &Subject,
    attempt: &Attempt,
) -> std::result::Result<String, NotSent> {
    let engine = acting.engine;
    let node = subject.node();
    match &attempt.delivery {
        Delivery::Native(route) => deliver_native(engine, node, route).await,
        Delivery::NativeOn { element, route } => deliver_native(engine, element, route).await,
        Delivery::Keys(inputs) => {
            let input = engine.wiring().input_device().map_err(NotSent::Refuse)?;
            let window = bring_to_front(acting, subject).await?;
            let mut how = vec![];
            let walking = matches!(inputs.first(), Some(KeyInput::OpenList(_)));
            let opened = match walking {
                true => open_list(engine, node).await,
                false => None,
            };
            let focused_by = match &opened {
                Some(by) => {
                    how.push(format!("open by {by}"));
                    None
                }
                None => focus_for_keys(acting, subject, &window).await?,
            };
            let focused_here = focused_by.is_some();
            let clicked = focused_by.as_ref().is_some_and(|by| by.clicked);
            if let Some(by) = focused_by {
                how.push(format!("focus by {}", by.how));
            }
            for key in inputs {
                match key {
                    KeyInput::CaretToEndIfFocused => {
                        if !focused_here {
                            continue;
                        }
                        if engine
                            .backend()
                            .perform(&node.id, &NativeOp::CaretToEnd)
                            .await
                            .is_ok()
                        {
                            how.push("caret to the end".to_owned());
                        } else {
                            let end = engine.backend().edit_keys().caret_to_end;
                            input.press(&end).await.map_err(input_failure)?;
                            how.push(format!("key {end}"));
                        }
                    }
                    KeyInput::OpenList(chord) => {
                        if clicked && opened.is_none() {
                            how.push("(the click opened it)".to_owned());
                        } else if opened.is_none() {
                            input.press(chord).await.map_err(input_failure)?;
                            how.push(format!("key {chord}"));
                        }
                        // Keys sent before it shows are lost (Gecko opens a page's list
                        // in another process). Opened by its own action, it is open even
                        // unseen (Qt says nothing of it); opened by a key or a click and
                        // unseen, keys would change a closed list's value at each step,
                        // and Enter may press a dialog's default button.
                        if !list_shown(engine, subject).await {
                            if opened.is_none() {
                                return Err(NotSent::Skip(format!(
                                    "{}: its list was not seen to show, so no key followed",
                                    how.join(", ")
                                )));
                            }
                            how.push("(its list not seen to show)".to_owned());
                        }
                    }
                    KeyInput::Chord(chord) => {
                        input.press(chord).await.map_err(input_failure)?;
                        // In an open list each key waits until the app answers a call, so
                        // it has handled the key: Qt 5 on Wayland lost keys sent in one
                        // burst (`docs/toolkits.md`).
                        if walking {
                            let _ = engine
                                .backend()
                                .node(&node.id, crate::platform::Secrecy::NoText)
                                .await;
                        }
                        let line = format!("key {chord}");
                        match how.last_mut() {
                            // Repeats told once: "key Down x3".
                            Some(last) if last.split(" x").next() == Some(line.as_str()) => {
                                let times = last
                                    .rsplit_once(" x")
                                    .and_then(|(_, n)| n.parse::<u32>().ok())
                                    .unwrap_or(1);
                                *last = format!("{line} x{}", times + 1);
                            }
                            _ => how.push(line),
                        }
                    }
                    KeyInput::Text(text) => {
                        input.type_text(text).await.map_err(input_failure)?;
                        // Never the text itself: it may be a password.
                        how.push(format!("typed {text}"));
                    }
                }
            }
            Ok(how.join(", "))
        }
        Delivery::Pointer { button, double } => {
            let input = engine.wiring().input_device().map_err(NotSent::Refuse)?;
            let (x, y, note) = pointer_target(acting, subject).await?;
            acting.pointer_moved();
            input
                .click(x, y, *button, *double)
                .await
                .map_err(input_failure)?;
            Ok(format!(
                "pointer {}{} click at ({x}, {y}){note}",
                if *double { "double " } else { "" },
                match button {
                    MouseButton::Left => "left",
                    MouseButton::Middle => "middle",
                    MouseButton::Right => "right",
                },
            ))
        }
        Delivery::Wheel { direction, amount } => {
            let input = engine.wiring().input_device().map_err(NotSent::Refuse)?;
            let (x, y, note) = pointer_target(acting, subject).await?;
            acting.pointer_moved();
            input
                .scroll(x, y, *direction, *amount)
                .await
                .map_err(input_failure)?;
            Ok(format!("wheel {direction:?} x{amount} at ({x}, {y}){note}"))
        }
    }
}

/// Sends a native operation to `node` (the target, or an element the plan names).
async fn deliver_native(
    engine: &Engine,
    node: &crate::model::Node,
    route: &crate::platform::NativeRoute,
) -> std::result::Result<String, NotSent> {
    let (op, how) = (&route.op, route.how.clone());
    match engine.backend().perform(&node.id, op).await {
        Ok(Performed::Answered) => Ok(how),
        // The app runs it in a loop of its own (a modal dialog): read back what it did.
        Ok(Performed::Running { why }) => Ok(format!("{how} (no answer yet: {why})")),
        Err(e @ (BackendError::AppGone { .. } | BackendError::AppNotResponding { .. })) => {
            Err(NotSent::Fatal(e.into()))
        }
        Err(e) => Err(NotSent::Skip(format!("{how}: {e}"))),
    }
}

/// Where pointer input for the element goes: the centre of its live bounds, after its
/// window was raised and the point hit-tested. Returns the point and a note when the
/// app's hit test could not confirm it. Call with the input lock held.
async fn pointer_target(
    acting: &Acting<'_>,
    subject: &Subject,
) -> std::result::Result<(i32, i32, &'static str), NotSent> {
    let engine = acting.engine;
    let live = engine
        .backend()
        .node(&subject.node().id, subject.secrecy())
        .await
        .map_err(|e| NotSent::Fatal(e.into()))?;
    let bounds = match live.bounds {
        Some(b) if !b.is_empty() && !live.states.is_not(State::Showing) => b,
        _ => {
            return Err(NotSent::Refuse(Error::new(
                Code::Offscreen,
                format!("{} has no bounds on screen", subject.resolved.reference),
                "scroll it into view (`act` scroll_into_view) or open what contains it",
            )));
        }
    };
    let (x, y) = (bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
    let window = match open_popup_of(engine, subject).await {
        // An item of an open popup (a context menu) is on top already, in a window the
        // window system may not manage: raising its window would fail, or close it.
        Some(_) => match engine.backend().toplevel(&subject.node().id).await {
            Ok(window) => window,
            Err(_) => subject.session_root.clone(),
        },
        None => bring_to_front(acting, subject).await?,
    };
    let conclusive = check_hit(engine, subject, &window, x, y).await?;
    Ok((
        x,
        y,
        if conclusive {
            ""
        } else {
            " (the app's hit test could not confirm the point)"
        },
    ))
}

/// Raises the element's window and waits until it is active. Returns the window.
async fn bring_to_front(
    acting: &Acting<'_>,
    subject: &Subject,
) -> std::result::Result<ElementId, NotSent> {
    let engine = acting.engine;
    let system = engine.wiring().window_system().map_err(NotSent::Refuse)?;
    let node = subject.node();
    let window = match engine.backend().toplevel(&node.id).await {
        Ok(window) => window,
        Err(e @ BackendError::Defunct { .. }) => return Err(NotSent::Fatal(e.into())),
        // The element was just read, so it exists; its window is then the session's (for a
        // session on an app, its active one; a wrong guess is caught by the hit test before
        // any click).
        Err(_) if subject.session_root == subject.app => keys_window(engine, &subject.session)
            .await
            .map_err(NotSent::Fatal)?,
        Err(_) => subject.session_root.clone(),
    };
    let windows = engine
        .windows_of(&subject.app)
        .await
        .map_err(NotSent::Fatal)?;
    let window_id = windows
        .iter()
        .find(|w| w.id == window)
        .and_then(|w| w.system_id)
        .ok_or_else(|| not_foreground("the window system does not know its window".into()))?;
    acting
        .raise(system.as_ref(), window_id)
        .await
        .map_err(window_failure)?;
    Ok(window)
}

/// Gives the element keyboard focus (unless it has it) and waits until it reports it:
/// Component.GrabFocus, or for a text field that declines it (GTK 4.8), a click into the
/// field. Returns how focus was moved (None: it had focus already).
async fn focus_for_keys(
    acting: &Acting<'_>,
    subject: &Subject,
    window: &ElementId,
) -> std::result::Result<Option<FocusedBy>, NotSent> {
    let engine = acting.engine;
    let node = subject.node();
    if subject.window_level || node.states.is(State::Focused) {
        return Ok(None);
    }
    let focus = engine.backend().native_route(node, &NativeOp::Focus);
    let (op, how) = match focus {
        Ok(route) => (route.op, route.how),
        Err(why) => (NativeOp::Focus, why),
    };
    let why = match engine.backend().perform(&node.id, &op).await {
        Ok(_) => match wait_focus(engine, subject).await? {
            true => {
                return Ok(Some(FocusedBy {
                    how,
                    clicked: false,
                }));
            }
            false => "focus did not move to it".to_owned(),
        },
        Err(e) => format!("cannot focus it: {e}"),
    };
    if !takes_text(node.role) {
        return Err(NotSent::Skip(format!("{why}, so keys would go elsewhere")));
    }
    // A click into a text field only focuses it (and places the caret).
    let input = engine.wiring().input_device().map_err(NotSent::Refuse)?;
    let bounds = match node.bounds {
        Some(b) if !b.is_empty() => b,
        _ => {
            return Err(NotSent::Skip(format!(
                "{why}, and it has no bounds to click"
            )));
        }
    };
    let (x, y) = (bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
    check_hit(engine, subject, window, x, y).await?;
    acting.pointer_moved();
    input
        .click(x, y, MouseButton::Left, false)
        .await
        .map_err(input_failure)?;
    match wait_focus(engine, subject).await? {
        true => Ok(Some(FocusedBy {
            how: "a click into it".to_owned(),
            clicked: true,
        })),
        false => Err(NotSent::Skip(format!(
            "{why}; a click into it did not focus it either"
        ))),
    }
}

/// Opens the element's list by its own action, when the backend has one for it; says
/// how.
async fn open_list(engine: &Engine, node: &crate::model::Node) -> Option<String> {
    let route = engine
        .backend()
        .native_route(node, &NativeOp::Expand)
        .ok()?;
    engine.backend().perform(&node.id, &route.op).await.ok()?;
    Some(route.how)
}

/// Waits until the element reports focus (true), or not within `FOCUS_WAIT` (false). A
/// toolkit that does not report focus at all counts as focused.
async fn wait_focus(engine: &Engine, subject: &Subject) -> std::result::Result<bool, NotSent> {
    let deadline = Instant::now() + FOCUS_WAIT;
    loop {
        let now = engine
            .backend()
            .node(&subject.node().id, subject.secrecy())
            .await
            .map_err(|e| NotSent::Fatal(e.into()))?;
        match now.states.get(State::Focused) {
            Some(true) | None => return Ok(true),
            Some(false) if Instant::now() >= deadline => return Ok(false),
            Some(false) => tokio::time::sleep(POLL).await,
        }
    }
}

/// Refuses pointer input at (x, y) when the point hit-tests to something that is neither
/// the element, a descendant, nor an ancestor. Returns false when the app's hit test was
/// inconclusive (it stopped at an ancestor or found nothing: GTK 4.8 finds no entries),
/// which is no proof that anything covers the element.
async fn check_hit(
    engine: &Engine,
    subject: &Subject,
    window: &ElementId,
    x: i32,
    y: i32,
) -> std::result::Result<bool, NotSent> {
    // An item of an open popup menu lies over the window, in a popup that the window's
    // own hit test does not reach (GTK 3): test from the popup.
    let scope = match open_popup_of(engine, subject).await {
        Some(popup) => popup,
        None => window.clone(),
    };
    let chain = engine
        .backend()
        .hit_test(&scope, x, y)
        .await
        .map_err(|e| NotSent::Fatal(e.into()))?;
    let target = &subject.node().id;
    if chain.iter().any(|n| &n.id == target) {
        return Ok(true);
    }
    let Some(deepest) = chain.last() else {
        return Ok(false);
    };
    // Qt hands out a new object for a table cell at each query: the same role, name and
    // place is the same cell.
    let node = subject.node();
    if deepest.role == node.role
        && deepest.name == node.name
        && deepest.bounds.is_some()
        && deepest.bounds == node.bounds
    {
        return Ok(true);
    }
    if ancestors(engine, target, window)
        .await
        .contains(&deepest.id)
    {
        return Ok(false);
    }
    let what = format!(
        "{} {}",
        deepest.role,
        crate::escape::quoted(deepest.display_name(), 100)
    );
    Err(NotSent::Refuse(Error::new(
        Code::Obscured,
        format!(
            "{} at ({x}, {y}) is covered: the point hits {what}",
            subject.resolved.reference
        ),
        "close what covers it (a popup, a dialog) or scroll it into view, then retry",
    )))
}

/// The element's ancestors up to (and with) `window`; best effort.
async fn ancestors(engine: &Engine, id: &ElementId, window: &ElementId) -> Vec<ElementId> {
    let mut out = Vec::new();
    let mut current = id.clone();
    for _ in 0..64 {
        match engine.backend().parent(&current).await {
            Ok(Some(parent)) => {
                out.push(parent.clone());
                if &parent == window {
                    break;
                }
                current = parent;
            }
            _ => break,
        }
    }
    out
}
