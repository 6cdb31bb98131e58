use super::*;
use crate::model::ElementId;

fn line(id: &str, text: &str) -> ViewLine {
    ViewLine {
        key: LineKey {
            element: ElementId::new(":1.1", id),
            nth: 0,
        },
        text: text.to_owned(),
    }
}

fn view(spec: &[(&str, &str)]) -> Vec<ViewLine> {
    spec.iter().map(|(id, text)| line(id, text)).collect()
}

#[test]
fn unchanged_views_have_no_edits() {
    let a = view(&[("/1", "- window"), ("/2", " - button \"OK\" [ref=e2]")]);
    assert_eq!(diff(&a, &a), vec![]);
}

#[test]
fn a_changed_line_is_old_and_new_with_its_element() {
    let a = view(&[("/1", "- window"), ("/2", " - label \"Clicked 0 times\"")]);
    let b = view(&[("/1", "- window"), ("/2", " - label \"Clicked 1 times\"")]);
    assert_eq!(
        diff(&a, &b),
        vec![Edit::Changed {
            old: " - label \"Clicked 0 times\"".into(),
            new: b[1].clone()
        }]
    );
}

#[test]
fn added_lines_say_what_they_follow_and_removed_lines_are_named() {
    let a = view(&[
        ("/1", "- window"),
        ("/2", " - button \"A\""),
        ("/3", " - button \"B\""),
    ]);
    let b = view(&[
        ("/1", "- window"),
        ("/4", " - dialog \"Confirm\""),
        ("/5", "  - button \"OK\""),
        ("/3", " - button \"B\""),
    ]);
    let edits = diff(&a, &b);
    assert_eq!(
        edits,
        vec![
            Edit::Removed { line: a[1].clone() },
            Edit::Added {
                line: b[1].clone(),
                after: Some(b[0].key.clone())
            },
            Edit::Added {
                line: b[2].clone(),
                after: Some(b[1].key.clone())
            },
        ]
    );
    assert_eq!(apply(&a, &edits).unwrap(), b);
}

#[test]
fn a_moved_element_is_removed_and_added_again() {
    let a = view(&[("/1", "a"), ("/2", "b"), ("/3", "c")]);
    let b = view(&[("/3", "c"), ("/1", "a"), ("/2", "b")]);
    let edits = diff(&a, &b);
    assert_eq!(edits.len(), 2, "{edits:?}");
    assert_eq!(apply(&a, &edits).unwrap(), b);
}

#[test]
fn an_edit_that_does_not_fit_is_refused() {
    let a = view(&[("/1", "a"), ("/2", "b")]);
    let b = view(&[("/1", "a"), ("/2", "B")]);
    let edits = diff(&a, &b);
    let other = view(&[("/1", "a"), ("/2", "x")]);
    assert!(apply(&other, &edits).unwrap_err().contains("not held"));
}

/// A small deterministic generator (no dependency for one test).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % below
    }
}

#[test]
fn applying_the_diff_gives_the_new_view_for_random_edits() {
    let mut rng = Lcg(7);
    for round in 0..500 {
        let size = rng.next(30);
        let mut next_id = size;
        let a: Vec<ViewLine> = (0..size)
            .map(|i| line(&format!("/{i}"), &format!("line {i}")))
            .collect();
        let mut b = a.clone();
        for _ in 0..rng.next(12) {
            match rng.next(4) {
                0 if !b.is_empty() => {
                    b.remove(rng.next(b.len()));
                }
                1 => {
                    next_id += 1;
                    let at = rng.next(b.len() + 1);
                    b.insert(at, line(&format!("/{next_id}"), &format!("new {next_id}")));
                }
                2 if !b.is_empty() => {
                    let at = rng.next(b.len());
                    b[at].text.push('!');
                }
                3 if b.len() > 1 => {
                    let moved = b.remove(rng.next(b.len()));
                    let at = rng.next(b.len() + 1);
                    b.insert(at, moved);
                }
                _ => {}
            }
        }
        let edits = diff(&a, &b);
        assert_eq!(apply(&a, &edits).unwrap(), b, "round {round}");
        // Never more edits than replacing everything.
        assert!(edits.len() <= a.len() + b.len(), "round {round}");
    }
}
