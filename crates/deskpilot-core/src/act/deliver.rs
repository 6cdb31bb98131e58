//! Delivering one rung: a native operation through the backend, keys after the element's
//! window is raised and the element focused, pointer input at its live bounds after a hit
//! test. Says how it was done, or why it was not (skip, refuse, stop).

use std::time::Duration;

use tokio::time::Instant;

use super::action::{MouseButton, NativeOp};
use super::plan::{Attempt, Delivery, KeyInput};
use super::subject::Subject;
use crate::engine::Engine;
use crate::error::{Code, Error};
use crate::model::{ElementId, Role, State};
use crate::platform::{BackendError, InputError, Performed, WindowError};

/// Longest wait for focus to arrive before keys are sent.
const FOCUS_WAIT: Duration = Duration::from_millis(800);
/// Time between two reads of the focus.
const POLL: Duration = Duration::from_millis(40);

/// Why a rung was not carried out.
pub(super) enum NotSent {
    /// Not possible here; the next rung may be.
    Skip(String),
    /// Refused with a code (kept as the failure when no later rung works).
    Refuse(Error),
    /// The app is gone or frozen: stop.
    Fatal(Error),
}

/// How the element was given the focus before keys.
struct FocusedBy {
    how: String,
    /// By a click into it (which also opens a combo box's list).
    clicked: bool,
}

