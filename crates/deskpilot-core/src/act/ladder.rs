//! Runs an action's ladder: the element resolved under the input lock, preflight refusals,
//! then each rung in turn (`deliver.rs`), its effect read back (`verify.rs`) and judged
//! (`policy.rs`); the next rung only after a no-op of an action that is safe to repeat.

use super::action::Action;
use super::deliver::NotSent;
use super::keys_to::KeysTo;
use super::observe::{changes_with_refs, foreground_changed};
use super::plan::Delivery;
use super::plan::{Expect, plan};
use super::policy::{
    Judging, NO_SELECTION_STATE, Next, Start, already, judge, nothing_sent, start,
};
use super::preflight::preflight;
use super::report::{ActionReport, Route, Skipped, rung_name};
use super::subject::Subject;
use crate::engine::Engine;
use crate::error::{Code, Error, Result};
use crate::live::TreeUpdate;

use crate::model::{Node, State};
use crate::platform::Secrecy;
use crate::read::{Resolved, Target};
use crate::session::format_ref;

impl Engine {
    async fn act_unreported(
        &self,
        session: &str,
        target: &Target,
        action: &Action,
    ) -> Result<ActionReport> {
        // Held from resolving the target to the last read-back: the plan starts from the
        // element as it is, and another session's input can neither land between this
        // action's keys nor confirm its effect.
        let _input = self.input_lock().await;
        let resolved = self.handle(session).resolve(target).await?;
        let info = self.session_info(session)?;
        if chooses(action, &resolved.node)
            && let Some(combo) = self.combo_of(&resolved.node).await
        {
            // An option of a combo box: chosen through the combo box, as a person would
            // (open it, pick the option).
            let report = self.choose_through(session, resolved, combo, action).await;
            return self.with_tree_after(session, report).await;
        }
        // What the verb means on this control: a person's click on a row selects it (activating
        // it is `activate`, or a double click); a number given as text sets a spin button's.
        let meant = super::meaning::meant(action, &resolved.node)?;
        let subject = Subject {
            resolved,
            app: info.app.id,
            window_level: false,
            session_root: info.root,
            session: session.to_owned(),
        };
        let report = match meant {
            Some(meant) => self.run_ladder(subject, &meant).await.map(|mut report| {
                report.verb = action.verb();
                report
            }),
            None => self.run_ladder(subject, action).await,
        };
        self.with_tree_after(session, report).await
    }

    /// `action` (a select or a click) on `option`, a hidden option of `combo`: the option
    /// chosen through the combo box, reported as the action on the option. Call with the
    /// input lock held.
    async fn choose_through(
        &self,
        session: &str,
        option: Resolved,
        combo: Node,
        action: &Action,
    ) -> Result<ActionReport> {
        let info = self.session_info(session)?;
        // By identity; else by role and name (Qt hands out new objects for a view's items).
        let options = self.options_of(&combo).await?;
        let index = options
            .iter()
            .find(|o| o.node.id == option.node.id)
            .or_else(|| {
                options
                    .iter()
                    .find(|o| o.node.role == option.node.role && o.node.name == option.node.name)
            })
            .map(|o| o.index)
            .ok_or_else(|| {
                Error::new(
                    Code::StaleRef,
                    format!(
                        "{} is no longer among its combo box's options",
                        option.reference
                    ),
                    "take a fresh `snapshot` and `find` the option again",
                )
            })?;
        let reference = self
            .sessions()
            .issue(session, &combo)
            .map_or_else(|_| "its combo box".into(), format_ref);
        let described = format!(
            "{reference} ({} {})",
            combo.role,
            crate::escape::quoted(combo.display_name(), 100)
        );
        let subject = Subject {
            resolved: Resolved {
                reference,
                node: combo,
                secret: false,
            },
            app: info.app.id,
            window_level: false,
            session_root: info.root,
            session: session.to_owned(),
        };
        let choose = Action::SelectOption(super::action::Choice::Index(index));
        let mut report = self.run_ladder(subject, &choose).await?;
        report.verb = action.verb();
        report.reference = option.reference;
        let note = format!("chosen through its combo box {described}");
        report.note = Some(match report.note.take() {
            Some(rest) => format!("{note}; {rest}"),
            None => note,
        });
        Ok(report)
    }

