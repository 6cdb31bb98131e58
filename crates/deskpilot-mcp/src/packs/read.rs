//! A whole pack read: the app's files by `deskpilot_packs::read`, then what acting means and
//! the workflows, each checked against its JSON Schema and read into its type.

use std::sync::OnceLock;

pub use deskpilot_packs::read::{MAX_FILE_BYTES, RawPack, from_dir};
use deskpilot_packs::read::{checked, parse_app, typed, validator};

use super::format::{Actions, Pack, Workflows, schema};
use super::report::Report;

/// The pack in `raw`, each file checked against its schema; `None` when any file is wrong
/// (each problem in `report`).
pub fn parse(raw: &RawPack, report: &mut Report) -> Option<Pack> {
    let before = report.errors.len();
    let app = parse_app(raw, report);
    let [actions_schema, workflows_schema] = validators();
    let actions = checked(raw, "actions.json", actions_schema, report);
    let workflows = checked(raw, "workflows.json", workflows_schema, report);
    if report.errors.len() > before {
        return None;
    }
    Some(Pack {
        app: app?,
        actions: typed(actions).unwrap_or_default(),
        workflows: typed(workflows).unwrap_or_default(),
    })
}

/// The validators of `actions.json` and `workflows.json`, compiled once.
fn validators() -> &'static [jsonschema::Validator; 2] {
    static VALIDATORS: OnceLock<[jsonschema::Validator; 2]> = OnceLock::new();
    VALIDATORS.get_or_init(|| [schema::<Actions>(), schema::<Workflows>()].map(|s| validator(&s)))
}
