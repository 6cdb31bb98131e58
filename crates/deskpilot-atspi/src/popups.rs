//! Popups an app does not list: Qt gives its app no child for a window of type Popup (a
//! context menu), and only says that it shows. The showing menus its events named, whose
//! parent is the app, are walked and put under the app (or the window) walked.

use deskpilot_platform::model::{ElementId, Role, State, Tree};
use deskpilot_platform::{Backend, Secrecy, WalkLimits};

use crate::backend::AtspiBackend;
use crate::proto::ROOT_PATH;
use crate::read::AppTraits;
use crate::walk::walk;

impl AtspiBackend {
    /// Adds the app's unlisted showing popups to `tree`, a walk of the app or of one of its
    /// windows (told by the root's role: no call). Says whether it added any.
    pub(crate) async fn graft_popups(
        &self,
        root: &ElementId,
        limits: &WalkLimits,
        traits: AppTraits,
        tree: &mut Tree,
    ) -> bool {
        let whole = root.object == ROOT_PATH
            || tree
                .root()
                .is_some_and(|r| matches!(r.node.role, Role::Window | Role::Dialog));
        let Some(freshness) = &self.freshness else {
            return false;
        };
        if !whole {
            return false;
        }
        let mut grafted = false;
        for id in freshness.shown(root) {
            if tree.find(&id).is_some() {
                continue;
            }
            let Ok(Some(parent)) = self.proto.parent(&id).await else {
                continue;
            };
            if parent.object != ROOT_PATH {
                continue;
            }
            let Ok(node) = self.node(&id, Secrecy::Plain).await else {
                continue;
            };
            if node.role != Role::Menu || !node.states.is(State::Showing) {
                continue;
            }
            if let Ok(popup) = walk(&self.proto, &id, limits, traits, None).await {
                tree.graft(0, popup);
                grafted = true;
            }
        }
        grafted
    }
}
