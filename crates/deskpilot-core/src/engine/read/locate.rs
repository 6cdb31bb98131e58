//! The steadiest selector for the element a target names, made from the tree `find`
//! searches: what a recording keeps of an action's element instead of a ref, which means
//! nothing in another run.

use std::time::Duration;

use super::find::searched;
use crate::error::{Code, Error, Result};
use crate::model::Role;
use crate::read::results::Target;
use crate::selector::{Locator, locate};

/// An element's locator, and whether it holds secret text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub locator: Locator,
    /// The element is, or is inside, a secret (a password field's text is never shown).
    pub secret: bool,
    /// The element is a password field.
    pub password: bool,
}

/// How long the walk for a locator may take.
const WALK_TIME: Duration = Duration::from_secs(15);

/// The steadiest selector that finds `target`'s element alone where `find` searches in
/// `session` (its window and the windows over it). A ref is looked up, not read again: the
/// tree's read shows whether its element is still there, as it was.
pub async fn locator_of(session: &crate::engine::Session<'_>, target: &Target) -> Result<Located> {
    let (element, role, secret) = match target {
        Target::Ref(text) => {
            let entry = session.engine.sessions().lookup(session.id(), text)?;
            (entry.element, Some(entry.role), entry.secret)
        }
        Target::Selector(_) => {
            let resolved = session.resolve(target).await?;
            (resolved.node.id, None, resolved.secret)
        }
    };
    let (tree, _) = searched(session, None, WALK_TIME).await?;
    let index = tree
        .nodes
        .iter()
        .position(|n| n.node.id == element && role.is_none_or(|r| r == n.node.role))
        .ok_or_else(|| {
            Error::new(
                Code::NotFound,
                "the element is not in the tree `find` searches, as it was",
                "it is gone, changed, or in a window the session does not cover",
            )
        })?;
    let password = tree.nodes[index].node.role == Role::Password;
    Ok(Located {
        locator: locate(&tree, index),
        secret,
        password,
    })
}
