//! `Engine::drag`: press at one point, move in steps, release at another. Each end is an
//! element (the centre of its live bounds, hit-tested) or a screen point.

use crate::escape::quoted;
use crate::model::{Node, Role};
use crate::read::Target;

/// One end of a drag.
#[derive(Debug, Clone)]
pub enum DragEnd {
    Element(Target),
    Point { x: i32, y: i32 },
}

/// What a drop may change, read before and after it.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct DropLook {
    /// Whether the source element still exists (none: the drag started at a point).
    pub(crate) alive: Option<bool>,
    /// The children of the source's container, by role and name.
    pub(crate) place: Option<Vec<(Role, String)>>,
    pub(crate) target: Option<Seen>,
}

/// The target of a drop as read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Seen {
    pub(crate) name: String,
    pub(crate) value: Option<String>,
    pub(crate) children: Vec<(Role, String)>,
}

/// What the drop changed, one line each; empty when nothing is evidence of it.
pub(crate) fn drop_evidence(
    source: Option<&Node>,
    before: &DropLook,
    after: &DropLook,
) -> Vec<String> {
    let mut seen = Vec::new();
    let key = source.map(|s| (s.role, s.name.clone()));
    let what = source
        .map(|s| format!("{} {}", s.role, quoted(s.display_name(), 100)))
        .unwrap_or_default();
    if before.alive == Some(true) && after.alive == Some(false) {
        seen.push(format!("the dragged {what} is gone"));
    }
    if let (Some(key), Some(was), Some(now)) = (&key, &before.place, &after.place) {
        let count = |list: &Vec<(Role, String)>| list.iter().filter(|c| *c == key).count();
        let position = |list: &Vec<(Role, String)>| list.iter().position(|c| c == key);
        if count(now) < count(was) {
            seen.push(format!("the dragged {what} left its place"));
        } else if count(now) == 1 && count(was) == 1 && position(now) != position(was) {
            seen.push(format!(
                "the dragged {what} moved from position {} to {} among its siblings",
                position(was).map_or(0, |p| p + 1),
                position(now).map_or(0, |p| p + 1)
            ));
        }
    }
    if let (Some(was), Some(now)) = (&before.target, &after.target) {
        if was.name != now.name {
            seen.push(format!(
                "the target's name: {} -> {}",
                quoted(&was.name, 100),
                quoted(&now.name, 100)
            ));
        }
        if was.value != now.value {
            seen.push("the target's value changed".to_owned());
        }
        if let Some(key) = &key {
            let holds = |t: &Seen| t.children.iter().any(|c| c == key);
            if holds(now) && !holds(was) {
                seen.push(format!("the dragged {what} is in the target"));
            }
        }
    }
    seen
}

#[cfg(test)]
#[path = "drag_tests.rs"]
mod tests;
