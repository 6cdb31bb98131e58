//! The live tree on the in-memory backend: versions, `snapshot {since}`, the changes every
//! action result carries, and a burst of random changes whose diffs, applied one after the
//! other to the first snapshot, give what a second engine reads cold. Every test runs on both
//! flavours of the fake (`at_spi::` and `uia::`), against the same recorded snapshots.

#[macro_use]
mod flavours;

use std::sync::Arc;

use deskpilot_core::Wiring;
use deskpilot_core::live::{Changes, Since, View, apply};
use deskpilot_core::model::State;
use deskpilot_core::present::{self, strip_refs};
use deskpilot_core::{
    Action, ConnectTarget, Engine, Filter, MouseButton, OnOff, Selector, SnapshotRequest, Target,
};
use deskpilot_fake::{FakeBackend, FakeInput, Flavour, id};

const FORM: &str = r#"
application "Form" pid=7
  window "Main" path=/win bounds=0,0,400,400
    checkbox "Notify" path=/notify actions=click bounds=10,10,100,20
    heading "Clicked 0 times" path=/count
    button "Count" path=/button actions=click bounds=10,40,80,20
    spinbutton "Qty" path=/qty range=5,0,10 interfaces=value bounds=10,70,80,20
    list "Fruits" path=/fruits
      listitem "Apple" path=/apple
      listitem "Banana" path=/banana
      listitem "Cherry" path=/cherry
"#;

struct Rig {
    fake: Arc<FakeBackend>,
    engine: Engine,
    session: String,
}

async fn rig(flavour: Flavour) -> Rig {
    let fake = Arc::new(FakeBackend::with_flavour(flavour));
    fake.add_app(FORM);
    let input = Arc::new(FakeInput::new(fake.clone()));
    let engine = Engine::wired(
        fake.clone(),
        Wiring {
            input: Some(input.clone()),
            windows: Some(input.clone()),
            ..Wiring::default()
        },
    );
    let session = engine
        .connect(&ConnectTarget::WindowTitle("Main".into()))
        .await
        .unwrap()
        .id;
    Rig {
        fake,
        engine,
        session,
    }
}

fn since(since: Since) -> SnapshotRequest {
    SnapshotRequest {
        since: Some(since),
        ..SnapshotRequest::default()
    }
}

const CHECK: Action = Action::Toggle {
    ensure: Some(OnOff::On),
};

fn by(selector: &str) -> Target {
    Target::Selector(Selector::parse(selector).unwrap())
}

async fn every_whole_snapshot_is_a_new_version(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let first = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let second = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    assert_eq!((first.version(), second.version()), (Some(1), Some(2)));
    assert!(present::snapshot(&second).joined().ends_with("# v2\n"));
    // A subtree is not a version of the session's tree.
    let within = SnapshotRequest {
        within: Some(by("list[name=Fruits]")),
        ..SnapshotRequest::default()
    };
    let part = handle.snapshot(&within).await.unwrap();
    assert_eq!(part.version(), None);
}

async fn an_action_result_says_what_changed_with_refs_usable_at_once(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let report = handle
        .act(&by("checkbox[name=Notify]"), &CHECK)
        .await
        .unwrap();
    let tree = report.tree.clone().expect("the tree after the action");
    assert_eq!((tree.version, tree.since), (Some(2), Some(1)));
    assert_eq!((tree.changed, tree.added, tree.removed), (1, 0, 0));
    let text = present::action(&report);
    assert!(
        text.contains("\n# v2 since v1: 1 changed (other lines as they were)\n"),
        "{text}"
    );
    assert!(
        text.contains("\n- - checkbox \"Notify\" [ref=e1]"),
        "{text}"
    );
    assert!(
        text.contains("\n+ - checkbox \"Notify\" [checked] [ref=e1]"),
        "{text}"
    );
    // The next action's changes are counted from this one (it moved the baseline).
    rig.fake.edit(&id(":1.1", "/count"), |n| {
        n.node.name = "Clicked 1 times".into()
    });
    rig.fake.remove(&id(":1.1", "/banana"));
    let report = handle
        .act(&by("checkbox[name=Notify]"), &CHECK)
        .await
        .unwrap();
    let tree = report.tree.expect("the tree after the second action");
    assert_eq!((tree.version, tree.since), (Some(3), Some(2)));
    assert_eq!(
        (tree.changed, tree.added, tree.removed),
        (1, 0, 1),
        "{}",
        present::tree_update(&tree)
    );
    // The renamed label has a new ref, usable at once.
    let text = present::tree_update(&tree);
    let line = text
        .lines()
        .find(|l| l.starts_with('+') && l.contains("Clicked 1 times"))
        .expect("the label's new line");
    let new_ref = line.split("[ref=").nth(1).unwrap().trim_end_matches(']');
    let resolved = handle.resolve(&Target::Ref(new_ref.into())).await.unwrap();
    assert_eq!(resolved.node.name, "Clicked 1 times");
}

