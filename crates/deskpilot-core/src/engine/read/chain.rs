//! An element and its ancestors up to a session's root, read as one path: what a targeted look
//! matches and what a ref resolves through, without walking the window.

use crate::engine::Engine;
use crate::model::{ElementId, Realization, Role, Tree, TreeNode};
use crate::platform::Secrecy;

/// The deepest ancestor chain followed.
pub(crate) const MAX_DEPTH: usize = 64;

/// `id` and its ancestors as a one-path tree (outermost first), when `root` (the session's
/// window or app) is among them; `None` when it is not, or the element is gone.
pub(crate) async fn chain_to(engine: &Engine, id: &ElementId, root: &ElementId) -> Option<Tree> {
    // Up to the session's root, where a full look starts too.
    let mut ids = vec![id.clone()];
    while ids.last() != Some(root) {
        if ids.len() >= MAX_DEPTH {
            return None;
        }
        // Where the last walk found it first: where a full look would see it.
        let last = ids.last()?;
        let parent = match engine.backend().events().walked_parent(last) {
            Some(walked) => Ok(Some(walked)),
            None => engine.backend().parent(last).await,
        };
        match parent {
            Ok(Some(parent)) if parent.app == id.app && !ids.contains(&parent) => ids.push(parent),
            _ => return None,
        }
    }
    ids.reverse();
    // Ancestors are read without text, all at once; the element itself as the walk would
    // (a password field's descendants as secret).
    let ancestors = ids[..ids.len() - 1]
        .iter()
        .map(|ancestor| engine.backend().node(ancestor, Secrecy::NoText));
    let mut nodes = futures_util::future::join_all(ancestors)
        .await
        .into_iter()
        .collect::<std::result::Result<Vec<_>, _>>()
        .ok()?;
    // Read without text, every ancestor says it is inside a secret: their roles say
    // whether one is a password field.
    let inside_secret = nodes.iter().any(|n| n.role == Role::Password);
    nodes.push(
        engine
            .backend()
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
