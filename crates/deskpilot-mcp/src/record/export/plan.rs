//! The calls of a recording that a replay needs, in order. Reads that changed nothing and
//! the containers of pipeline steps (whose steps are recorded one by one) are dropped. A
//! call that failed and was tried again is folded into the try that worked; one that failed
//! for good is kept as such. Each call's element is its recorded locator.

use serde_json::Value;

use super::ExportError;
use super::read::Recorded;
use crate::record::line::Entry;

/// Calls that only read (or open and close the session, which the header and the end of
/// a test do), and pipelines whose steps are recorded one by one.
const DROPPED: [&str; 17] = [
    "list_apps",
    "connect",
    "disconnect",
    "snapshot",
    "find",
    "get_properties",
    "hit_test",
    "get_focus",
    "read_text",
    "read_table",
    "screenshot",
    "probe_app",
    "packs",
    "validate_steps",
    "run_steps",
    "continue_run",
    "run_workflow",
];

/// One call a replay makes.
#[derive(Debug, Clone)]
pub struct Planned {
    pub entry: Entry,
    /// Each element argument's locator, by argument (`target`, `from`, `to`).
    pub elements: Vec<(String, String)>,
    /// The failures of the earlier tries, when it worked only after them.
    pub failed_first: Vec<String>,
}

/// A call that failed and was not tried again.
#[derive(Debug, Clone)]
pub struct Failed {
    pub entry: Entry,
    pub elements: Vec<(String, String)>,
}

/// A step of the replay.
#[derive(Debug, Clone)]
pub enum Step {
    Call(Planned),
    Failed(Failed),
}

#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub steps: Vec<Step>,
}

impl Plan {
    /// What the reader should know: calls that failed for good.
    pub fn notes(&self) -> Vec<String> {
        self.steps
            .iter()
            .filter_map(|step| match step {
                Step::Failed(f) => Some(format!(
                    "call {} ({}) failed in the session ({}): kept as a comment",
                    f.entry.seq,
                    f.entry.tool,
                    f.entry.code.as_deref().unwrap_or("failed")
                )),
                Step::Call(_) => None,
            })
            .collect()
    }
}

/// The replay of `recorded`; `known` says which tools this deskpilot has.
pub fn plan(recorded: &Recorded, known: &dyn Fn(&str) -> bool) -> Result<Plan, ExportError> {
    let mut plan = Plan::default();
    let mut pending: Vec<(Entry, Vec<(String, String)>)> = Vec::new();
    for entry in &recorded.calls {
        if !known(&entry.tool) {
            return Err(call_error(entry, "no tool of that name in this deskpilot"));
        }
        if DROPPED.contains(&entry.tool.as_str()) {
            continue;
        }
        let elements = elements(entry)?;
        // A try of the call that failed just before: the same tool, arguments and elements.
        let same = |(e, els): &(Entry, Vec<(String, String)>)| {
            e.tool == entry.tool && e.args == entry.args && *els == elements
        };
        if !pending.last().is_some_and(same) {
            flush(&mut plan, &mut pending);
        }
        if entry.ok {
            let failed_first = pending
                .drain(..)
                .map(|(e, _)| e.code.unwrap_or_else(|| "failed".into()))
                .collect();
            plan.steps.push(Step::Call(Planned {
                entry: entry.clone(),
                elements,
                failed_first,
            }));
        } else {
            pending.push((entry.clone(), elements));
        }
    }
    flush(&mut plan, &mut pending);
    Ok(plan)
}

/// The failed tries not followed by one that worked: the last kept, as failed.
fn flush(plan: &mut Plan, pending: &mut Vec<(Entry, Vec<(String, String)>)>) {
    if let Some((entry, elements)) = pending.pop() {
        plan.steps.push(Step::Failed(Failed { entry, elements }));
    }
    pending.clear();
}

/// Each element argument's locator: the recorded one, else the selector the call gave.
/// A ref with no locator cannot be replayed: an error, never a guess.
fn elements(entry: &Entry) -> Result<Vec<(String, String)>, ExportError> {
    entry
        .elements
        .iter()
        .map(|element| {
            let chosen = match &element.locator {
                Some(locator) => locator.clone(),
                None if !is_ref(&element.given) => element.given.clone(),
                None => {
                    let why = format!(
                        "its {} ({}) could not be located when it was recorded: a ref means nothing in another run",
                        element.arg, element.given
                    );
                    return Err(call_error(entry, &why));
                }
            };
            Ok((element.arg.clone(), chosen))
        })
        .collect()
}

fn is_ref(text: &str) -> bool {
    deskpilot_core::session::parse_ref(text).is_some()
}

fn call_error(entry: &Entry, why: &str) -> ExportError {
    ExportError::Call {
        seq: entry.seq,
        tool: entry.tool.clone(),
        why: why.to_owned(),
    }
}

/// A string argument of `entry`.
pub fn text<'a>(entry: &'a Entry, key: &str) -> Option<&'a str> {
    entry.args.get(key).and_then(Value::as_str)
}
