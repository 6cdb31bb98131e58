//! What a schema cannot say of a pack: the app's files as `deskpilot_packs::check` says,
//! and more. The profile names no machine's path. A contract never widens the engine's retry rule. A workflow is a
//! pipeline `run_steps` would take. It refers only to its inputs, the pack, the environment,
//! its session and earlier steps.

use deskpilot_core::Selector;
use serde_json::Value;

use super::format::{Contract, ContractTool, Pack, Workflow};
use super::literals;
use super::report::{Notes, Report};
use super::run;
use crate::catalog::{Catalog, Known};
use crate::pipeline::refs;
use crate::pipeline::safety;
use crate::pipeline::spec::{RunStepsArgs, Step};
use crate::pipeline::validate::validate_with;
use deskpilot_packs::named;

/// Names a workflow's steps refer to beside earlier steps; no step may take one as its id.
pub const RESERVED: [&str; 4] = ["inputs", "pack", "env", "session"];

/// What `place`'s `pack` gets wrong beyond its files' schemas; its steps are checked against
/// `tools`, a catalog listing every tool (not one server's grants).
pub fn check(place: &str, pack: &Pack, tools: &Catalog) -> Report {
    let mut report = deskpilot_packs::check::check_app(place, &pack.app);
    fn notes<'a>(pack: &'a str, file: &'a str, report: &'a mut Report) -> Notes<'a> {
        Notes { pack, file, report }
    }
    contracts(pack, &mut notes(place, "actions.json", &mut report));
    workflows(
        pack,
        tools,
        &mut notes(place, "workflows.json", &mut report),
    );
    profile(pack, &mut notes(place, "profile.json", &mut report));
    report
}

fn profile(pack: &Pack, notes: &mut Notes<'_>) {
    literals::profile(&pack.app.profile, notes);
}

fn contracts(pack: &Pack, notes: &mut Notes<'_>) {
    for (index, contract) in pack.actions.contracts.iter().enumerate() {
        let at = format!("/contracts/{index}");
        if !pack.app.controls.controls.contains_key(&contract.control) {
            notes.error(
                &format!("{at}/control"),
                "unknown_control",
                deskpilot_packs::check::no_control(&contract.control),
            );
        }
        match (contract.tool, &contract.verb) {
            (ContractTool::Act, None) => notes.error(&at, "verb", "act needs a verb"),
            (ContractTool::Act, Some(_)) | (_, None) => {}
            (tool, Some(_)) => notes.error(&at, "verb", format!("{} takes no verb", tool.name())),
        }
        if let Some(expect) = &contract.expect {
            let at = format!("{at}/expect/selector");
            own_selector(pack, &expect.0.selector, &at, notes);
        }
        if contract.safe_to_repeat == Some(true)
            && let Err(why) = repeatable(contract)
        {
            notes.error(&format!("{at}/safe_to_repeat"), "unsafe_retry", why);
        }
    }
}

/// The engine's retry rule for the contract's tool and verb.
fn repeatable(contract: &Contract) -> Result<(), String> {
    let mut args = serde_json::Map::new();
    if let Some(verb) = &contract.verb {
        args.insert(
            "verb".into(),
            serde_json::to_value(verb).unwrap_or_default(),
        );
        args.insert("session".into(), "s".into());
        args.insert("target".into(), "t".into());
    }
    safety::repeatable(contract.tool.name(), false, &args)
}

fn workflows(pack: &Pack, tools: &Catalog, notes: &mut Notes<'_>) {
    let mut seen: Vec<&str> = Vec::new();
    for (index, workflow) in pack.workflows.workflows.iter().enumerate() {
        let at = format!("/workflows/{index}");
        if seen.contains(&workflow.id.as_str()) {
            let message = format!("two workflows are called {:?}", workflow.id);
            notes.error(&format!("{at}/id"), "duplicate_id", message);
        }
        seen.push(&workflow.id);
        inputs(workflow, &at, notes);
        steps(pack, workflow, &at, tools, notes);
        literals::workflow(workflow, &at, notes);
    }
}

/// The inputs' schema compiles and describes an object.
fn inputs(workflow: &Workflow, at: &str, notes: &mut Notes<'_>) {
    let at = format!("{at}/inputs");
    if workflow.inputs.get("type").and_then(Value::as_str) != Some("object") {
        notes.error(&at, "bad_inputs", "inputs is the JSON Schema of an object");
    }
    if let Err(e) = jsonschema::draft202012::new(&workflow.inputs) {
        notes.error(&at, "bad_inputs", format!("not a JSON Schema: {e}"));
    }
}

fn steps(pack: &Pack, workflow: &Workflow, at: &str, tools: &Catalog, notes: &mut Notes<'_>) {
    let placed = workflow.placed(at);
    for (path, step) in placed
        .iter()
        .filter(|(_, s)| RESERVED.contains(&s.id.as_str()))
    {
        let message = format!(
            "{:?} is reserved: {} are not step ids",
            step.id,
            RESERVED.join(", ")
        );
        notes.error(&format!("{path}/id"), "reserved_id", message);
    }
    for (path, step) in &placed {
        reserved_references(pack, workflow, step, path, notes);
        inside_the_app(pack, step, path, tools, notes);
    }
    let spec = RunStepsArgs {
        steps: workflow.steps.clone(),
        finally: workflow.finally.clone(),
        timeout_ms: workflow.timeout_ms,
        mode: None,
    };
    for problem in validate_with(&spec, &|name| tools.known(name), &|_| true, &RESERVED) {
        let path = placed
            .iter()
            .find(|(_, s)| Some(&s.id) == problem.step.as_ref())
            .map_or(format!("{at}/steps"), |(path, _)| path.clone());
        let message = format!("{} ({})", problem.message, problem.problem);
        notes.error(&path, "step", message);
    }
}

