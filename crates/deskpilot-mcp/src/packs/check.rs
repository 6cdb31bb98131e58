//! What a schema cannot say of a pack. Names refer to controls, pages and groups that exist.
//! `within` has no cycle. A contract never widens the engine's retry rule. A workflow is a
//! pipeline `run_steps` would take. It refers only to its inputs, the pack, the environment,
//! its session and earlier steps.

use std::collections::BTreeMap;

use deskpilot_core::Selector;
use serde_json::Value;

use super::format::{Contract, ContractTool, Control, Pack, Workflow};
use super::literals;
use super::report::{Notes, Report};
use super::run;
use crate::catalog::{Catalog, Known};
use crate::named;
use crate::pipeline::refs;
use crate::pipeline::safety;
use crate::pipeline::spec::{RunStepsArgs, Step};
use crate::pipeline::validate::validate_with;

/// Names a workflow's steps refer to beside earlier steps; no step may take one as its id.
pub const RESERVED: [&str; 4] = ["inputs", "pack", "env", "session"];

/// What `place`'s `pack` gets wrong beyond its files' schemas; its steps are checked against
/// `tools`, a catalog listing every tool (not one server's grants).
pub fn check(place: &str, pack: &Pack, tools: &Catalog) -> Report {
    let mut report = Report::default();
    fn notes<'a>(pack: &'a str, file: &'a str, report: &'a mut Report) -> Notes<'a> {
        Notes { pack, file, report }
    }
    controls(pack, &mut notes(place, "controls.json", &mut report));
    pages(pack, &mut notes(place, "pages.json", &mut report));
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
    if let Some(title) = &pack.profile.main_window.title
        && let Err(e) = deskpilot_core::selector::Regex::new(title)
    {
        notes.error("/main_window/title", "bad_selector", e.message);
    }
    literals::profile(&pack.profile, notes);
}

fn is_name(name: &str) -> bool {
    refs::is_step_id(name) && name.len() <= 64
}

fn controls(pack: &Pack, notes: &mut Notes<'_>) {
    let all = &pack.controls.controls;
    for (name, control) in all {
        let at = format!("/controls/{name}");
        if !is_name(name) {
            notes.error(
                &at,
                "schema",
                "a control's name is letters, digits, `_` and `-`",
            );
        }
        if let Some(within) = &control.within
            && !all.contains_key(within)
        {
            notes.error(
                &format!("{at}/within"),
                "unknown_control",
                no_control(within),
            );
        }
        for (n, selector) in control.selectors.iter().enumerate() {
            if let Err(e) = Selector::parse(selector) {
                notes.error(&format!("{at}/selectors/{n}"), "bad_selector", e.message);
            }
        }
        if within_cycle(all, name) {
            let message = format!("{name} is within itself through `within`");
            notes.error(&format!("{at}/within"), "within_cycle", message);
        }
        refers_to_pages(pack, &at, control, notes);
    }
}

fn no_control(name: &str) -> String {
    format!("no control {name:?} in controls.json")
}

/// Whether following `within` from `name` comes back to it.
fn within_cycle(all: &BTreeMap<String, Control>, name: &str) -> bool {
    let mut at = all.get(name).and_then(|c| c.within.as_deref());
    for _ in 0..=all.len() {
        match at {
            Some(next) if next == name => return true,
            Some(next) => at = all.get(next).and_then(|c| c.within.as_deref()),
            None => return false,
        }
    }
    false
}

fn refers_to_pages(pack: &Pack, at: &str, control: &Control, notes: &mut Notes<'_>) {
    let pages = pack.pages.as_ref();
    if let Some(page) = &control.page
        && !pages.is_some_and(|p| p.pages.contains_key(page))
    {
        let message = format!("no page {page:?} in pages.json");
        notes.error(&format!("{at}/page"), "unknown_page", message);
    }
    if let Some(group) = &control.group
        && !pages.is_some_and(|p| p.groups.contains_key(group))
    {
        let message = format!("no group {group:?} in pages.json");
        notes.error(&format!("{at}/group"), "unknown_group", message);
    }
}

/// The controls pages, groups and components name exist.
fn pages(pack: &Pack, notes: &mut Notes<'_>) {
    let known = |name: &String| pack.controls.controls.contains_key(name);
    let mut named: Vec<(String, &String)> = Vec::new();
    if let Some(pages) = &pack.pages {
        for (page, p) in &pages.pages {
            let at = format!("/pages/{page}");
            named.extend(p.navigate.iter().map(|c| (format!("{at}/navigate"), c)));
            named.extend(p.root.iter().map(|c| (format!("{at}/root"), c)));
            named.extend(p.ready.iter().map(|c| (format!("{at}/ready"), c)));
        }
        for (group, members) in &pages.groups {
            named.extend(members.iter().map(|c| (format!("/groups/{group}"), c)));
        }
    }
    for (at, name) in named.into_iter().filter(|(_, c)| !known(c)) {
        notes.error(&at, "unknown_control", no_control(name));
    }
    if let Some(components) = &pack.components {
        notes.file = "components.json";
        for (component, c) in &components.components {
            let at = format!("/components/{component}");
            for name in std::iter::once(&c.root)
                .chain(&c.parts)
                .filter(|c| !known(c))
            {
                notes.error(&at, "unknown_control", no_control(name));
            }
        }
    }
}

fn contracts(pack: &Pack, notes: &mut Notes<'_>) {
    for (index, contract) in pack.actions.contracts.iter().enumerate() {
        let at = format!("/contracts/{index}");
        if !pack.controls.controls.contains_key(&contract.control) {
            notes.error(
                &format!("{at}/control"),
                "unknown_control",
                no_control(&contract.control),
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
            && !pack.manifest.env.iter().any(|e| &e.0 == name)
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
    let id = pack.manifest.id.as_str();
    for n in named::named(text) {
        match n.pack {
            Some(other) if other != id => {
                let message = format!("@{other}/{} is another pack's control", n.control);
                notes.error(at, "outside_app", message);
            }
            _ if !pack.controls.controls.contains_key(n.control) => {
                notes.error(at, "unknown_control", no_control(n.control));
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