impl Engine {
    /// Sends one rung. Returns how it was done.
    pub(super) async fn deliver(
        &self,
        subject: &Subject,
        attempt: &Attempt,
    ) -> std::result::Result<String, NotSent> {
        let node = subject.node();
        match &attempt.delivery {
            Delivery::Native(route) => self.deliver_native(node, route).await,
            Delivery::NativeOn { element, route } => self.deliver_native(element, route).await,
            Delivery::Keys(inputs) => {
                let input = self.wiring().input_device().map_err(NotSent::Refuse)?;
                let window = self.bring_to_front(subject).await?;
                let mut how = vec![];
                let opened = match inputs.first() {
                    Some(KeyInput::OpenList(_)) => self.open_list(node).await,
                    _ => None,
                };
                let focused_by = match &opened {
                    Some(by) => {
                        how.push(format!("open by {by}"));
                        None
                    }
                    None => self.focus_for_keys(subject, &window).await?,
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
                            if self
                                .backend()
                                .perform(&node.id, &NativeOp::CaretToEnd)
                                .await
                                .is_ok()
                            {
                                how.push("caret to the end".to_owned());
                            } else {
                                let end = self.backend().edit_keys().caret_to_end;
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
                            if !self.list_shown(subject).await {
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
                let input = self.wiring().input_device().map_err(NotSent::Refuse)?;
                let (x, y, note) = self.pointer_target(subject).await?;
                super::interaction::pointer_moved();
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
                let input = self.wiring().input_device().map_err(NotSent::Refuse)?;
                let (x, y, note) = self.pointer_target(subject).await?;
                super::interaction::pointer_moved();
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
        &self,
        node: &crate::model::Node,
        route: &crate::platform::NativeRoute,
    ) -> std::result::Result<String, NotSent> {
        let (op, how) = (&route.op, route.how.clone());
        match self.backend().perform(&node.id, op).await {
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
        &self,
        subject: &Subject,
    ) -> std::result::Result<(i32, i32, &'static str), NotSent> {
        let live = self
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
        let window = match self.open_popup_of(subject).await {
            // An item of an open popup (a context menu) is on top already, in a window the
            // window system may not manage: raising its window would fail, or close it.
            Some(_) => match self.backend().toplevel(&subject.node().id).await {
                Ok(window) => window,
                Err(_) => subject.session_root.clone(),
            },
            None => self.bring_to_front(subject).await?,
        };
        let conclusive = self.check_hit(subject, &window, x, y).await?;
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
    async fn bring_to_front(&self, subject: &Subject) -> std::result::Result<ElementId, NotSent> {
        let system = self.wiring().window_system().map_err(NotSent::Refuse)?;
        let node = subject.node();
        let window = match self.backend().toplevel(&node.id).await {
            Ok(window) => window,
            Err(e @ BackendError::Defunct { .. }) => return Err(NotSent::Fatal(e.into())),
            // The element was just read, so it exists; its window is then the session's (for a
            // session on an app, its active one; a wrong guess is caught by the hit test before
            // any click).
            Err(_) if subject.session_root == subject.app => self
                .keys_window(&subject.session)
                .await
                .map_err(NotSent::Fatal)?,
            Err(_) => subject.session_root.clone(),
        };
        let windows = self
            .windows_of(&subject.app)
            .await
            .map_err(NotSent::Fatal)?;
        let window_id = windows
            .iter()
            .find(|w| w.id == window)
            .and_then(|w| w.system_id)
            .ok_or_else(|| not_foreground("the window system does not know its window".into()))?;
        super::interaction::raise(system.as_ref(), window_id)
            .await
            .map_err(window_failure)?;
        Ok(window)
    }

    /// Gives the element keyboard focus (unless it has it) and waits until it reports it:
    /// Component.GrabFocus, or for a text field that declines it (GTK 4.8), a click into the
    /// field. Returns how focus was moved (None: it had focus already).
    async fn focus_for_keys(
        &self,
        subject: &Subject,
        window: &ElementId,
    ) -> std::result::Result<Option<FocusedBy>, NotSent> {
        let node = subject.node();
        if subject.window_level || node.states.is(State::Focused) {
            return Ok(None);
        }
        let focus = self.backend().native_route(node, &NativeOp::Focus);
        let (op, how) = match focus {
            Ok(route) => (route.op, route.how),
            Err(why) => (NativeOp::Focus, why),
        };
        let why = match self.backend().perform(&node.id, &op).await {
            Ok(_) => match self.wait_focus(subject).await? {
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
        let input = self.wiring().input_device().map_err(NotSent::Refuse)?;
        let bounds = match node.bounds {
            Some(b) if !b.is_empty() => b,
            _ => {
                return Err(NotSent::Skip(format!(
                    "{why}, and it has no bounds to click"
                )));
            }
        };
        let (x, y) = (bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
        self.check_hit(subject, window, x, y).await?;
        super::interaction::pointer_moved();
        input
            .click(x, y, MouseButton::Left, false)
            .await
            .map_err(input_failure)?;
        match self.wait_focus(subject).await? {
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
    async fn open_list(&self, node: &crate::model::Node) -> Option<String> {
        let route = self.backend().native_route(node, &NativeOp::Expand).ok()?;
        self.backend().perform(&node.id, &route.op).await.ok()?;
        Some(route.how)
    }

    /// Waits until the element reports focus (true), or not within `FOCUS_WAIT` (false). A
    /// toolkit that does not report focus at all counts as focused.
    async fn wait_focus(&self, subject: &Subject) -> std::result::Result<bool, NotSent> {
        let deadline = Instant::now() + FOCUS_WAIT;
        loop {
            let now = self
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
        &self,
        subject: &Subject,
        window: &ElementId,
        x: i32,
        y: i32,
    ) -> std::result::Result<bool, NotSent> {
        // An item of an open popup menu lies over the window, in a popup that the window's
        // own hit test does not reach (GTK 3): test from the popup.
        let scope = match self.open_popup_of(subject).await {
            Some(popup) => popup,
            None => window.clone(),
        };
        let chain = self
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
        if self.ancestors(target, window).await.contains(&deepest.id) {
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
    async fn ancestors(&self, id: &ElementId, window: &ElementId) -> Vec<ElementId> {
        let mut out = Vec::new();
        let mut current = id.clone();
        for _ in 0..64 {
            match self.backend().parent(&current).await {
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
}

/// Roles a click focuses without doing anything else.
fn takes_text(role: Role) -> bool {
    matches!(
        role,
        Role::TextBox | Role::Password | Role::SpinButton | Role::ComboBox
    )
}

fn not_foreground(why: String) -> NotSent {
    NotSent::Refuse(Error::new(
        Code::WindowNotForeground,
        format!("cannot bring the element's window to the front: {why}"),
        "activate the window (`window_action` activate) or close what holds the focus, then retry",
    ))
}

/// How a failure of the window system ends a rung.
fn window_failure(error: WindowError) -> NotSent {
    match error {
        WindowError::NotForeground { .. } => not_foreground(error.to_string()),
        WindowError::Unavailable(_) => NotSent::Refuse(Error::input_unavailable(error.to_string())),
        WindowError::Denied { .. } => NotSent::Refuse(Error::access_denied(error.to_string())),
        WindowError::Failed(_) => NotSent::Fatal(Error::new(
            Code::Backend,
            error.to_string(),
            "the window system failed; retry, or restart deskpilot",
        )),
    }
}

fn input_failure(error: InputError) -> NotSent {
    match error {
        InputError::Unavailable(_) => NotSent::Refuse(Error::input_unavailable(error.to_string())),
        InputError::Denied { .. } => NotSent::Refuse(Error::access_denied(error.to_string())),
        InputError::Untypable(_) => NotSent::Skip(error.to_string()),
        InputError::Display(_) => NotSent::Fatal(Error::new(
            Code::Backend,
            error.to_string(),
            "the display server failed; retry, or restart deskpilot",
        )),
        InputError::Incomplete { .. } => NotSent::Fatal(Error::new(
            Code::InputIncomplete,
            error.to_string(),
            "part of the text was typed: read the field (`get_properties`), then type only what is missing, or replace it all with `set_value`; do not repeat the call",
        )),
    }
}
