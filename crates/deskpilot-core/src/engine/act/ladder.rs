//! Runs an action's ladder: the element resolved under the input lock, preflight refusals,
//! then each rung in turn (`deliver.rs`), its effect read back (`verify.rs`) and judged
//! (`policy.rs`); the next rung only after a no-op of an action that is safe to repeat.

use crate::act::action::Action;
use crate::act::deliver::NotSent;
use crate::act::keys_to::KeysTo;
use crate::act::ladder::*;
use crate::act::observe::{changes_with_refs, foreground_changed};
use crate::act::plan::Delivery;
use crate::act::plan::{Expect, plan};
use crate::act::policy::{
    Judging, NO_SELECTION_STATE, Next, Start, already, judge, nothing_sent, start,
};
use crate::act::preflight::preflight;
use crate::act::report::{ActionReport, Route, Skipped, rung_name};
use crate::act::subject::Subject;
use crate::engine::act::acting::{Acting, reported};
use crate::engine::act::actionable::ensure_shown;
use crate::engine::act::after::with_tree_after;
use crate::engine::act::choose::combo_of;
use crate::engine::act::choose::options_of;
use crate::engine::act::choose::plan_choice;
use crate::engine::act::deliver::deliver;
use crate::engine::act::exited::unless_exited;
use crate::engine::act::keys_to::keys_to;
use crate::engine::act::multiselection::note_multiselection;
use crate::engine::act::verify::observe;
use crate::engine::act::verify::selection_reported;
use crate::engine::act::verify::settle;
use crate::engine::act::verify::typed_text_expected;
use crate::engine::scope::keys_window;
use crate::error::{Code, Error, Result};
use crate::model::{Node, State};
use crate::platform::Secrecy;
use crate::read::{Resolved, Target};
use crate::session::format_ref;

async fn act_unreported(
    acting: &Acting<'_>,
    session: &str,
    target: &Target,
    action: &Action,
) -> Result<ActionReport> {
    let engine = acting.engine;
    // Held from resolving the target to the last read-back: the plan starts from the
    // element as it is, and another session's input can neither land between this
    // action's keys nor confirm its effect.
    let _input = engine.input_lock().await;
    let resolved = engine.handle(session).resolve(target).await?;
    let info = engine.session_info(session)?;
    if chooses(action, &resolved.node)
        && let Some(combo) = combo_of(engine, &resolved.node).await
    {
        // An option of a combo box: chosen through the combo box, as a person would
        // (open it, pick the option).
        let report = choose_through(acting, session, resolved, combo, action).await;
        return with_tree_after(engine, session, report).await;
    }
    // What the verb means on this control: a person's click on a row selects it (activating
    // it is `activate`, or a double click); a number given as text sets a spin button's.
    let meant = crate::act::meaning::meant(action, &resolved.node)?;
    let subject = Subject {
        resolved,
        app: info.app.id,
        window_level: false,
        session_root: info.root,
        session: session.to_owned(),
    };
    let report = match meant {
        Some(meant) => run_ladder(acting, subject, &meant).await.map(|mut report| {
            report.verb = action.verb();
            report
        }),
        None => run_ladder(acting, subject, action).await,
    };
    with_tree_after(engine, session, report).await
}

/// `action` (a select or a click) on `option`, a hidden option of `combo`: the option
/// chosen through the combo box, reported as the action on the option. Call with the
/// input lock held.
async fn choose_through(
    acting: &Acting<'_>,
    session: &str,
    option: Resolved,
    combo: Node,
    action: &Action,
) -> Result<ActionReport> {
    let engine = acting.engine;
    let info = engine.session_info(session)?;
    // By identity; else by role and name (Qt hands out new objects for a view's items).
    let options = options_of(engine, &combo).await?;
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
    let reference = engine
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
    let choose = Action::SelectOption(crate::act::action::Choice::Index(index));
    let mut report = run_ladder(acting, subject, &choose).await?;
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
    acting: &Acting<'_>,
    session: &str,
    action: &Action,
) -> Result<ActionReport> {
    let engine = acting.engine;
    let _input = engine.input_lock().await;
    let info = engine.session_info(session)?;
    // Never the application object: the session's active window (or the one last active,
    // brought to the front by the ladder).
    let window = keys_window(engine, session).await?;
    let node = engine.backend().node(&window, Secrecy::Plain).await?;
    let reference = engine
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
        let (to, went) = keys_to(engine, session, &subject).await?;
        let report = match to {
            KeysTo::Field(resolved) => {
                let field = Subject {
                    resolved: *resolved,
                    app: info.app.id,
                    window_level: false,
                    session_root: window,
                    session: session.to_owned(),
                };
                run_ladder(acting, field, action).await
            }
            KeysTo::Elsewhere => run_ladder(acting, subject, action).await,
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
        return with_tree_after(engine, session, report).await;
    }
    let report = run_ladder(acting, subject, action).await;
    if action.secret() {
        return report.map(withhold_tree);
    }
    with_tree_after(engine, session, report).await
}

