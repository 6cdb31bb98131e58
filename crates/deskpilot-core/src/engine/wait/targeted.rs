//! A targeted look: between two full looks of a wait, the elements the app's events just named
//! are read afresh, each with its ancestors (for the selector's outer steps and the visible
//! rule), and matched. It can only confirm a condition: when it does not, the wait's full
//! look runs as before. An event is still only a reason to look, never the answer.

use crate::engine::Engine;
use crate::engine::read::chain::chain_to;
use crate::engine::read::find::match_of;
use crate::engine::read::find::read_wanted_ids;
use crate::error::Result;
use crate::model::ElementId;
use crate::read::{FindResult, Match};
use crate::selector::Selector;
use crate::wait::Condition;

/// The most elements one targeted look reads (more named at once: a full look is cheaper).
const MAX_NAMED: usize = 12;

/// The matches among `named` (read afresh with their ancestors) that lie in the session's
/// scope; `None` when the look cannot be made (too many named).
pub(crate) async fn targeted_look(
    engine: &Engine,
    session: &str,
    selector: &Selector,
    named: &[ElementId],
) -> Result<Option<FindResult>> {
    if named.len() > MAX_NAMED {
        return Ok(None);
    }
    let root = engine.session_info(session)?.root;
    let mut found = FindResult {
        matches: Vec::new(),
        total: 0,
        visible: 0,
        exact: 0,
        unsearched: Vec::new(),
    };
    for id in named {
        let Some(chain) = chain_to(engine, id, &root).await else {
            continue;
        };
        let last = chain.len() - 1;
        let mut chain = chain;
        read_wanted_ids(engine, &mut chain, selector).await;
        engine.sessions().redact_held(session, &mut chain);
        let Some(&(_, exact)) = selector.select(&chain).iter().find(|(i, _)| *i == last) else {
            continue;
        };
        let node = &chain.nodes[last].node;
        // A name a full look would derive (from content or a label) is not known here.
        if node.name.is_empty() && selector.steps.last().is_some_and(|s| s.name.is_some()) {
            continue;
        }
        let visible = crate::visibility::visible(&chain)[last];
        found.total += 1;
        found.visible += usize::from(visible);
        found.exact += usize::from(exact);
        found
            .matches
            .push(match_of(engine, session, node, exact, visible)?);
    }
    found.matches.sort_by_key(|m| !m.visible);
    Ok(Some(found))
}

/// Targeted looks at what the app's events name after `mark`, as they come, until one
/// confirms `condition` (the element it met on); pending forever otherwise (the caller
/// races it with a full look).
pub(crate) async fn targeted_meanwhile(
    engine: &Engine,
    session: &str,
    app: &ElementId,
    selector: &Selector,
    condition: &Condition,
    mut mark: u64,
) -> Result<Option<Match>> {
    let Some(mut events) = engine.backend().events().changes(app).await else {
        return std::future::pending().await;
    };
    loop {
        if events.changed().await.is_err() {
            return std::future::pending().await;
        }
        let now = *events.borrow_and_update();
        let named = engine.backend().events().named_since(app, mark).await;
        mark = now;
        if let Some(named) = named
            && let Some(found) = targeted_look(engine, session, selector, &named).await?
            && let Some(element) = crate::wait::met(&found, condition, crate::wait::Look::Named)
        {
            return Ok(element);
        }
    }
}