async fn without_a_snapshot_first_an_action_shows_the_tree_then_changes(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let report = handle
        .act(&by("checkbox[name=Notify]"), &CHECK)
        .await
        .unwrap();
    let tree = report.tree.clone().expect("the tree after the action");
    assert_eq!((tree.version, tree.since), (Some(1), None));
    assert!(
        present::tree_update(&tree)
            .starts_with("# v1, the whole tree (no earlier version kept):\n"),
        "{}",
        present::tree_update(&tree)
    );
    assert!(
        present::tree_update(&tree).contains("- checkbox \"Notify\" [checked]"),
        "{}",
        present::tree_update(&tree)
    );
    // Said as a whole tree, not as a change the action made.
    assert!(report.note.is_none_or(|n| !n.contains("tree changed")));
    let next = handle
        .act(
            &by("checkbox[name=Notify]"),
            &Action::Toggle { ensure: None },
        )
        .await
        .unwrap();
    let tree = next.tree.expect("the changes after the second action");
    assert_eq!(
        (tree.version, tree.since, tree.changed),
        (Some(2), Some(1), 1)
    );
}

async fn a_session_that_does_not_follow_its_tree_reads_none_after_actions(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    handle.follow_tree(false).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let report = handle
        .act(&by("checkbox[name=Notify]"), &CHECK)
        .await
        .unwrap();
    assert_eq!(report.tree, None);
}

