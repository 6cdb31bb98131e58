//! Where typed text with no target goes: the focused element of the window keys go to, and
//! whether its text can be read back there.

use crate::act::keys_to::*;
use crate::act::subject::Subject;
use crate::engine::Engine;
use crate::engine::read::find::match_of;
use crate::engine::read::focus::focus_named;
use crate::engine::read::inspect::focus_under;
use crate::error::{Code, Error, Result};
use crate::escape::quoted;
use crate::model::{ElementId, State};
use crate::platform::WalkLimits;
use crate::read::{Match, Target};
use std::time::Duration;

/// Where text typed into `window` (the session's keys window) goes, and how it is said
/// (`the keys went to button "No" in alert "Question"`). A control that a space or Enter
/// would press is refused: typed text there answers a question nobody asked.
pub(crate) async fn keys_to(
    engine: &Engine,
    session: &str,
    window: &Subject,
) -> Result<(KeysTo, String)> {
    let in_window = format!(
        "{} {}",
        window.node().role,
        quoted(window.node().display_name(), 100)
    );
    let focused = match focus_under(engine, session, &window.node().id).await? {
        Some(m) if shows_typed_text(&m.node) || pressed_by_keys(m.node.role) => Some(m),
        // Qt names a container in its focus events: the field inside it that says it has
        // the focus is where the keys go.
        other => focused_field(engine, session, &window.node().id)
            .await
            .or(other),
    };
    let Some(focused) = focused else {
        return Ok((
            KeysTo::Elsewhere,
            format!("the keys went to {in_window}; no element there says it has the focus"),
        ));
    };
    let what = format!(
        "{} {} in {in_window}",
        focused.node.role,
        quoted(focused.node.display_name(), 100)
    );
    if pressed_by_keys(focused.node.role) {
        return Err(Error::new(
            Code::NotEditable,
            format!(
                "`type_text` with no target: the keys would go to {what} [ref={}], which takes no text (a space or Enter would press it)",
                focused.reference
            ),
            "answer or close that window first (click the button you mean), or give `type_text` the field as its target",
        ));
    }
    let went = format!("the keys went to {what}");
    if !shows_typed_text(&focused.node) {
        return Ok((KeysTo::Elsewhere, went));
    }
    let resolved = engine
        .handle(session)
        .resolve(&Target::Ref(focused.reference))
        .await?;
    Ok((KeysTo::Field(Box::new(resolved)), went))
}

/// The deepest element under `window` that says it has the focus and shows typed text.
async fn focused_field(engine: &Engine, session: &str, window: &ElementId) -> Option<Match> {
    let limits = WalkLimits {
        max_nodes: 20_000,
        ..WalkLimits::with_timeout(Duration::from_secs(15))
    };
    let mut tree = engine.backend().snapshot(window, &limits).await.ok()?;
    let named = focus_named(engine, &tree).await;
    crate::derive::derive_what_readers_see(&mut tree, &named);
    let seen = crate::visibility::visible(&tree);
    let field = (0..tree.len())
        .filter(|&i| {
            let node = &tree.nodes[i].node;
            node.states.is(State::Focused) && shows_typed_text(node)
        })
        .max_by_key(|&i| tree.nodes[i].depth)?;
    match_of(engine, session, &tree.nodes[field].node, true, seen[field]).ok()
}
