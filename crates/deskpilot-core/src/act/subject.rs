//! The element an action works on, as every part of the ladder sees it.

use crate::model::{ElementId, Node};
use crate::platform::Secrecy;
use crate::read::Resolved;

/// The element an action works on, with what the rungs need to know about it.
pub(crate) struct Subject {
    pub(crate) resolved: Resolved,
    /// The root of the app the element belongs to.
    pub(crate) app: ElementId,
    /// The subject is the session's window itself (keys sent to the window, nothing to focus).
    pub(crate) window_level: bool,
    /// The window the session works on (for a session on an app, the app): the element's
    /// window when the app cannot say which is (a parent walk that ends short of the app).
    pub(crate) session_root: ElementId,
    /// The session acting (refs of windows that open go to it).
    pub(crate) session: String,
}

impl Subject {
    pub(crate) fn node(&self) -> &Node {
        &self.resolved.node
    }

    pub(crate) fn secrecy(&self) -> Secrecy {
        Secrecy::of(self.resolved.secret)
    }
}
