//! The note a find adds when some of the tree went unsearched. Finding and resolving run in
//! `engine/read/find.rs`.

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
