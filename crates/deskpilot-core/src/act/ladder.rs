//! The ladder's pure rules: whether an action goes through a list's choice, what a rung sent,
//! when a report withholds its tree. The ladder itself runs in `engine/act/ladder.rs`.

use super::action::Action;
use super::report::{ActionReport, Skipped};
use crate::live::TreeUpdate;

use crate::model::Node;

/// Whether `action` on `node`, if an option of a combo box, means choosing it through the
/// combo box: a select always (Qt says a closed list's options are showing), a click when
/// the option is hidden (one in an open list is clicked where it is).
pub(crate) fn chooses(action: &Action, node: &Node) -> bool {
    *action == Action::Select || (is_plain_click(action) && !crate::visibility::shown(node))
}

/// What was sent, for the report of an action that ended its app.
pub(crate) fn sent<'a>(
    action: &'a Action,
    reference: &str,
    rung: super::Rung,
    how: String,
    skipped: &[Skipped],
) -> super::exited::Sent<'a> {
    super::exited::Sent {
        action,
        reference: reference.to_owned(),
        rung,
        how,
        skipped: skipped.to_vec(),
    }
}

fn is_plain_click(action: &Action) -> bool {
    *action
        == Action::Click {
            button: super::action::MouseButton::Left,
            double: false,
        }
}

/// The report of secret text typed with no target: which element took it may not be known,
/// and a read could show it.
pub(crate) fn withhold_tree(mut report: ActionReport) -> ActionReport {
    report.tree = Some(TreeUpdate::unread(
        "not read after secret text went to the focused element; snapshot to see it",
    ));
    report
}
