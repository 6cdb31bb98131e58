//! Runs an action's ladder: each rung in turn, the effect read back after the tree settles,
//! the next rung only after a no-op of an action that is safe to repeat.

use std::time::{Duration, Instant};

use super::action::{Action, NativeOp, OnOff};
use super::input::InputError;
use super::keys::{Chord, Key, Modifier, NamedKey};
use super::observe::{
    Observation, ObservedWindow, changes, changes_with_refs, foreground_changed, value_text,
};
use super::plan::{Expect, KeyInput, Send, Step, is_on, plan};
use super::report::{ActionReport, Effect, Route, Skipped, rung_name};
use super::text::InputText;
use crate::backend::{BackendError, Secrecy, WalkLimits};
use crate::engine::{Engine, Resolved, Target};
use crate::error::{Code, Error, Result};
use crate::model::{ElementId, Interface, Node, NodeValue, Role, State};

/// Longest wait for an expected postcondition (returns as soon as it holds).
const EXPECT_WAIT: Duration = Duration::from_millis(1500);
/// How long to look for any change when the action has no postcondition of its own.
const ANY_WAIT: Duration = Duration::from_millis(600);
/// Time between two read-backs.
const POLL: Duration = Duration::from_millis(40);
/// An app whose events report every change and that sent none for this long after a click
/// with no postcondition of its own is done reacting to it. Not less: a GTK file chooser's Save
/// checks the file asynchronously and closes some 300 ms after the click, sending nothing in
/// between (150 ms ended the wait before it closed).
const QUIET: Duration = Duration::from_millis(400);
/// The note of a selection the toolkit does not report on its own container.
const NO_SELECTION_STATE: &str =
    "the toolkit reports no selection here: the effect cannot be read back";
/// Longest wait for focus to arrive before keys are sent.
const FOCUS_WAIT: Duration = Duration::from_millis(800);

/// Why a rung was not carried out.
enum NotSent {
    /// Not possible here; the next rung may be.
    Skip(String),
    /// Refused with a code (kept as the failure when no later rung works).
    Refuse(Error),
    /// The app is gone or frozen: stop.
    Fatal(Error),
}

/// What the read-back after a rung saw.
enum Verdict {
    Met(Observation),
    /// No postcondition of its own, and something changed.
    Changed(Observation),
    /// Nothing expected was seen: before the deadline, or (`quiet`) before the app's events
    /// said it was done.
    Missed {
        after: Observation,
        quiet: bool,
    },
}

/// The element an action works on, with what the rungs need to know about it.
pub(super) struct Subject {
    pub(super) resolved: Resolved,
    /// The root of the app the element belongs to.
    pub(super) app: ElementId,
    /// The subject is the session's window itself (keys sent to the window, nothing to focus).
    pub(super) window_level: bool,
    /// The window the session works on (for a session on an app, the app): the element's
    /// window when the app cannot say which is (a parent walk that ends short of the app).
    pub(super) session_root: ElementId,
    /// The session acting (refs of windows that open go to it).
    pub(super) session: String,
}

impl Subject {
    pub(super) fn node(&self) -> &Node {
        &self.resolved.node
    }

    pub(super) fn secrecy(&self) -> Secrecy {
        Secrecy::of(self.resolved.secret)
    }
}

impl Engine {
    /// Does `action` on `target`, through the first rung of its ladder that has an effect,
    /// and reports the route, the rungs skipped, and the effect read back.
    pub async fn act(
        &self,
        session: &str,
        target: &Target,
        action: &Action,
    ) -> Result<ActionReport> {
        // Held from resolving the target to the last read-back: the plan starts from the
        // element as it is, and another session's input can neither land between this
        // action's keys nor confirm its effect.
        let _input = self.input_lock().await;
        let resolved = self.resolve(session, target).await?;
        let info = self.session(session)?;
        self.run_ladder(
            Subject {
                resolved,
                app: info.app.id,
                window_level: false,
                session_root: info.root,
                session: session.to_owned(),
            },
            action,
        )
        .await
    }

