//! Actionability, as Playwright's actions wait for it: exactly one visible match, not known to
//! be disabled (GTK 4.8 reports no `enabled`), editable for text, bounds that hold still for
//! pointer input. One rule for every face: the MCP tools and the CLI wait up to a per-call
//! timeout, the test library its own; each look is the engine's `Wake`.

use crate::act::action::Action;
use crate::act::ready::*;
use crate::engine::Engine;
use crate::engine::act::actionable::closed_menu_of;
use crate::engine::act::choose::combo_of;
use crate::error::{Code, Result};
use crate::model::{Node, Rect, Role, State};
use crate::platform::Secrecy;
use crate::read::{FindResult, Match, Target};
use crate::wait::FALLBACK_POLL;
use std::time::Duration;
use tokio::time::Instant;

/// Whether a hidden element is only scrolled out of view: not a menu's item, not
/// `visible` off, and its parent shown (a hidden popover's or page's field is not).
async fn scrolled_out(engine: &Engine, node: &Node) -> bool {
    let item = matches!(
        node.role,
        Role::MenuItem | Role::MenuItemCheckbox | Role::MenuItemRadio | Role::Menu
    );
    if item || node.states.is_not(State::Visible) {
        return false;
    }
    let Ok(Some(parent)) = engine.backend().parent(&node.id).await else {
        return false;
    };
    match engine.backend().node(&parent, Secrecy::NoText).await {
        Ok(parent) => crate::visibility::shown(&parent),
        Err(_) => false,
    }
}

/// One look at `target`: a selector's matches, or the ref's element read afresh.
async fn look(engine: &Engine, session: &str, target: &Target) -> Result<FindResult> {
    match target {
        Target::Selector(selector) => engine.handle(session).find(selector, None, 50).await,
        Target::Ref(text) => {
            let resolved = engine.handle(session).resolve_ref(text).await?;
            let m = Match {
                reference: resolved.reference,
                role: resolved.node.role,
                name: resolved.node.display_name().to_owned(),
                exact: true,
                // A ref is meant whatever it shows: the ladder scrolls or refuses.
                visible: true,
                node: resolved.node,
            };
            Ok(FindResult {
                matches: vec![m],
                total: 1,
                visible: 1,
                exact: 1,
                unsearched: Vec::new(),
            })
        }
    }
}

impl crate::engine::Session<'_> {
    /// Waits up to `timeout` until `target` is exactly one visible element that meets
    /// `needs`; several visible matches fail at once (strict). A timeout of zero looks once.
    /// When the wait runs out on a match that is only hidden, it is returned (the ladder
    /// scrolls it into view or says what to open).
    pub async fn actionable(
        &self,
        target: &Target,
        needs: Needs,
        timeout: Duration,
    ) -> std::result::Result<Match, NotReady> {
        let session = self.id();
        let started = Instant::now();
        let deadline = started + timeout;
        let app = self.engine.session_info(session)?.root;
        let mut wake = self.engine.wake_on(&app, FALLBACK_POLL).await;
        // The element (its role and name: Qt hands out a new object for a table cell at each
        // query) and its bounds on the previous look, for `still`.
        let mut previous: Option<(Role, String, Option<Rect>)> = None;
        // Whether a hidden match is merely scrolled out of view, by its ref (asked once).
        let mut scrolled: Option<(String, bool)> = None;
        loop {
            let found = match look(self.engine, session, target).await {
                // A busy app is looked at again until the deadline (see `wait_for`).
                Err(e) if e.code == Code::AppNotResponding && Instant::now() < deadline => {
                    wake.next(deadline).await;
                    continue;
                }
                found => found?,
            };
            let visible: Vec<&Match> = found
                .matches
                .iter()
                .filter(|m| m.visible || needs.hidden_too)
                .collect();
            if visible.len() > 1 {
                return Err(NotReady::Ambiguous(found));
            }
            let bounds_before = |m: &Match| {
                previous
                    .as_ref()
                    .filter(|(role, name, _)| *role == m.role && *name == m.name)
                    .map(|(_, _, b)| *b)
            };
            let unmet = visible
                .first()
                .map(|m| (m, needs.unmet(&m.node, bounds_before(m))));
            if let Some((m, None)) = unmet {
                return Ok((*m).clone());
            }
            // One match, not shown: merely scrolled out of view, the ladder scrolls it in (as
            // Playwright's actions do); in a closed menu, a hidden popover or page, it is
            // waited for.
            if let ([only], true) = (found.matches.as_slice(), visible.is_empty()) {
                if scrolled.as_ref().is_none_or(|(r, _)| *r != only.reference) {
                    // An option of a closed combo box is chosen through it (see `act`).
                    let out = scrolled_out(self.engine, &only.node).await
                        || (needs.chooses && combo_of(self.engine, &only.node).await.is_some());
                    scrolled = Some((only.reference.clone(), out));
                }
                if scrolled.as_ref().is_some_and(|(_, out)| *out) {
                    return Ok(only.clone());
                }
            }
            if Instant::now() >= deadline {
                let code = match unmet {
                    Some((_, Some(Unmet::Disabled))) => Code::Disabled,
                    Some((_, Some(Unmet::NotEditable))) => Code::NotEditable,
                    Some((_, Some(Unmet::Moving))) => Code::Timeout,
                    Some((_, None)) => unreachable!("returned above"),
                    None if found.total == 0 => Code::NotFound,
                    None => Code::NotVisible,
                };
                let wanted = needs.wanted(visible.first().map(|m| &m.node));
                // A hidden match in a closed menu: the menu to open first.
                let menu = match (found.matches.as_slice(), visible.is_empty()) {
                    ([only], true) => closed_menu_of(self.engine, session, &only.node).await,
                    _ => None,
                };
                return Err(NotReady::TimedOut {
                    code,
                    wanted,
                    waited: timeout,
                    found,
                    menu,
                });
            }
            previous = visible
                .first()
                .map(|m| (m.role, m.name.clone(), m.node.bounds));
            wake.next(deadline).await;
        }
    }

    /// `action` on `target` once it is actionable (waiting up to `timeout`), through the
    /// ladder.
    pub async fn act_when_ready(
        &self,
        target: &Target,
        action: &Action,
        timeout: Duration,
    ) -> Result<crate::act::ActionReport> {
        let ready = self.actionable(target, Needs::of(action), timeout).await?;
        self.act(&Target::Ref(ready.reference), action).await
    }
}
