//! Engine tests as data: a case file (`tests/cases/*.case`, format in `script.rs`) runs each
//! case on three rigs (`rigs.rs`) and snapshots, per case, every step's outcome as a model
//! reads it and what the rig's own oracle saw. Rigs that answer alike share one block.

mod rigs;
mod run;
mod script;
mod to_uia;
mod win_input;

use rigs::RigKind;
use script::Case;

/// Runs every case of `tests/cases/<file>.case`, snapshotting each as `cases__<file>@<case>`.
pub async fn run_file(file: &str) {
    let path = format!("{}/tests/cases/{file}.case", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let script = script::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let runs = script.cases.iter().map(|case| run_case(&script.app, case));
    let shown = futures_util::future::join_all(runs).await;
    for (case, shown) in script.cases.iter().zip(shown) {
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_suffix(case.name.replace(' ', "_"));
        settings.set_description(case.name.clone());
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| insta::assert_snapshot!(file, shown));
    }
}

/// The case's steps, each with its outcome on every rig. Cases and rigs run at once: an
/// action that finds no effect waits for one on the clock.
async fn run_case(app: &str, case: &Case) -> String {
    let runs = RigKind::ALL.map(|kind| on_rig(kind, app, case));
    let columns = futures_util::future::join_all(runs).await;
    let mut shown = String::new();
    for given in &case.givens {
        shown.push_str(&format!("given {}\n", given.words()));
    }
    let headings = std::iter::once("").chain(case.steps.iter().map(|(line, _)| line.as_str()));
    for (row, heading) in headings.enumerate() {
        if !heading.is_empty() {
            shown.push_str(&format!("\n> {heading}\n"));
        }
        shown.push_str(&grouped(columns.iter().map(|(k, b)| (*k, &b[row]))));
    }
    shown
}

/// The rig's notes, then each step's lines.
async fn on_rig(kind: RigKind, app: &str, case: &Case) -> (RigKind, Vec<Vec<String>>) {
    let (notes, mut rig) = rigs::build(kind, app, &case.givens).await;
    let mut found = None;
    let mut blocks = vec![notes];
    for (_, step) in &case.steps {
        blocks.push(run::step(&mut rig, step, &mut found).await);
    }
    (kind, blocks)
}

/// One block per distinct answer, headed by the rigs that gave it.
fn grouped<'a>(answers: impl Iterator<Item = (RigKind, &'a Vec<String>)>) -> String {
    let mut groups: Vec<(Vec<&str>, &Vec<String>)> = Vec::new();
    for (kind, lines) in answers {
        match groups.iter_mut().find(|(_, l)| *l == lines) {
            Some((kinds, _)) => kinds.push(kind.name()),
            None => groups.push((vec![kind.name()], lines)),
        }
    }
    let mut text = String::new();
    for (kinds, lines) in groups.into_iter().filter(|(_, l)| !l.is_empty()) {
        text.push_str(&format!("{}:\n", kinds.join(", ")));
        for line in lines {
            text.push_str(&format!("  {line}\n"));
        }
    }
    text
}
