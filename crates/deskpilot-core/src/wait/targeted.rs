//! Whether a targeted look (`engine/wait/targeted.rs`: the elements the app's events just
//! named, read afresh) can decide a wait's condition.

use super::Condition;
use crate::selector::Selector;

/// Whether a targeted look can decide `condition` for `selector`: a disappearance and a count
/// need the whole tree, and `:nth` counts matches across it.
pub(crate) fn applies(selector: &Selector, condition: &Condition) -> bool {
    !matches!(condition, Condition::Disappears | Condition::Count(_))
        && selector.steps.iter().all(|s| s.nth.is_none())
}
