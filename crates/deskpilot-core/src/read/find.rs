//! Finding elements by selector, and resolving a target strictly to one element.

use super::results::FindResult;

pub(crate) fn unsearched_note(found: &FindResult) -> String {
    if found.unsearched.is_empty() {
        String::new()
    } else {
        format!(
            " ({} containers could not be searched: {})",
            found.unsearched.len(),
            found
                .unsearched
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        )
    }
}