    async fn act_on_window_unreported(
        &self,
        session: &str,
        action: &Action,
    ) -> Result<ActionReport> {
        let _input = self.input_lock().await;
        let info = self.session_info(session)?;
        // Never the application object: the session's active window (or the one last active,
        // brought to the front by the ladder).
        let window = self.keys_window(session).await?;
        let node = self.backend().node(&window, Secrecy::Plain).await?;
        let reference = self
            .sessions()
            .issue(session, &node)
            .map_or_else(|_| "window".into(), format_ref);
        let subject = Subject {
            resolved: Resolved {
                reference,
                node,
                secret: false,
            },
            app: info.app.id.clone(),
            window_level: true,
            session_root: window.clone(),
            session: session.to_owned(),
        };
        if matches!(action, Action::TypeText(_)) {
            // Typed text is judged where it goes: the focused field, read back; it is never
            // sent to a control a space would press.
            let (to, went) = self.keys_to(session, &subject).await?;
            let report = match to {
                KeysTo::Field(resolved) => {
                    let field = Subject {
                        resolved: *resolved,
                        app: info.app.id,
                        window_level: false,
                        session_root: window,
                        session: session.to_owned(),
                    };
                    self.run_ladder(field, action).await
                }
                KeysTo::Elsewhere => self.run_ladder(subject, action).await,
            };
            let report = report.map(|mut report| {
                report.note = Some(match report.note.take() {
                    Some(note) => format!("{went}; {note}"),
                    None => went,
                });
                report
            });
            if action.secret() {
                return report.map(withhold_tree);
            }
            return self.with_tree_after(session, report).await;
        }
        let report = self.run_ladder(subject, action).await;
        if action.secret() {
            return report.map(withhold_tree);
        }
        self.with_tree_after(session, report).await
    }

    /// Climbs the ladder, then maps back the keys that typing secret text remapped. Call with
    /// the input lock held.
    async fn run_ladder(&self, subject: Subject, action: &Action) -> Result<ActionReport> {
        let secret = subject.resolved.secret || subject.node().is_secret() || action.secret();
        if action.secret() && !subject.window_level {
            // The element holds secret text from now on: this session's reads show its length.
            self.sessions()
                .hold_secret(&subject.session, &subject.node().id);
        }
        let mut result = self.climb(subject, action).await;
        // Only after secret text: remapping keys again makes some apps (Firefox) handle the
        // next key late, out of order; ordinary text left in the keymap tells nothing new.
        if secret
            && matches!(action, Action::TypeText(_) | Action::SetValue(_))
            && let Ok(input) = self.wiring().input_device()
            && let Err(e) = input.after_secret_text().await
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
        if let Action::Toggle { ensure } = action {
            // Whether it already holds is read afresh, not taken from the walk that found it
            // (a kept identity may lag an event behind).
            subject.resolved.node = self
                .backend()
                .node(&subject.node().id, subject.secrecy())
                .await?;
            self.note_multiselection(&mut subject).await;
            if let Some(held) = ensure.and_then(|want| already(subject.node(), want)) {
                return Ok(nothing_sent(action, reference, held));
            }
        }
        let mut plan = match action {
            Action::SelectOption(choice) => self.plan_choice(&subject, choice).await?,
            _ => plan(action, subject.node(), self.backend().as_ref()),
        };
        if let Some(expect) = self.typed_text_expected(&subject, action).await {
            plan.expect = expect;
        }
        let mut unreported = plan.unreadable;
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
        let judging: Judging = match start(action, plan.expect.clone(), unreported, &before) {
            Start::NothingToDo { held } => return Ok(nothing_sent(action, reference, held)),
            Start::Send(judging) => judging,
        };
        let mut skipped: Vec<Skipped> = plan.skipped.clone();
        let mut refusal: Option<Error> = None;
        for attempt in &plan.attempts {
            if super::background()
                && matches!(attempt.rung, super::Rung::Keyboard | super::Rung::Pointer)
            {
                skipped.push(Skipped {
                    rung: attempt.rung,
                    why: "background mode: keys and the pointer would take the foreground".into(),
                });
                continue;
            }
            let how = match self.deliver(&subject, attempt).await {
                Ok(how) => how,
                Err(NotSent::Skip(why)) => {
                    skipped.push(Skipped {
                        rung: attempt.rung,
                        why,
                    });
                    continue;
                }
                Err(NotSent::Refuse(error)) => {
                    skipped.push(Skipped {
                        rung: attempt.rung,
                        why: format!("{}: {}", error.code.name(), error.message),
                    });
                    refusal = Some(error);
                    continue;
                }
                Err(NotSent::Fatal(error)) => {
                    // A semantic request the app never answered: it may have ended the app.
                    let Delivery::Native(route) = &attempt.delivery else {
                        return Err(error);
                    };
                    let how = format!("{} (no answer)", route.how);
                    let sent = sent(action, &reference, attempt.rung, how, &skipped);
                    return self.unless_exited(&subject.app, sent, error).await;
                }
            };
            let verdict = match self
                .settle(&subject, action, &judging.expect, &before)
                .await
            {
                Ok(verdict) => verdict,
                Err(error) => {
                    let sent = sent(action, &reference, attempt.rung, how, &skipped);
                    return self.unless_exited(&subject.app, sent, error).await;
                }
            };
            let (effect, note) = match judge(action, &judging, &before, &verdict, &reference, &how)
            {
                Next::Report { effect, note } => (effect, note),
                Next::TryAnother { why } => {
                    skipped.push(Skipped {
                        rung: attempt.rung,
                        why,
                    });
                    continue;
                }
                Next::Fail(error) => return Err(error),
            };
            let after = verdict.after();
            let note = match (shown_note.clone(), note) {
                (Some(first), Some(rest)) => Some(format!("{first}; {rest}")),
                (first, rest) => first.or(rest),
            };
            return Ok(ActionReport {
                verb: action.verb(),
                reference,
                route: Some(Route {
                    rung: attempt.rung,
                    how,
                }),
                skipped,
                effect,
                changes: changes_with_refs(&before, after, &|window| {
                    let mut node = Node::new(window.id.clone(), window.role);
                    node.name = window.title.clone();
                    self.sessions()
                        .issue(&subject.session, &node)
                        .ok()
                        .map(format_ref)
                }),
                foreground_changed: foreground_changed(&before, after),
                note,
                tree: None,
                interaction: Default::default(),
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
                "check the element's state with `get_properties`; it may need another action first (open its menu, scroll it into view)",
            ),
        })
    }
}