async fn since_gives_the_changes_or_the_whole_tree_saying_why(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    rig.fake.edit(&id(":1.1", "/notify"), |n| {
        n.node.states.set(State::Checked, true)
    });
    let diff = handle.snapshot(&since(Since::Last)).await.unwrap();
    assert!(
        matches!(&diff.changes, Some(Changes::Diff(d)) if d.since == 1)
            && diff.version() == Some(2)
    );
    let text = present::snapshot(&diff).joined();
    assert!(text.starts_with("# v2 since v1: 1 changed"), "{text}");
    // Nothing changed since.
    let same = handle.snapshot(&since(Since::Version(2))).await.unwrap();
    assert_eq!(
        present::snapshot(&same).joined(),
        "# v3: nothing changed since v2\n"
    );
    // An unknown version, another filter: the whole tree, and why.
    let unknown = handle.snapshot(&since(Since::Version(99))).await.unwrap();
    assert!(matches!(&unknown.changes, Some(Changes::Whole { why }) if why.contains("not kept")));
    assert!(
        present::snapshot(&unknown)
            .joined()
            .contains("- checkbox \"Notify\"")
    );
    let other_filter = SnapshotRequest {
        filter: Filter::All,
        ..since(Since::Last)
    };
    let all = handle.snapshot(&other_filter).await.unwrap();
    assert!(
        matches!(&all.changes, Some(Changes::Whole { why }) if why.contains("filter interactive"))
    );
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

async fn a_burst_of_changes_loses_nothing_a_cold_read_shows(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    let first = handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let mut held = View::lines_of(&first.tree, &first.rendered);
    let mut rng = Lcg(11);
    let mut items: Vec<String> = vec!["/apple".into(), "/banana".into(), "/cherry".into()];
    for change in 0..1000 {
        match rng.next(4) {
            0 => rig.fake.edit(&id(":1.1", "/count"), |n| {
                n.node.name = format!("Clicked {change} times")
            }),
            1 => {
                let on = rng.next(2) == 0;
                rig.fake.edit(&id(":1.1", "/notify"), |n| {
                    n.node.states.set(State::Checked, on)
                })
            }
            2 if items.len() > 1 => {
                let gone = items.remove(rng.next(items.len()));
                rig.fake.remove(&id(":1.1", &gone));
            }
            _ => {
                let path = format!("/item{change}");
                let at = rng.next(items.len() + 1);
                rig.fake.edit(&id(":1.1", "/fruits"), |list| {
                    let mut item = list
                        .children
                        .first()
                        .cloned()
                        .unwrap_or_else(|| panic!("the list keeps one item to copy"));
                    item.node.id = id(":1.1", &path);
                    item.node.name = format!("Item {change}");
                    list.children.insert(at.min(list.children.len()), item);
                });
                items.insert(at, path);
            }
        }
        // Read the changes every few changes, as an agent between two steps would.
        if rng.next(5) == 0 {
            let read = handle.snapshot(&since(Since::Last)).await.unwrap();
            let new = View::lines_of(&read.tree, &read.rendered);
            held = match &read.changes {
                Some(Changes::Diff(diff)) => {
                    apply(&held, &diff.edits).unwrap_or_else(|e| panic!("change {change}: {e}"))
                }
                _ => new.clone(),
            };
            assert_eq!(held, new, "change {change}");
        }
    }
    // The end: what the diffs built against a second engine's cold read.
    let last = handle.snapshot(&since(Since::Last)).await.unwrap();
    if let Some(Changes::Diff(diff)) = &last.changes {
        held = apply(&held, &diff.edits).unwrap();
    }
    let cold_engine = Engine::new(rig.fake.clone());
    let cold_session = cold_engine
        .connect(&ConnectTarget::WindowTitle("Main".into()))
        .await
        .unwrap()
        .id;
    let cold = cold_engine
        .session(&cold_session)
        .unwrap()
        .snapshot(&SnapshotRequest::default())
        .await
        .unwrap();
    assert_eq!(
        strip_refs(&deskpilot_core::live::lines_text(&held)),
        strip_refs(&cold.rendered.text)
    );
}

const CLICK: Action = Action::Click {
    button: MouseButton::Left,
    double: false,
};

async fn an_unverified_action_says_when_the_tree_changed_elsewhere(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let quiet = handle.act(&by("button[name=Count]"), &CLICK).await.unwrap();
    assert_eq!(quiet.effect, deskpilot_core::Effect::Unverified);
    assert!(
        !quiet.note.clone().unwrap().contains("tree changed"),
        "{quiet:?}"
    );
    // Something else changed meanwhile: said, without crediting the click.
    rig.fake.edit(&id(":1.1", "/count"), |n| {
        n.node.name = "Clicked 1 times".into()
    });
    let report = handle.act(&by("button[name=Count]"), &CLICK).await.unwrap();
    assert_eq!(report.effect, deskpilot_core::Effect::Unverified);
    let note = report.note.clone().unwrap();
    assert!(note.ends_with("; the tree changed (below)"), "{note}");
}

async fn secret_text_typed_without_a_target_withholds_the_tree(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let typed = Action::TypeText(deskpilot_core::InputText::new(
        String::from("hunter2"),
        true,
    ));
    let report = handle.act_on_window(&typed).await.unwrap();
    let tree = report.tree.expect("a word on the tree");
    assert_eq!(tree.version, None);
    assert!(
        present::tree_update(&tree).contains("not read after secret text"),
        "{}",
        present::tree_update(&tree)
    );
}

async fn an_action_that_failed_after_its_input_says_what_changed(flavour: Flavour) {
    let rig = rig(flavour).await;
    let handle = rig.engine.session(&rig.session).unwrap();
    handle.snapshot(&SnapshotRequest::default()).await.unwrap();
    let error = handle
        .act(
            &by("spinbutton[name=Qty]"),
            &Action::SetValue(deskpilot_core::ValueInput::Number(50.0)),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, deskpilot_core::Code::ValueClamped);
    let tree = present::tree_update(&error.tree.clone().expect("the changes after the input"));
    assert!(tree.starts_with("# v2 since v1: 1 changed"), "{tree}");
    assert!(tree.contains("+ - spinbutton \"Qty\": 10"), "{tree}");
    let text = present::failure(&error);
    assert!(
        text.contains("Hint: ") && text.ends_with(": 10 [ref=e4]"),
        "{text}"
    );
    // A refusal before any input reads nothing.
    let refused = handle
        .act(&by("button[name=Nope]"), &CLICK)
        .await
        .unwrap_err();
    assert_eq!(refused.tree, None);
}

on_both_flavours!(
    every_whole_snapshot_is_a_new_version,
    an_action_result_says_what_changed_with_refs_usable_at_once,
    without_a_snapshot_first_an_action_shows_the_tree_then_changes,
    a_session_that_does_not_follow_its_tree_reads_none_after_actions,
    since_gives_the_changes_or_the_whole_tree_saying_why,
    a_burst_of_changes_loses_nothing_a_cold_read_shows,
    an_unverified_action_says_when_the_tree_changed_elsewhere,
    secret_text_typed_without_a_target_withholds_the_tree,
    an_action_that_failed_after_its_input_says_what_changed,
);
