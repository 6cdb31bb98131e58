//! Reading one element closer: its properties, what is at a point, the focus, its text and
//! its table, page by page.

use crate::derive::derive_what_readers_see;
use crate::engine::Engine;
use crate::engine::read::chain::chain_to;
use crate::engine::read::find::match_of;
use crate::engine::read::focus::focus_named;
use crate::error::{Code, Error, Result};
use crate::model::State;
use crate::platform::{Secrecy, WalkLimits};
use crate::read::results::{Match, Resolved, TableRead, Target, TextRead};
use crate::session::format_ref;
use std::time::Duration;

/// The focused element at or under `root` (a window or app of the session), if any.
pub(crate) async fn focus_under(
    engine: &Engine,
    session: &str,
    root: &crate::model::ElementId,
) -> Result<Option<Match>> {
    let info = engine.session_info(session)?;
    // The element the app's latest focus event named, read afresh with its ancestors: a
    // few calls instead of a walk. Used only while it still says it has the focus.
    if let Some(hint) = engine.backend().events().focused_hint(&info.app.id).await
        && let Some(chain) = chain_to(engine, &hint, root).await
        && let Some(last) = chain.nodes.last()
        && last.node.states.is(State::Focused)
    {
        let visible = crate::visibility::visible(&chain)[chain.len() - 1];
        return match_of(engine, session, &last.node, true, visible).map(Some);
    }
    let limits = WalkLimits {
        max_nodes: 20_000,
        ..WalkLimits::with_timeout(Duration::from_secs(15))
    };
    let mut tree = engine.backend().snapshot(root, &limits).await?;
    let named = focus_named(engine, &tree).await;
    derive_what_readers_see(&mut tree, &named);
    // Visible by the same rule either way: the element and its ancestors shown.
    let seen = crate::visibility::visible(&tree);
    let focused = (0..tree.len())
        .filter(|&i| tree.nodes[i].node.states.is(State::Focused))
        .max_by_key(|&i| tree.nodes[i].depth);
    focused
        .map(|i| match_of(engine, session, &tree.nodes[i].node, true, seen[i]))
        .transpose()
}

impl crate::engine::Session<'_> {
    /// Everything the backend knows about one element.
    pub async fn properties(&self, target: &Target) -> Result<Resolved> {
        let resolved = self.resolve(target).await?;
        let mut node = self
            .engine
            .backend()
            .properties(&resolved.node.id, Secrecy::of(resolved.secret))
            .await?;
        if node.derived_name.is_none() {
            node.derived_name = resolved.node.derived_name.clone();
        }
        if node.label.is_none() {
            node.label = resolved.node.label.clone();
        }
        if resolved.secret {
            node.value = Some(crate::model::NodeValue::Redacted {
                chars: match resolved.node.value {
                    Some(crate::model::NodeValue::Redacted { chars }) => chars,
                    _ => None,
                },
            });
        }
        Ok(Resolved { node, ..resolved })
    }

    /// The chain of elements at a screen point in the session's window, outermost first, each
    /// with a ref; the last is the deepest.
    pub async fn hit_test(&self, x: i32, y: i32) -> Result<Vec<Match>> {
        let session = self.id();
        let root = self.engine.session_info(session)?.root;
        let path = self.engine.backend().hit_test(&root, x, y).await?;
        path.into_iter()
            .map(|node| {
                Ok(Match {
                    reference: format_ref(self.engine.sessions().issue(session, &node)?),
                    role: node.role,
                    name: node.display_name().to_owned(),
                    exact: true,
                    visible: crate::visibility::shown(&node),
                    node,
                })
            })
            .collect()
    }

    /// The focused element in the session's window (the deepest one with `focused`), if any.
    pub async fn focus(&self) -> Result<Option<Match>> {
        let session = self.id();
        let root = self.engine.session_info(session)?.root;
        focus_under(self.engine, session, &root).await
    }

    /// Characters `offset..offset + length` of an element's text (all of it up to `MAX` when
    /// no length). A password field's text is never read: that is refused.
    pub async fn read_text(
        &self,
        target: &Target,
        offset: u32,
        length: Option<u32>,
    ) -> Result<TextRead> {
        const MAX: u32 = 10_000;
        let resolved = self.resolve(target).await?;
        if resolved.secret {
            return Err(Error::new(
                Code::Unsupported,
                format!(
                    "{} is a password field: its text is never read{}",
                    resolved.reference,
                    match resolved.node.value {
                        Some(crate::model::NodeValue::Redacted { chars: Some(n) }) =>
                            format!(" (it holds {n} characters)"),
                        _ => String::new(),
                    }
                ),
                "a password's content cannot be read back; type it again if needed",
            ));
        }
        let length = length.unwrap_or(MAX).min(MAX);
        let slice = self
            .engine
            .backend()
            .text(
                &resolved.node.id,
                offset,
                Some(offset.saturating_add(length)),
            )
            .await?;
        let next_offset = (slice.end < slice.total).then_some(slice.end);
        Ok(TextRead {
            reference: resolved.reference,
            slice,
            next_offset,
        })
    }

    /// A page of a table's rows with its headers (repeated on every page).
    pub async fn read_table(
        &self,
        target: &Target,
        first_row: u32,
        rows: u32,
    ) -> Result<TableRead> {
        let resolved = self.resolve(target).await?;
        let slice = self
            .engine
            .backend()
            .table(&resolved.node.id, first_row, rows.clamp(1, 500))
            .await?;
        let end = slice.first_row + slice.rows.len() as u32;
        let next_row = (end < slice.row_count).then_some(end);
        Ok(TableRead {
            reference: resolved.reference,
            slice,
            next_row,
        })
    }
}
