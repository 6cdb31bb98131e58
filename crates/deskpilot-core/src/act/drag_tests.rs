//! A drop's evidence on looks built by hand: only what the drop changed confirms a drag.

use super::*;
use crate::model::ElementId;

fn cell(name: &str) -> (Role, String) {
    (Role::Cell, name.to_owned())
}

fn source() -> Node {
    let mut node = Node::new(ElementId::new(":1.a", "/report"), Role::Cell);
    node.name = "report.txt".into();
    node
}

fn folder(children: &[&str]) -> Seen {
    Seen {
        name: "inbox".into(),
        value: None,
        children: children.iter().map(|c| cell(c)).collect(),
    }
}

/// Thunar's detailed view: the source and the target folder among the rows.
fn view(rows: &[&str]) -> DropLook {
    DropLook {
        alive: Some(true),
        place: Some(rows.iter().map(|r| cell(r)).collect()),
        target: Some(folder(&[])),
    }
}

#[test]
fn a_press_that_only_selected_the_row_confirms_nothing() {
    // The selection and the drag's windows are not read at all; the rows are as they were.
    let before = view(&["inbox", "report.txt"]);
    assert!(drop_evidence(Some(&source()), &before, &before.clone()).is_empty());
}

#[test]
fn the_source_leaving_its_place_confirms_the_drop() {
    let before = view(&["inbox", "report.txt"]);
    let after = view(&["inbox"]);
    let seen = drop_evidence(Some(&source()), &before, &after);
    assert_eq!(seen, ["the dragged cell \"report.txt\" left its place"]);
}

#[test]
fn a_reordered_list_and_a_filled_target_confirm_it() {
    let before = view(&["report.txt", "a", "b"]);
    let mut after = view(&["a", "b", "report.txt"]);
    let seen = drop_evidence(Some(&source()), &before, &after);
    assert_eq!(
        seen,
        ["the dragged cell \"report.txt\" moved from position 1 to 3 among its siblings"]
    );
    after.place = before.place.clone();
    after.target = Some(folder(&["report.txt"]));
    let seen = drop_evidence(Some(&source()), &before, &after);
    assert_eq!(seen, ["the dragged cell \"report.txt\" is in the target"]);
}

#[test]
fn a_source_gone_or_a_target_changed_confirms_it() {
    let before = view(&["inbox", "report.txt"]);
    let mut after = before.clone();
    after.alive = Some(false);
    assert_eq!(
        drop_evidence(Some(&source()), &before, &after),
        ["the dragged cell \"report.txt\" is gone"]
    );
    let mut after = before.clone();
    after.target = Some(Seen {
        value: Some("1".into()),
        ..folder(&[])
    });
    assert_eq!(
        drop_evidence(Some(&source()), &before, &after),
        ["the target's value changed"]
    );
    // Between two points nothing can be read.
    assert!(drop_evidence(None, &DropLook::default(), &DropLook::default()).is_empty());
}