/// Climbs the ladder, then maps back the keys that typing secret text remapped. Call with
/// the input lock held.
async fn run_ladder(
    acting: &Acting<'_>,
    subject: Subject,
    action: &Action,
) -> Result<ActionReport> {
    let engine = acting.engine;
    let secret = subject.resolved.secret || subject.node().is_secret() || action.secret();
    if action.secret() && !subject.window_level {
        // The element holds secret text from now on: this session's reads show its length.
        engine
            .sessions()
            .hold_secret(&subject.session, &subject.node().id);
    }
    let mut result = climb(acting, subject, action).await;
    // Only after secret text: remapping keys again makes some apps (Firefox) handle the
    // next key late, out of order; ordinary text left in the keymap tells nothing new.
    if secret
        && matches!(action, Action::TypeText(_) | Action::SetValue(_))
        && let Ok(input) = engine.wiring().input_device()
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
async fn climb(acting: &Acting<'_>, mut subject: Subject, action: &Action) -> Result<ActionReport> {
    let engine = acting.engine;
    if action.secret() && !subject.resolved.secret {
        // Text the caller keeps secret: the field is read as a password field from here on
        // (its length only), so that no report shows what it holds.
        subject.resolved.node = engine
            .backend()
            .node(&subject.node().id, Secrecy::InsideSecret)
            .await?;
        subject.resolved.secret = true;
    }
    preflight(action, &subject)?;
    let shown_note = ensure_shown(engine, &mut subject, action).await?;
    let reference = subject.resolved.reference.clone();
    if let Action::Toggle { ensure } = action {
        // Whether it already holds is read afresh, not taken from the walk that found it
        // (a kept identity may lag an event behind).
        subject.resolved.node = engine
            .backend()
            .node(&subject.node().id, subject.secrecy())
            .await?;
        note_multiselection(engine, &mut subject).await;
        if let Some(held) = ensure.and_then(|want| already(subject.node(), want)) {
            return Ok(nothing_sent(action, reference, held));
        }
    }
    let mut plan = match action {
        Action::SelectOption(choice) => plan_choice(engine, &subject, choice).await?,
        _ => plan(action, subject.node(), engine.backend().as_ref()),
    };
    if let Some(expect) = typed_text_expected(engine, &subject, action).await {
        plan.expect = expect;
    }
    let mut unreported = plan.unreadable;
    if matches!(
        plan.expect,
        Expect::State {
            state: State::Selected,
            ..
        }
    ) && !selection_reported(engine, &subject).await
    {
        plan.expect = Expect::AnyChange;
        unreported = Some(NO_SELECTION_STATE);
    }
    let before = observe(engine, &subject, &plan.expect, None).await?;
    let judging: Judging = match start(action, plan.expect.clone(), unreported, &before) {
        Start::NothingToDo { held } => return Ok(nothing_sent(action, reference, held)),
        Start::Send(judging) => judging,
    };
    let mut skipped: Vec<Skipped> = plan.skipped.clone();
    let mut refusal: Option<Error> = None;
    for attempt in &plan.attempts {
        if acting.background
            && matches!(
                attempt.rung,
                crate::act::Rung::Keyboard | crate::act::Rung::Pointer
            )
        {
            skipped.push(Skipped {
                rung: attempt.rung,
                why: "background mode: keys and the pointer would take the foreground".into(),
            });
            continue;
        }
        // Without a postcondition of its own, what the app announces after this rung is
        // evidence: every event it sent before is counted out.
        let mark = match judging.expect {
            Expect::AnyChange => engine.backend().events().mark(&subject.app).await,
            _ => None,
        };
        let how = match deliver(acting, &subject, attempt).await {
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
                return unless_exited(engine, &subject.app, sent, error).await;
            }
        };
        let verdict = match settle(engine, &subject, action, &judging.expect, &before, mark).await {
            Ok(verdict) => verdict,
            Err(error) => {
                let sent = sent(action, &reference, attempt.rung, how, &skipped);
                return unless_exited(engine, &subject.app, sent, error).await;
            }
        };
        let (effect, note) = match judge(action, &judging, &before, &verdict, &reference, &how) {
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
                engine
                    .sessions()
                    .issue(&subject.session, &node)
                    .ok()
                    .map(format_ref)
            }),
            foreground_changed: foreground_changed(&before, after),
            observed: crate::act::observe::changes(&before, after),
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

impl crate::engine::Session<'_> {
    /// Does `action` on `target`, through the first rung of its ladder that has an effect,
    /// and reports the route, the rungs skipped, and the effect read back.
    pub async fn act(&self, target: &Target, action: &Action) -> Result<ActionReport> {
        let acting = Acting::of(self);
        reported(&acting, act_unreported(&acting, self.id(), target, action)).await
    }

    /// Does `action` on the session's window itself (keys with no element to focus first).
    pub async fn act_on_window(&self, action: &Action) -> Result<ActionReport> {
        let acting = Acting::of(self);
        reported(
            &acting,
            act_on_window_unreported(&acting, self.id(), action),
        )
        .await
    }
}