    /// Does `action` on the session's window itself (keys with no element to focus first).
    pub async fn act_on_window(&self, session: &str, action: &Action) -> Result<ActionReport> {
        let _input = self.input_lock().await;
        let info = self.session(session)?;
        // Never the application object: the session's active window (or the one last active,
        // brought to the front by the ladder).
        let window = self.keys_window(session).await?;
        let node = self.backend().node(&window, Secrecy::Plain).await?;
        let reference = self
            .lock_ref(session, &node)
            .unwrap_or_else(|| "window".into());
        let subject = Subject {
            resolved: Resolved {
                reference,
                node,
                secret: false,
            },
            app: info.app.id,
            window_level: true,
            session_root: window,
            session: session.to_owned(),
        };
        self.run_ladder(subject, action).await
    }

    /// Climbs the ladder, then maps back the keys that typing secret text remapped. Call with
    /// the input lock held.
    async fn run_ladder(&self, subject: Subject, action: &Action) -> Result<ActionReport> {
        let secret = subject.resolved.secret || subject.node().is_secret() || action.secret();
        let mut result = self.climb(subject, action).await;
        // Only after secret text: remapping keys again makes some apps (Firefox) handle the
        // next key late, out of order; ordinary text left in the keymap tells nothing new.
        if secret
            && matches!(action, Action::TypeText(_) | Action::SetValue(_))
            && let Ok(input) = self.input_device()
            && let Err(e) = input.restore_keymap().await
            && let Ok(report) = &mut result
        {
            let note = format!("the keys remapped for typing could not be restored: {e}");
            report.note = Some(match report.note.take() {
                Some(before) => format!("{before}; {note}"),
                None => note,
            });
        }
        result
    }

    /// For typing into a field that has focus already: the text it should then hold, from its
    /// caret and selection (the typed text replaces the selection, else goes in at the caret).
    /// Without them, `Contains`, which never confirms.
    async fn typed_text_expected(&self, subject: &Subject, action: &Action) -> Option<Expect> {
        let Action::TypeText(typed) = action else {
            return None;
        };
        let node = subject.node();
        let Some(NodeValue::Text { text: now }) = &node.value else {
            return None;
        };
        if subject.window_level || !node.states.is(State::Focused) {
            return None;
        }
        let caret = self.backend().caret(&node.id).await.ok().flatten()?;
        let (start, end) = caret.selection.unwrap_or((caret.offset, caret.offset));
        let chars: Vec<char> = now.chars().collect();
        let (start, end) = (start as usize, end as usize);
        if start > end || end > chars.len() {
            return None;
        }
        let mut expected: String = chars[..start].iter().collect();
        expected.push_str(typed.expose());
        expected.extend(&chars[end..]);
        Some(Expect::Text(InputText::plain(expected)))
    }

