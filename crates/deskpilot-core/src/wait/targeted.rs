//! A targeted look: between two full looks of a wait, the elements the app's events just named
//! are read afresh, each with its ancestors (for the selector's outer steps and the visible
//! rule), and matched. It can only confirm a condition: when it does not, the wait's full
//! look runs as before. An event is still only a reason to look, never the answer.

use super::Condition;
use crate::selector::Selector;

/// Whether a targeted look can decide `condition` for `selector`: a disappearance and a count
/// need the whole tree, and `:nth` counts matches across it.
pub(crate) fn applies(selector: &Selector, condition: &Condition) -> bool {
    !matches!(condition, Condition::Disappears | Condition::Count(_))
        && selector.steps.iter().all(|s| s.nth.is_none())
}
