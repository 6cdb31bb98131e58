//! Labels inferred from the layout: a field with no name of its own and no label relation
//! (zenity's and many dialogs' forms) takes the text of the label that stands beside it. The
//! rule (docs/selectors.md): the nearest label in the same container whose bounds end at the
//! field's left on the same row; else the nearest above it, overlapping it across; two
//! labels equally near give no label.

use crate::model::{Rect, Role, Tree};

/// How far a label's edge may overlap the field's and still stand beside (or above) it, in
/// pixels: toolkits pad their cells.
const SLACK: i32 = 2;

/// Roles that take a value and are named by a label beside them.
fn labelled_by_layout(role: Role) -> bool {
    matches!(
        role,
        Role::TextBox | Role::Password | Role::SpinButton | Role::ComboBox | Role::Slider
    )
}

/// Sets `label` on each unnamed field of `tree` that a label stands beside.
pub fn infer_labels(tree: &mut Tree) {
    for index in 0..tree.nodes.len() {
        let node = &tree.nodes[index].node;
        if !labelled_by_layout(node.role) || !node.display_name().is_empty() {
            continue;
        }
        let (Some(field), Some(parent)) = (node.bounds, tree.nodes[index].parent) else {
            continue;
        };
        let labels: Vec<(&str, Rect)> = tree.nodes[parent]
            .children
            .iter()
            .map(|&c| &tree.nodes[c].node)
            .filter(|n| n.role == Role::Label && !n.name.trim().is_empty())
            .filter_map(|n| Some((n.name.trim(), n.bounds?)))
            .collect();
        let beside = nearest(&labels, |label| beside(label, &field));
        let found = beside.or_else(|| nearest(&labels, |label| above(label, &field)));
        if let Some(text) = found {
            tree.nodes[index].node.label = Some(text.to_owned());
        }
    }
}

/// The one label at the least distance `distance` gives; none when two tie.
fn nearest<'a>(
    labels: &[(&'a str, Rect)],
    distance: impl Fn(&Rect) -> Option<i32>,
) -> Option<&'a str> {
    let mut best: Option<(i32, &str)> = None;
    let mut tied = false;
    for (text, bounds) in labels {
        let Some(d) = distance(bounds) else { continue };
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => tied = true,
            _ => {
                best = Some((d, text));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, text)| text)
}

/// How far left of `field` a label on its row ends; `None` when it is not there.
fn beside(label: &Rect, field: &Rect) -> Option<i32> {
    let centre = label.y + label.height / 2;
    let on_row = centre >= field.y && centre <= field.y + field.height;
    let gap = field.x - (label.x + label.width);
    (on_row && gap >= -SLACK).then_some(gap.max(0))
}

/// How far above `field` a label that overlaps it across ends; `None` when it is not there.
fn above(label: &Rect, field: &Rect) -> Option<i32> {
    let across = label.x < field.x + field.width && label.x + label.width > field.x;
    let gap = field.y - (label.y + label.height);
    (across && gap >= -SLACK).then_some(gap.max(0))
}

#[cfg(test)]
#[path = "labels_tests.rs"]
mod tests;