    /// The ladder itself: the first rung that has an effect, read back.
    async fn climb(&self, mut subject: Subject, action: &Action) -> Result<ActionReport> {
        if action.secret() && !subject.resolved.secret {
            // Text the caller keeps secret: the field is read as a password field from here on
            // (its length only), so that no report shows what it holds.
            subject.resolved.node = self
                .backend()
                .node(&subject.node().id, Secrecy::InsideSecret)
                .await?;
            subject.resolved.secret = true;
        }
        preflight(action, &subject)?;
        let shown_note = self.ensure_shown(&mut subject, action).await?;
        let reference = subject.resolved.reference.clone();
        if let Action::Toggle { ensure: Some(_) } = action {
            // Whether it already holds is read afresh, not taken from the walk that found it
            // (a kept identity may lag an event behind).
            subject.resolved.node = self
                .backend()
                .node(&subject.node().id, subject.secrecy())
                .await?;
        }
        if let Action::Toggle { ensure: Some(want) } = action
            && is_on(subject.node()) == Some(*want == OnOff::On)
        {
            let state = if *want == OnOff::On { "on" } else { "off" };
            return Ok(nothing_sent(action, reference, format!("already {state}")));
        }
        let mut plan = plan(action, subject.node());
        if let Some(expect) = self.typed_text_expected(&subject, action).await {
            plan.expect = expect;
        }
        let mut unreported = None;
        if matches!(
            plan.expect,
            Expect::State {
                state: State::Selected,
                ..
            }
        ) && !self.selection_reported(&subject).await
        {
            plan.expect = Expect::AnyChange;
            unreported = Some(NO_SELECTION_STATE);
        }
        let before = self.observe(&subject, &plan.expect).await?;
        // The postcondition, when it held before the action (then only another change counts,
        // and only while it still holds).
        let mut held_before: Option<Expect> = None;
        // A postcondition confirms only what the action did: one that already held says
        // nothing. Where holding it is the whole point (an idempotent verb), nothing is sent.
        if plan.expect != Expect::AnyChange && met(&plan.expect, &before) {
            if nothing_to_do_when_held(action) {
                let held = format!("{} already", expected(&plan.expect));
                return Ok(nothing_sent(action, reference, held));
            }
            unreported =
                Some("its postcondition already held before: only another change confirms it");
            held_before = Some(std::mem::replace(&mut plan.expect, Expect::AnyChange));
        }
        let mut skipped: Vec<Skipped> = plan.skipped.clone();
        let mut refusal: Option<Error> = None;
        for step in &plan.steps {
            let how = match self.send(&subject, step).await {
                Ok(how) => how,
                Err(NotSent::Skip(why)) => {
                    skipped.push(Skipped {
                        rung: step.rung,
                        why,
                    });
                    continue;
                }
                Err(NotSent::Refuse(error)) => {
                    skipped.push(Skipped {
                        rung: step.rung,
                        why: format!("{}: {}", error.code.name(), error.message),
                    });
                    refusal = Some(error);
                    continue;
                }
                Err(NotSent::Fatal(error)) => return Err(error),
            };
            let route = Route {
                rung: step.rung,
                how,
            };
            let (effect, after, note) = match self
                .settle(&subject, action, &plan.expect, &before)
                .await?
            {
                Verdict::Met(after) => (Effect::Confirmed, after, None),
                Verdict::Changed(after) => match &held_before {
                    // It held before and the action undid it: nothing to confirm.
                    Some(held) if !met(held, &after) => (
                        Effect::Unverified,
                        after,
                        Some(format!(
                            "{} held before, and no longer does",
                            expected(held)
                        )),
                    ),
                    // A selection seen after all needs no excuse.
                    _ if unreported == Some(NO_SELECTION_STATE)
                        && changes(&before, &after)
                            .iter()
                            .any(|c| c.starts_with("selected:")) =>
                    {
                        (Effect::Confirmed, after, None)
                    }
                    _ => (Effect::Confirmed, after, unreported.map(str::to_owned)),
                },
                Verdict::Missed { after, quiet } => {
                    if let Some(error) = clamped(action, &before, &after) {
                        return Err(error);
                    }
                    if plan.expect == Expect::AnyChange {
                        let mut note = unreported
                            .unwrap_or(
                                "sent; nothing visible changed on the element or the app's windows",
                            )
                            .to_owned();
                        if quiet {
                            note.push_str(" (the app's events said it was done)");
                        }
                        (Effect::Unverified, after, Some(note))
                    } else if matches!(action, Action::SetValue(_))
                        && value_moved(&plan.expect, &before, &after)
                    {
                        // A wrong effect is its own outcome: never "no effect", never
                        // another rung on top of it.
                        return Err(Error::new(
                            Code::UnexpectedEffect,
                            format!(
                                "{} {reference}: the element changed, but not to {} ({}), via {}",
                                action.verb(),
                                expected(&plan.expect),
                                changes(&before, &after).join("; "),
                                route.how
                            ),
                            "read the element with get_properties: it holds something else than asked; set it again (perhaps other text or another way) only after checking",
                        ));
                    } else if action.safe_to_repeat() {
                        skipped.push(Skipped {
                            rung: step.rung,
                            why: format!("{}: no effect ({})", route.how, expected(&plan.expect)),
                        });
                        continue;
                    } else {
                        let seen = changes(&before, &after);
                        let effect = if seen.is_empty() {
                            Effect::Noop
                        } else {
                            Effect::Unverified
                        };
                        (
                            effect,
                            after,
                            Some(format!(
                                "{} not seen; not sent again (repeating it is not safe)",
                                expected(&plan.expect)
                            )),
                        )
                    }
                }
            };
            let note = match (shown_note.clone(), note) {
                (Some(first), Some(rest)) => Some(format!("{first}; {rest}")),
                (first, rest) => first.or(rest),
            };
            return Ok(ActionReport {
                verb: action.verb(),
                reference,
                route: Some(route),
                skipped,
                effect,
                changes: changes_with_refs(&before, &after, &|window| {
                    self.window_ref(&subject.session, window)
                }),
                foreground_changed: foreground_changed(&before, &after),
                note,
            });
        }
        let tried = skipped
            .iter()
            .map(|s| format!("{}: {}", rung_name(s.rung), s.why))
            .collect::<Vec<_>>()
            .join("; ");
        Err(match refusal {
            Some(mut error) => {
                error.message = format!("{} ({tried})", error.message);
                error
            }
            None => Error::new(
                Code::NoEffect,
                format!(
                    "{} {reference}: no route had an effect ({tried})",
                    action.verb()
                ),
                "check the element's state with get_properties; it may need another action first (open its menu, scroll it into view)",
            ),
        })
    }

