//! A targeted look: between two full looks of a wait, the elements the app's events just named
//! are read afresh, each with its ancestors (for the selector's outer steps and the visible
//! rule), and matched. It can only confirm a condition: when it does not, the wait's full
//! look runs as before. An event is still only a reason to look, never the answer.

use super::Condition;
use crate::engine::Engine;
use crate::error::Result;
use crate::model::{ElementId, Realization, Role, Tree, TreeNode};
use crate::platform::Secrecy;
use crate::read::{FindResult, Match};
use crate::selector::Selector;

/// The most elements one targeted look reads (more named at once: a full look is cheaper).
const MAX_NAMED: usize = 12;
/// The deepest ancestor chain followed.
const MAX_DEPTH: usize = 64;

/// Whether a targeted look can decide `condition` for `selector`: a disappearance and a count
/// need the whole tree, and `:nth` counts matches across it.
pub(super) fn applies(selector: &Selector, condition: &Condition) -> bool {
    !matches!(condition, Condition::Disappears | Condition::Count(_))
        && selector.steps.iter().all(|s| s.nth.is_none())
}

impl Engine {
    /// The matches among `named` (read afresh with their ancestors) that lie in the session's
    /// scope; `None` when the look cannot be made (too many named).
    pub(super) async fn targeted_look(
        &self,
        session: &str,
        selector: &Selector,
        named: &[ElementId],
    ) -> Result<Option<FindResult>> {
        if named.len() > MAX_NAMED {
            return Ok(None);
        }
        let root = self.session_info(session)?.root;
        let mut found = FindResult {
            matches: Vec::new(),
            total: 0,
            visible: 0,
            exact: 0,
            unsearched: Vec::new(),
        };
        for id in named {
            let Some(chain) = self.chain_to(id, &root).await else {
                continue;
            };
            let last = chain.len() - 1;
            let mut chain = chain;
            self.read_wanted_ids(&mut chain, selector).await;
            self.sessions().redact_held(session, &mut chain);
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
                .push(self.match_of(session, node, exact, visible)?);
        }
        found.matches.sort_by_key(|m| !m.visible);
        Ok(Some(found))
    }

    /// Targeted looks at what the app's events name after `mark`, as they come, until one
    /// confirms `condition` (the element it met on); pending forever otherwise (the caller
    /// races it with a full look).
    pub(super) async fn targeted_meanwhile(
        &self,
        session: &str,
        app: &ElementId,
        selector: &Selector,
        condition: &Condition,
        mut mark: u64,
    ) -> Result<Option<Match>> {
        let Some(mut events) = self.backend().events().changes(app).await else {
            return std::future::pending().await;
        };
        loop {
            if events.changed().await.is_err() {
                return std::future::pending().await;
            }
            let now = *events.borrow_and_update();
            let named = self.backend().events().named_since(app, mark).await;
            mark = now;
            if let Some(named) = named
                && let Some(found) = self.targeted_look(session, selector, &named).await?
                && let Some(element) = super::met(&found, condition, super::Look::Named)
            {
                return Ok(element);
            }
        }
    }

    /// `id` and its ancestors as a one-path tree (outermost first), when `root` (the session's
    /// window or app) is among them; `None` when it is not, or the element is gone.
    pub(crate) async fn chain_to(&self, id: &ElementId, root: &ElementId) -> Option<Tree> {
        // Up to the session's root, where a full look starts too.
        let mut ids = vec![id.clone()];
        while ids.last() != Some(root) {
            if ids.len() >= MAX_DEPTH {
                return None;
            }
            // Where the last walk found it first: where a full look would see it.
            let last = ids.last()?;
            let parent = match self.backend().events().walked_parent(last) {
                Some(walked) => Ok(Some(walked)),
                None => self.backend().parent(last).await,
            };
            match parent {
                Ok(Some(parent)) if parent.app == id.app && !ids.contains(&parent) => {
                    ids.push(parent)
                }
                _ => return None,
            }
        }
        ids.reverse();
        // Ancestors are read without text, all at once; the element itself as the walk would
        // (a password field's descendants as secret).
        let ancestors = ids[..ids.len() - 1]
            .iter()
            .map(|ancestor| self.backend().node(ancestor, Secrecy::NoText));
        let mut nodes = futures_util::future::join_all(ancestors)
            .await
            .into_iter()
            .collect::<std::result::Result<Vec<_>, _>>()
            .ok()?;
        // Read without text, every ancestor says it is inside a secret: their roles say
        // whether one is a password field.
        let inside_secret = nodes.iter().any(|n| n.role == Role::Password);
        nodes.push(
            self.backend()
                .node(id, Secrecy::of(inside_secret))
                .await
                .ok()?,
        );
        let count = nodes.len();
        Some(Tree {
            nodes: nodes
                .into_iter()
                .enumerate()
                .map(|(i, node)| TreeNode {
                    node,
                    parent: i.checked_sub(1),
                    children: if i + 1 < count {
                        vec![i + 1]
                    } else {
                        Vec::new()
                    },
                    depth: i as u32,
                    realization: Realization::Complete,
                })
                .collect(),
            pending: Vec::new(),
        })
    }
}
