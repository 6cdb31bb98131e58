//! Controls by name in a tool's arguments: `@pack/control` in a target or selector is
//! resolved in the call's session (`deskpilot_packs::resolve`) before the tool runs, and
//! which selector served is reported with the tool's result.

use deskpilot_core::{Code, Engine, Error};
use deskpilot_packs::named;
use deskpilot_packs::resolve::resolve;
use rmcp::model::JsonObject;
use serde_json::Value;

use crate::call::Call;
use crate::outcome::ToolOutcome;
use crate::packs::run::SELECTOR_ARGS;
use crate::packs::set::PackSet;

pub use deskpilot_packs::resolve::Resolved;

/// Whether any of `args`' selector arguments names a control.
pub fn names_any(args: &JsonObject) -> bool {
    SELECTOR_ARGS.iter().any(|key| {
        args.get(*key)
            .and_then(Value::as_str)
            .is_some_and(|text| !named::named(text).is_empty())
    })
}

/// `args` with every control named in its selector arguments resolved in its session.
pub async fn resolve_args(
    engine: &Engine,
    call: &Call,
    packs: &PackSet,
    args: &mut JsonObject,
) -> Result<Vec<Resolved>, Error> {
    let session = args
        .get("session")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| {
            Error::new(
                Code::InvalidArguments,
                "a control by name (`@pack/control`) is found in a session: give `session`",
                "connect to the pack's app and give its session",
            )
        })?;
    let mut all = Vec::new();
    for key in SELECTOR_ARGS {
        let Some(Value::String(text)) = args.get(key) else {
            continue;
        };
        let (resolved, found) = resolve_text(engine, call, packs, &session, text).await?;
        args.insert(key.to_owned(), Value::String(resolved));
        all.extend(found);
    }
    Ok(all)
}

/// `text` with every control it names resolved in `session`.
pub async fn resolve_text(
    engine: &Engine,
    call: &Call,
    packs: &PackSet,
    session: &str,
    text: &str,
) -> Result<(String, Vec<Resolved>), Error> {
    let handle = call.session(engine, session)?;
    let resolution = resolve(&handle, |id| packs.app(id), text).await?;
    Ok((resolution.text, resolution.controls))
}

/// `outcome` with the controls its call named: in its structured content (`controls`), and
/// a line each in its text when the pack's first selector did not serve.
pub fn report(outcome: &mut ToolOutcome, resolved: &[Resolved]) {
    if resolved.is_empty() {
        return;
    }
    if let Value::Object(map) = &mut outcome.structured {
        let list = serde_json::to_value(resolved).unwrap_or_default();
        map.insert("controls".into(), list);
    }
    let notes: Vec<String> = resolved.iter().filter_map(Resolved::note).collect();
    if !notes.is_empty() {
        outcome.text = format!("{}\n{}", notes.join("\n"), outcome.text);
    }
}