    /// Sends one rung. Returns how it was done.
    async fn send(&self, subject: &Subject, step: &Step) -> std::result::Result<String, NotSent> {
        let node = subject.node();
        match &step.send {
            Send::Native(op) => {
                let how = describe(op);
                if let Some(why) = self.backend().semantic_trap(node, op) {
                    return Err(NotSent::Skip(format!("{how}: {why}")));
                }
                match self.backend().perform(&node.id, op).await {
                    Ok(()) => Ok(how),
                    // A handler that runs a modal loop (GTK 3's gtk_dialog_run behind a menu
                    // item) answers the call only once the dialog closes. When the app still
                    // answers other calls, the action is running: read back what it did.
                    Err(BackendError::AppNotResponding { .. })
                        if matches!(op, NativeOp::DoAction(_))
                            && self.backend().app(&subject.app).await.is_ok() =>
                    {
                        Ok(format!(
                            "{how} (no answer yet: the app runs it in a modal loop)"
                        ))
                    }
                    Err(
                        e @ (BackendError::AppGone { .. } | BackendError::AppNotResponding { .. }),
                    ) => Err(NotSent::Fatal(e.into())),
                    Err(e) => Err(NotSent::Skip(format!("{how}: {e}"))),
                }
            }
            Send::Keys(inputs) => {
                let input = self.input_device().map_err(NotSent::Refuse)?;
                let window = self.bring_to_front(subject).await?;
                let focused_by = self.focus_for_keys(subject, &window).await?;
                let focused_here = focused_by.is_some();
                let mut how = vec![];
                if let Some(by) = focused_by {
                    how.push(format!("focus by {by}"));
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
                                let end: Chord = Chord {
                                    modifiers: vec![Modifier::Ctrl],
                                    key: Key::Named(NamedKey::End),
                                };
                                input.press(&end).await.map_err(input_failure)?;
                                how.push("key ctrl+End".to_owned());
                            }
                        }
                        KeyInput::Chord(chord) => {
                            input.press(chord).await.map_err(input_failure)?;
                            how.push(format!("key {chord}"));
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
            Send::Pointer { button, double } => {
                let input = self.input_device().map_err(NotSent::Refuse)?;
                let (x, y, note) = self.pointer_target(subject).await?;
                input
                    .click(x, y, *button, *double)
                    .await
                    .map_err(input_failure)?;
                Ok(format!(
                    "pointer {}{} click at ({x}, {y}){note}",
                    if *double { "double " } else { "" },
                    match button {
                        super::action::MouseButton::Left => "left",
                        super::action::MouseButton::Middle => "middle",
                        super::action::MouseButton::Right => "right",
                    },
                ))
            }
            Send::Wheel { direction, amount } => {
                let input = self.input_device().map_err(NotSent::Refuse)?;
                let (x, y, note) = self.pointer_target(subject).await?;
                input
                    .scroll(x, y, *direction, *amount)
                    .await
                    .map_err(input_failure)?;
                Ok(format!("wheel {direction:?} x{amount} at ({x}, {y}){note}"))
            }
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
                    "scroll it into view (act scroll_into_view) or open what contains it",
                )));
            }
        };
        let (x, y) = (bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
        let window = self.bring_to_front(subject).await?;
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
        let input = self.input_device().map_err(NotSent::Refuse)?;
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
        let xid = windows
            .iter()
            .find(|w| w.id == window)
            .and_then(|w| w.x11_window)
            .ok_or_else(|| not_foreground("the window system does not know its window".into()))?;
        input.activate_window(xid).await.map_err(input_failure)?;
        Ok(window)
    }

    /// Gives the element keyboard focus (unless it has it) and waits until it reports it:
    /// Component.GrabFocus, or for a text field that declines it (GTK 4.8), a click into the
    /// field. Returns how focus was moved (None: it had focus already).
    async fn focus_for_keys(
        &self,
        subject: &Subject,
        window: &ElementId,
    ) -> std::result::Result<Option<&'static str>, NotSent> {
        let node = subject.node();
        if subject.window_level || node.states.is(State::Focused) {
            return Ok(None);
        }
        let why = match self.backend().perform(&node.id, &NativeOp::GrabFocus).await {
            Ok(()) => match self.wait_focus(subject).await? {
                true => return Ok(Some("Component.GrabFocus")),
                false => "focus did not move to it".to_owned(),
            },
            Err(e) => format!("cannot focus it: {e}"),
        };
        if !takes_text(node.role) {
            return Err(NotSent::Skip(format!("{why}, so keys would go elsewhere")));
        }
        // A click into a text field only focuses it (and places the caret).
        let input = self.input_device().map_err(NotSent::Refuse)?;
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
        input
            .click(x, y, super::action::MouseButton::Left, false)
            .await
            .map_err(input_failure)?;
        match self.wait_focus(subject).await? {
            true => Ok(Some("a click into it")),
            false => Err(NotSent::Skip(format!(
                "{why}; a click into it did not focus it either"
            ))),
        }
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

    /// Whether the toolkit reports selection among the element's siblings at all (some
    /// sibling, or the element, is `selected`). Qt's page tabs never say which is current.
    async fn selection_reported(&self, subject: &Subject) -> bool {
        let node = subject.node();
        if node.states.is(State::Selected) {
            return true;
        }
        let Ok(Some(parent)) = self.backend().parent(&node.id).await else {
            return true; // cannot tell: keep the postcondition
        };
        let limits = WalkLimits {
            max_nodes: 500,
            max_depth: 1,
            ..WalkLimits::with_timeout(Duration::from_secs(2))
        };
        match self.backend().snapshot(&parent, &limits).await {
            Ok(tree) => tree
                .nodes
                .iter()
                .skip(1)
                .any(|n| n.node.states.is(State::Selected)),
            Err(_) => true,
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
        let what = format!("{} {:?}", deepest.role, deepest.display_name());
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

    /// Reads the target, the app's windows and the active window.
    async fn observe(&self, subject: &Subject, expect: &Expect) -> Result<Observation> {
        let node = subject.node();
        let target = match self.backend().node(&node.id, subject.secrecy()).await {
            Ok(n) => Some(n),
            Err(BackendError::Defunct { .. }) | Err(BackendError::AppGone { .. }) => None,
            Err(e) => return Err(e.into()),
        };
        let windows = match self.windows_of(&subject.app).await {
            Ok(windows) => windows
                .into_iter()
                .map(|w| ObservedWindow {
                    minimized: w.is_minimized(),
                    id: w.id,
                    role: w.role,
                    title: w.title,
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        let active = match self.input_device() {
            Ok(input) => input.active_window().await.ok().flatten(),
            Err(_) => None,
        };
        let showing_items = if *expect == Expect::MenuOpen {
            let limits = WalkLimits {
                max_nodes: 200,
                max_depth: 1,
                ..WalkLimits::with_timeout(Duration::from_secs(2))
            };
            match self.backend().snapshot(&node.id, &limits).await {
                Ok(tree) => Some(
                    tree.nodes
                        .iter()
                        .skip(1)
                        .filter(|n| n.node.states.is(State::Showing))
                        .count(),
                ),
                Err(_) => None,
            }
        } else {
            None
        };
        Ok(Observation {
            target,
            windows,
            active,
            showing_items,
        })
    }

    /// Reads back until the postcondition holds (or, without one, until a change has held
    /// still), or the wait is over.
    async fn settle(
        &self,
        subject: &Subject,
        action: &Action,
        expect: &Expect,
        before: &Observation,
    ) -> Result<Verdict> {
        let started = Instant::now();
        // Keys often start work that sends no event for a while (Enter in a GTK file chooser
        // checks the file asynchronously, then closes it): only clicks end the wait on quiet.
        let may_end_quiet = !matches!(action, Action::PressKey(_) | Action::TypeText(_));
        let limit = if *expect == Expect::AnyChange {
            ANY_WAIT
        } else {
            EXPECT_WAIT
        };
        let mut last: Option<Observation> = None;
        let mut asked_quiet = false;
        loop {
            let now = self.observe(subject, expect).await?;
            if *expect != Expect::AnyChange && met(expect, &now) {
                return Ok(Verdict::Met(now));
            }
            let changed = !evidence(before, &now).is_empty();
            if *expect == Expect::AnyChange && changed {
                // Changed: wait until two reads agree (the tree held still).
                if last.as_ref() == Some(&now) || started.elapsed() >= limit * 2 {
                    return Ok(Verdict::Changed(now));
                }
            } else if *expect == Expect::AnyChange && !asked_quiet && may_end_quiet {
                // Nothing seen yet: where the app's events report every change, a quiet app
                // is done (one more look, after the quiet spell, decides).
                asked_quiet = true;
                let within = limit.saturating_sub(started.elapsed());
                if self.backend().quiet(&subject.app, QUIET, within).await == Some(true) {
                    let now = self.observe(subject, expect).await?;
                    if evidence(before, &now).is_empty() {
                        return Ok(Verdict::Missed {
                            after: now,
                            quiet: true,
                        });
                    }
                    last = Some(now);
                    continue;
                }
            } else if started.elapsed() >= limit {
                return Ok(Verdict::Missed {
                    after: now,
                    quiet: false,
                });
            }
            last = Some(now);
            tokio::time::sleep(POLL).await;
        }
    }
}

/// Roles a click focuses without doing anything else.
fn takes_text(role: Role) -> bool {
    matches!(
        role,
        Role::TextBox | Role::Password | Role::SpinButton | Role::ComboBox
    )
}

/// Refusals that need no input: a disabled element, a field that takes no text.
fn preflight(action: &Action, subject: &Subject) -> Result<()> {
    let node = subject.node();
    let reference = &subject.resolved.reference;
    if node.states.is_not(State::Enabled) && *action != Action::ScrollIntoView {
        return Err(Error::new(
            Code::Disabled,
            format!(
                "{reference} ({} {:?}) is disabled",
                node.role,
                node.display_name()
            ),
            "wait until it is enabled (wait_for state enabled), or do what enables it first",
        ));
    }
    match action {
        Action::SetValue(super::action::ValueInput::Text(_)) => {
            let takes_text = node.interfaces.contains(Interface::EditableText)
                || node.states.is(State::Editable);
            if !takes_text || node.states.is(State::ReadOnly) {
                return Err(Error::new(
                    Code::NotEditable,
                    format!(
                        "{reference} ({} {:?}) does not take text",
                        node.role,
                        node.display_name()
                    ),
                    "set_value needs an editable field; use click or act on other controls",
                ));
            }
        }
        Action::SetValue(super::action::ValueInput::Number(_)) => {
            let takes_number = node.interfaces.contains(Interface::Value)
                || node.interfaces.contains(Interface::EditableText);
            if !takes_number || node.states.is(State::ReadOnly) {
                return Err(Error::new(
                    Code::NotEditable,
                    format!(
                        "{reference} ({} {:?}) does not take a number",
                        node.role,
                        node.display_name()
                    ),
                    "set a number on a slider, spin button or text field",
                ));
            }
        }
        Action::Activate(name) if !node.actions.iter().any(|a| a == name) => {
            return Err(Error::new(
                Code::Unsupported,
                format!(
                    "{reference} has no action {name:?} (it offers: {})",
                    if node.actions.is_empty() {
                        "none".to_owned()
                    } else {
                        node.actions.join(", ")
                    }
                ),
                "use one of the actions it offers (get_properties lists them)",
            ));
        }
        _ => {}
    }
    Ok(())
}

fn bound(value: Option<f64>) -> String {
    value.map_or_else(|| "unknown".to_owned(), |v| v.to_string())
}

/// A number that read back different from the one set, when the app was asked outright.
fn clamped(action: &Action, before: &Observation, after: &Observation) -> Option<Error> {
    let Action::SetValue(super::action::ValueInput::Number(wanted)) = action else {
        return None;
    };
    let Some(Node {
        value: Some(NodeValue::Number {
            current, min, max, ..
        }),
        ..
    }) = &after.target
    else {
        return None;
    };
    let outside = min.is_some_and(|m| *wanted < m) || max.is_some_and(|m| *wanted > m);
    let moved =
        before.target.as_ref().and_then(value_text) != after.target.as_ref().and_then(value_text);
    (outside || moved).then(|| {
        Error::new(
            Code::ValueClamped,
            format!(
                "asked for {wanted}, the app kept {current} (range {} to {})",
                bound(*min),
                bound(*max)
            ),
            "choose a value within the range",
        )
    })
}

fn met(expect: &Expect, now: &Observation) -> bool {
    let Some(node) = &now.target else {
        return false;
    };
    match expect {
        Expect::AnyChange => false,
        Expect::OnOff(want) => is_on(node) == Some(*want),
        Expect::Flipped(was) => is_on(node).is_some() && is_on(node) != *was,
        Expect::State { state, on } => node.states.get(*state) == Some(*on),
        Expect::Text(text) => {
            matches!(&node.value, Some(NodeValue::Text { text: t }) if t == text.expose())
        }
        Expect::Chars(n) => {
            matches!(node.value, Some(NodeValue::Redacted { chars: Some(c) }) if c == *n)
        }
        // Where the caret was is unknown: the typed text in the field may have been there
        // before. Never confirms.
        Expect::Contains(_) => false,
        Expect::Number(n) => matches!(
            node.value,
            Some(NodeValue::Number { current, .. }) if (current - n).abs() <= 1e-9 * n.abs().max(1.0)
        ),
        Expect::MenuOpen => {
            now.showing_items.unwrap_or(0) > 0
                || node.states.is(State::Expanded)
                || (node.role == Role::Menu && node.states.is(State::Selected))
        }
    }
}

/// The report of an action whose state already held: confirmed, nothing sent.
fn nothing_sent(action: &Action, reference: String, held: String) -> ActionReport {
    ActionReport {
        verb: action.verb(),
        reference,
        route: None,
        skipped: Vec::new(),
        effect: Effect::Confirmed,
        changes: Vec::new(),
        foreground_changed: Some(false),
        note: Some(format!("{held}: nothing sent")),
    }
}

/// What changed that is evidence of an action's effect: not the focus, which deskpilot's own
/// route moves (a click that only focused a button did nothing).
pub(crate) fn evidence(before: &Observation, after: &Observation) -> Vec<String> {
    changes(before, after)
        .into_iter()
        .filter(|c| !c.starts_with("focused:"))
        .collect()
}

/// Verbs whose whole point is a state: when it already holds, nothing is sent.
fn nothing_to_do_when_held(action: &Action) -> bool {
    matches!(
        action,
        Action::SetValue(_)
            | Action::Select
            | Action::AddToSelection
            | Action::Deselect
            | Action::Expand
            | Action::Collapse
            | Action::Focus
            | Action::Click { .. }
    )
}

/// True when the value a value postcondition watches changed, yet not as expected.
fn value_moved(expect: &Expect, before: &Observation, after: &Observation) -> bool {
    let watches_value = matches!(
        expect,
        Expect::Text(_) | Expect::Chars(_) | Expect::Number(_)
    );
    let value = |o: &Observation| o.target.as_ref().map(|t| t.value.clone());
    watches_value && value(before) != value(after)
}

/// The postcondition in words.
fn expected(expect: &Expect) -> String {
    match expect {
        Expect::AnyChange => "a change".into(),
        Expect::OnOff(on) => format!("the control {}", if *on { "on" } else { "off" }),
        Expect::Flipped(_) => "the control flipped".into(),
        Expect::State { state, on } => format!("{state} {}", if *on { "on" } else { "off" }),
        Expect::Text(_) => "the new text".into(),
        Expect::Chars(n) => format!("{n} characters"),
        Expect::Contains(_) => "the typed text".into(),
        Expect::Number(n) => format!("the value {n}"),
        Expect::MenuOpen => "the menu open".into(),
    }
}

fn describe(op: &NativeOp) -> String {
    match op {
        NativeOp::DoAction(name) => format!("action {name:?}"),
        NativeOp::SetText(_) => "EditableText.SetTextContents".into(),
        NativeOp::SetNumber(n) => format!("Value.CurrentValue = {n}"),
        NativeOp::GrabFocus => "Component.GrabFocus".into(),
        NativeOp::CaretToEnd => "Text.SetCaretOffset".into(),
        NativeOp::AppendText(text) => format!("EditableText.InsertText at the end ({text})"),
        NativeOp::ScrollTo => "Component.ScrollTo".into(),
        NativeOp::Select => "Selection.SelectChild".into(),
        NativeOp::AddToSelection => "Selection.SelectChild (added)".into(),
        NativeOp::Deselect => "Selection.DeselectChild".into(),
    }
}

fn not_foreground(why: String) -> NotSent {
    NotSent::Refuse(Error::new(
        Code::WindowNotForeground,
        format!("cannot bring the element's window to the front: {why}"),
        "activate the window (window_action activate) or close what holds the focus, then retry",
    ))
}

fn input_failure(error: InputError) -> NotSent {
    match error {
        InputError::NotForeground { .. } => not_foreground(error.to_string()),
        InputError::Unavailable(_) => NotSent::Refuse(unavailable(error.to_string())),
        InputError::Untypable(_) => NotSent::Skip(error.to_string()),
        InputError::Display(_) => NotSent::Fatal(Error::new(
            Code::Backend,
            error.to_string(),
            "the display server failed; retry, or restart deskpilot",
        )),
        InputError::Incomplete { .. } => NotSent::Fatal(Error::new(
            Code::InputIncomplete,
            error.to_string(),
            "part of the text was typed: read the field (get_properties), then type only what is missing, or replace it all with set_value; do not repeat the call",
        )),
    }
}

pub(crate) fn unavailable(why: String) -> Error {
    Error::new(
        Code::InputUnavailable,
        why,
        "synthetic input and screenshots need an X11 display (pass --display); semantic actions still work",
    )
}
