//! Labels inferred from the layout: a field with no name of its own and no label relation
//! (zenity's and many dialogs' forms) takes the text of the label that stands beside it. The
//! rule (docs/selectors.md): the nearest label in the same container on the field's row at
//! its reading start (its left, its right in a right-to-left layout); else the nearest above
//! it, overlapping it across; two labels equally near give no label. A window reads right to
//! left when more of its fields have their labels at their right than at their left (flush
//! above, else beside): a mirrored layout, whatever the locale is called (GTK mirrors on its
//! translation's word, Qt on `-reverse`).

use crate::model::{Rect, Role, Tree};

/// How far a label's edge may overlap the field's and still stand beside (or above) it, in
/// pixels: toolkits pad their cells.
const SLACK: i32 = 2;

/// Where a row starts: which side of a field its label stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    LeftToRight,
    RightToLeft,
}

/// Roles that take a value and are named by a label beside them.
fn labelled_by_layout(role: Role) -> bool {
    matches!(
        role,
        Role::TextBox | Role::Password | Role::SpinButton | Role::ComboBox | Role::Slider
    )
}

/// A field and the labels of its container, with their bounds.
struct Field {
    index: usize,
    window: usize,
    bounds: Rect,
    /// The labels' indices in the tree.
    labels: Vec<(usize, Rect)>,
}

/// Sets `label` on each unnamed field of `tree` that a label stands beside.
pub fn infer_labels(tree: &mut Tree) {
    let fields = fields(tree);
    let mirrored = mirrored_windows(&fields);
    for field in &fields {
        if !tree.nodes[field.index].node.display_name().is_empty() {
            continue;
        }
        let side = if mirrored.contains(&field.window) {
            Reading::RightToLeft
        } else {
            Reading::LeftToRight
        };
        let found = nearest(&field.labels, |label| beside(label, &field.bounds, side))
            .or_else(|| nearest(&field.labels, |label| above(label, &field.bounds)));
        if let Some(label) = found {
            let text = tree.nodes[label].node.name.trim().to_owned();
            tree.nodes[field.index].node.label = Some(text);
        }
    }
}

/// The windows that read right to left: more of their fields lean right than left (`lean`).
fn mirrored_windows(fields: &[Field]) -> Vec<usize> {
    let mut tally: Vec<(usize, i32)> = Vec::new();
    for field in fields {
        let vote = lean(field);
        match tally.iter_mut().find(|(w, _)| *w == field.window) {
            Some((_, sum)) => *sum += vote,
            None => tally.push((field.window, vote)),
        }
    }
    tally
        .into_iter()
        .filter(|&(_, sum)| sum > 0)
        .map(|(w, _)| w)
        .collect()
}

/// Which way a field's labels say its row reads: 1 right to left, -1 left to right, 0 unknown.
/// A label above, flush with one edge only, says it first (a unit beside the field could
/// stand at either end); else a label beside it on one side.
fn lean(field: &Field) -> i32 {
    let leans = |side: Reading, flush_only: bool| {
        let found = field.labels.iter().any(|(_, label)| {
            if flush_only {
                above(label, &field.bounds).is_some() && flush(label, &field.bounds) == Some(side)
            } else {
                beside(label, &field.bounds, side).is_some()
            }
        });
        i32::from(found)
    };
    let above = leans(Reading::RightToLeft, true) - leans(Reading::LeftToRight, true);
    if above != 0 {
        return above;
    }
    leans(Reading::RightToLeft, false) - leans(Reading::LeftToRight, false)
}

/// The one edge of `field` that `label` is flush with: its left for a row read left to right,
/// its right for one read right to left; `None` for both or neither.
fn flush(label: &Rect, field: &Rect) -> Option<Reading> {
    let left = (label.x - field.x).abs() <= SLACK;
    let right = (label.x + label.width - field.x - field.width).abs() <= SLACK;
    match (left, right) {
        (true, false) => Some(Reading::LeftToRight),
        (false, true) => Some(Reading::RightToLeft),
        _ => None,
    }
}

/// Every field of `tree` with bounds, named or not (the named ones tell a layout's reading
/// direction too), with the labels beside it in its container.
fn fields(tree: &Tree) -> Vec<Field> {
    let mut fields = Vec::new();
    for (index, tn) in tree.nodes.iter().enumerate() {
        let (Some(bounds), Some(parent)) = (tn.node.bounds, tn.parent) else {
            continue;
        };
        if !labelled_by_layout(tn.node.role) {
            continue;
        }
        let labels = tree.nodes[parent]
            .children
            .iter()
            .filter_map(|&c| {
                let n = &tree.nodes[c].node;
                let named = n.role == Role::Label && !n.name.trim().is_empty();
                Some((c, n.bounds.filter(|_| named)?))
            })
            .collect();
        let window = super::window_of(tree, index);
        fields.push(Field {
            index,
            window,
            bounds,
            labels,
        });
    }
    fields
}

/// The one label (its index) at the least distance `distance` gives; none when two tie.
fn nearest(labels: &[(usize, Rect)], distance: impl Fn(&Rect) -> Option<i32>) -> Option<usize> {
    let mut best: Option<(i32, usize)> = None;
    let mut tied = false;
    for &(label, bounds) in labels {
        let Some(d) = distance(&bounds) else { continue };
        match best {
            Some((b, _)) if d > b => {}
            Some((b, _)) if d == b => tied = true,
            _ => {
                best = Some((d, label));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, label)| label)
}

/// How far before `field` (reading `side`) a label on its row stands; `None` when it is not
/// there.
fn beside(label: &Rect, field: &Rect, side: Reading) -> Option<i32> {
    let centre = label.y + label.height / 2;
    let on_row = centre >= field.y && centre <= field.y + field.height;
    let gap = match side {
        Reading::LeftToRight => field.x - (label.x + label.width),
        Reading::RightToLeft => label.x - (field.x + field.width),
    };
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
