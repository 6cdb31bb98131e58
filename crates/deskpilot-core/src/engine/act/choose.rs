//! Choosing an option of a combo box (`select_option`): its options read from its subtree,
//! the one it shows, and the ladder that makes another one shown. A web `<select>`, a GTK or
//! Qt combo box: the options sit under a menu or list child, hidden while it is closed.

use crate::act::action::Choice;
use crate::act::choose::*;
use crate::act::plan::Plan;
use crate::act::subject::Subject;
use crate::engine::Engine;
use crate::error::Result;
use crate::escape::quoted;
use crate::model::{Node, Role, State};
use crate::platform::WalkLimits;
use std::time::Duration;

/// How deep a combo box's options sit below it (combo, menu or list, item; a web page's
/// `<optgroup>` one more).
const OPTIONS_DEPTH: u32 = 3;

/// Most options read (a country list is some 250).
const MAX_OPTIONS: usize = 1000;

/// The combo box's options, read from its subtree.
pub(crate) async fn options_of(engine: &Engine, combo: &Node) -> Result<Vec<ComboOption>> {
    let limits = WalkLimits {
        max_nodes: MAX_OPTIONS + 50,
        max_depth: OPTIONS_DEPTH,
        ..WalkLimits::with_timeout(Duration::from_secs(3))
    };
    let tree = engine.backend().snapshot(&combo.id, &limits).await?;
    Ok(options_in(&tree))
}

/// What the combo box shows now, read afresh with its options.
pub(crate) async fn shown_by(engine: &Engine, combo: &Node) -> Option<String> {
    let options = options_of(engine, combo).await.ok()?;
    shown(combo, &options)
}

/// The plan for `select_option` on the subject, a combo box.
pub(crate) async fn plan_choice(
    engine: &Engine,
    subject: &Subject,
    choice: &Choice,
) -> Result<Plan> {
    let combo = subject.node();
    let options = options_of(engine, combo).await?;
    let described = format!(
        "{} ({} {})",
        subject.resolved.reference,
        combo.role,
        quoted(combo.display_name(), 100)
    );
    let chosen = match (choice, options.is_empty()) {
        // Options the toolkit does not expose (GTK 4's combo box) are chosen by place.
        (Choice::Index(index), true) => {
            return Ok(choice_plan(
                combo,
                &options,
                None,
                *index,
                engine.backend().as_ref(),
            ));
        }
        _ => pick(&options, choice, &described)?,
    };
    Ok(choice_plan(
        combo,
        &options,
        Some(chosen),
        chosen.index,
        engine.backend().as_ref(),
    ))
}

/// How far above an option its combo box may be (option, menu or list, an `<optgroup>`).
const COMBO_ABOVE: usize = 3;

/// The combo box `node` is an option of, read; `None` when it is no such option.
pub(crate) async fn combo_of(engine: &Engine, node: &Node) -> Option<Node> {
    if !is_option(node.role) {
        return None;
    }
    let mut at = node.id.clone();
    for _ in 0..COMBO_ABOVE {
        at = engine.backend().parent(&at).await.ok()??;
        let above = engine
            .backend()
            .node(&at, crate::platform::Secrecy::Plain)
            .await
            .ok()?;
        match above.role {
            Role::ComboBox => return Some(above),
            // Between an option and its combo box: its menu or list, an `<optgroup>`.
            Role::Menu | Role::List | Role::ListBox | Role::Group => {}
            // Any other container: a list's row, a menubar's item, not a combo's option.
            _ => return None,
        }
    }
    None
}

/// Longest wait for a combo box's list to show after it was opened, before keys are sent
/// (returns as soon as it shows; Firefox under load takes over a second).
const LIST_WAIT: Duration = Duration::from_secs(3);

/// Waits until `combo`'s list shows (it reads expanded, or the app's focus went to an
/// option or to the list itself, as Qt says: Gecko opens a page's list in another
/// process, and keys sent before it shows are lost). False when neither was seen in time.
pub(crate) async fn list_shown(engine: &Engine, subject: &Subject) -> bool {
    let started = tokio::time::Instant::now();
    let deadline = started + LIST_WAIT;
    let mut wake = engine
        .wake_on(&subject.app, crate::wait::FALLBACK_POLL)
        .await;
    loop {
        if let Ok(combo) = engine
            .backend()
            .node(&subject.node().id, crate::platform::Secrecy::NoText)
            .await
            && combo.states.is(State::Expanded)
        {
            return true;
        }
        if let Some(focused) = engine.backend().events().focused_hint(&subject.app).await
            && let Ok(node) = engine
                .backend()
                .node(&focused, crate::platform::Secrecy::NoText)
                .await
            && (is_option(node.role) || matches!(node.role, Role::List | Role::ListBox))
            && node.states.is(State::Focused)
        {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        wake.next(deadline).await;
    }
}