/// `${inputs.X}` names a declared input, `${pack.X}` is `${pack.id}`, `${env.X}` a name the
/// manifest declares; wherever a step holds references (its arguments, its conditions,
/// what it captures).
fn reserved_references(
    pack: &Pack,
    workflow: &Workflow,
    step: &Step,
    path: &str,
    notes: &mut Notes<'_>,
) {
    let declared = workflow.inputs.get("properties").and_then(Value::as_object);
    for r in run::references(step) {
        if let ("env", [name]) = (r.step.as_str(), r.path.as_slice())
            && !pack.app.manifest.env.iter().any(|e| &e.0 == name)
        {
            let message = format!("{r}: the manifest's `env` does not list {name}");
            notes.error(path, "undeclared_env", message);
        }
        let wrong = match (r.step.as_str(), r.path.as_slice()) {
            ("inputs", [name, ..]) => !declared.is_some_and(|d| d.contains_key(name)),
            ("pack", [field]) => field != "id",
            ("env", [_]) | ("session", []) => false,
            ("inputs" | "pack" | "env" | "session", _) => true,
            _ => false,
        };
        if wrong {
            let message = format!(
                "{r} refers to nothing (declare the input, or use ${{pack.id}}, ${{env.NAME}}, ${{session}})"
            );
            notes.error(path, "dangling_reference", message);
        }
    }
}

/// A workflow stays in its app: each step's tool works in a session, and that session is
/// the workflow's (`${session}`); a control it names is its own pack's.
fn inside_the_app(pack: &Pack, step: &Step, path: &str, tools: &Catalog, notes: &mut Notes<'_>) {
    let takes_session = match tools.known(&step.tool) {
        Some(Known::Listed { schema, .. }) => schema
            .get("properties")
            .and_then(|p| p.get("session"))
            .is_some(),
        // An unknown tool is the step check's to report.
        _ => true,
    };
    let session = step.args.get("session").and_then(Value::as_str);
    let unknown = tools.known(&step.tool).is_none();
    if !unknown && (!takes_session || session != Some("${session}")) {
        let message = format!(
            "{} works outside the workflow's app: a step's tool takes `session`, and it is \"${{session}}\"",
            step.tool
        );
        notes.error(path, "outside_app", message);
    }
    for text in selector_texts(step) {
        names_own_controls(pack, &text, path, notes);
        inputs_quoted(&text, path, notes);
    }
}

/// An input written into a selector is inside a quoted value (`[name="${inputs.x}"]`), where
/// it is escaped, unless it is the whole selector: elsewhere it could add steps or criteria.
fn inputs_quoted(text: &str, path: &str, notes: &mut Notes<'_>) {
    if refs::whole_reference(&Value::String(text.to_owned())).is_some() {
        return;
    }
    let written = text
        .match_indices("${inputs.")
        .filter(|(at, _)| !text[..*at].ends_with('$'));
    for (at, _) in written {
        if !named::quoted(text, at) {
            let message = format!(
                "an input written into the selector `{text}` outside a quoted value: write [name=\"${{inputs.x}}\"]"
            );
            notes.error(path, "unquoted_input", message);
        }
    }
}

/// A selector of the pack: it parses, or names only the pack's own controls.
fn own_selector(pack: &Pack, text: &str, at: &str, notes: &mut Notes<'_>) {
    if named::named(text).is_empty() {
        if let Err(e) = Selector::parse(text) {
            notes.error(at, "bad_selector", e.message);
        }
    } else {
        names_own_controls(pack, text, at, notes);
    }
}

/// Each control `text` names is one of the pack's own.
fn names_own_controls(pack: &Pack, text: &str, at: &str, notes: &mut Notes<'_>) {
    let id = pack.app.manifest.id.as_str();
    for n in named::named(text) {
        match n.pack {
            Some(other) if other != id => {
                let message = format!("@{other}/{} is another pack's control", n.control);
                notes.error(at, "outside_app", message);
            }
            _ if !pack.app.controls.controls.contains_key(n.control) => {
                notes.error(
                    at,
                    "unknown_control",
                    deskpilot_packs::check::no_control(n.control),
                );
            }
            _ => {}
        }
    }
}

/// The texts of a step that hold selectors: its selector arguments, its expect's, what it
/// captures.
fn selector_texts(step: &Step) -> Vec<String> {
    let args = run::SELECTOR_ARGS
        .iter()
        .filter_map(|k| step.args.get(*k).and_then(Value::as_str));
    let expect = step
        .expect
        .iter()
        .chain(&step.when)
        .flat_map(|e| std::iter::once(&e.0.selector).chain(&e.0.within));
    let capture = step.capture_before.iter().map(|c| &c.target);
    args.chain(expect.map(String::as_str))
        .chain(capture.map(String::as_str))
        .map(str::to_owned)
        .collect()
}