impl crate::engine::Session<'_> {
    /// Does `action` on `target`, through the first rung of its ladder that has an effect,
    /// and reports the route, the rungs skipped, and the effect read back.
    pub async fn act(&self, target: &Target, action: &Action) -> Result<ActionReport> {
        let session = self.id();
        super::report::reported(self.engine.act_unreported(session, target, action)).await
    }

    /// Does `action` on the session's window itself (keys with no element to focus first).
    pub async fn act_on_window(&self, action: &Action) -> Result<ActionReport> {
        let session = self.id();
        super::report::reported(self.engine.act_on_window_unreported(session, action)).await
    }
}

/// Whether `action` on `node`, if an option of a combo box, means choosing it through the
/// combo box: a select always (Qt says a closed list's options are showing), a click when
/// the option is hidden (one in an open list is clicked where it is).
fn chooses(action: &Action, node: &Node) -> bool {
    *action == Action::Select || (is_plain_click(action) && !crate::visibility::shown(node))
}

/// What was sent, for the report of an action that ended its app.
fn sent<'a>(
    action: &'a Action,
    reference: &str,
    rung: super::Rung,
    how: String,
    skipped: &[Skipped],
) -> super::exited::Sent<'a> {
    super::exited::Sent {
        action,
        reference: reference.to_owned(),
        rung,
        how,
        skipped: skipped.to_vec(),
    }
}

fn is_plain_click(action: &Action) -> bool {
    *action
        == Action::Click {
            button: super::action::MouseButton::Left,
            double: false,
        }
}

/// The report of secret text typed with no target: which element took it may not be known,
/// and a read could show it.
fn withhold_tree(mut report: ActionReport) -> ActionReport {
    report.tree = Some(TreeUpdate::unread(
        "not read after secret text went to the focused element; snapshot to see it",
    ));
    report
}
