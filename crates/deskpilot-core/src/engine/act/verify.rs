//! Reading back: the target, the app's windows and the active window before and after a rung,
//! until the postcondition holds, a change held still, the app went quiet, or time ran out.

use crate::act::action::Action;
use crate::act::observe::{Change, Observation, ObservedWindow};
use crate::act::plan::Expect;
use crate::act::policy::{Verdict, evidence, met};
use crate::act::subject::Subject;
use crate::engine::Engine;
use crate::engine::act::announced::announced;
use crate::engine::act::choose::shown_by;
use crate::error::Result;
use crate::model::{NodeValue, State};
use crate::platform::{BackendError, WalkLimits};
use deskpilot_platform::InputText;
use std::time::Duration;
use tokio::time::Instant;

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

/// For typing into a field that has focus already: the text it should then hold, from its
/// caret and selection (the typed text replaces the selection, else goes in at the caret).
/// Without them, `Contains`, which never confirms.
pub(crate) async fn typed_text_expected(
    engine: &Engine,
    subject: &Subject,
    action: &Action,
) -> Option<Expect> {
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
    let caret = engine.backend().caret(&node.id).await.ok().flatten()?;
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

/// Whether the toolkit reports selection among the element's siblings at all (some
/// sibling, or the element, is `selected`). Qt's page tabs never say which is current.
pub(crate) async fn selection_reported(engine: &Engine, subject: &Subject) -> bool {
    let node = subject.node();
    if node.states.is(State::Selected) {
        return true;
    }
    let Ok(Some(parent)) = engine.backend().parent(&node.id).await else {
        return true; // cannot tell: keep the postcondition
    };
    let limits = WalkLimits {
        max_nodes: 500,
        max_depth: 1,
        ..WalkLimits::with_timeout(Duration::from_secs(2))
    };
    match engine.backend().snapshot(&parent, &limits).await {
        Ok(tree) => tree
            .nodes
            .iter()
            .skip(1)
            .any(|n| n.node.states.is(State::Selected)),
        Err(_) => true,
    }
}

/// Reads the target, the app's windows and the active window; after an action (`since` the
/// event mark taken before it), also what the app announced in the target's window.
pub(crate) async fn observe(
    engine: &Engine,
    subject: &Subject,
    expect: &Expect,
    since: Option<u64>,
) -> Result<Observation> {
    let node = subject.node();
    let target = match engine.backend().node(&node.id, subject.secrecy()).await {
        Ok(n) => Some(n),
        Err(BackendError::Defunct { .. }) | Err(BackendError::AppGone { .. }) => None,
        Err(e) => return Err(e.into()),
    };
    let windows = match engine.windows_of(&subject.app).await {
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
    let active = match engine.wiring().window_system() {
        Ok(windows) => windows.active_window().await.ok().flatten(),
        Err(_) => None,
    };
    let showing_items = if *expect == Expect::MenuOpen {
        let limits = WalkLimits {
            max_nodes: 200,
            max_depth: 1,
            ..WalkLimits::with_timeout(Duration::from_secs(2))
        };
        match engine.backend().snapshot(&node.id, &limits).await {
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
    let shown = match (expect, &target) {
        (Expect::Shown(_), Some(combo)) => shown_by(engine, combo).await,
        _ => None,
    };
    let announced = match since {
        Some(mark) => announced(engine, subject, mark).await,
        None => Vec::new(),
    };
    Ok(Observation {
        target,
        windows,
        active,
        showing_items,
        shown,
        announced,
    })
}

/// Reads back until the postcondition holds (or, without one, until a change has held
/// still), or the wait is over.
pub(crate) async fn settle(
    engine: &Engine,
    subject: &Subject,
    action: &Action,
    expect: &Expect,
    before: &Observation,
    mark: Option<u64>,
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
    let mut wake = engine.wake_on(&subject.app, POLL).await;
    loop {
        let now = observe(engine, subject, expect, mark).await?;
        if *expect != Expect::AnyChange && met(expect, &now) {
            return Ok(Verdict::Met(now));
        }
        let seen = evidence(action, before, &now);
        let changed = !seen.is_empty();
        // What the app announced and a read agrees with is judged at once.
        if *expect == Expect::AnyChange && seen.iter().any(|c| matches!(c, Change::Announced(_))) {
            return Ok(Verdict::Changed(now));
        }
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
            let events = engine.backend().events();
            let quiet = tokio::select! {
                quiet = events.quiet(&subject.app, QUIET, within) => quiet,
                // The app's next event may be the evidence: it is read at once (GNOME
                // Calculator's display, `cargo xtask bench act`), and the quiet asked again.
                () = wake.event() => {
                    asked_quiet = started.elapsed() >= limit;
                    last = Some(now);
                    continue;
                }
            };
            if quiet == Some(true) {
                let now = observe(engine, subject, expect, mark).await?;
                if evidence(action, before, &now).is_empty() {
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
        // Until something changed, the app's next event wakes the next read; once it did,
        // reads are spaced by the poll (a burst of events is the app still at work).
        if changed {
            tokio::time::sleep(POLL).await;
        } else {
            wake.next(started + limit).await;
        }
        last = Some(now);
    }
}
