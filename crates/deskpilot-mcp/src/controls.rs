//! Controls by name: `@pack/control` in a tool's target or selector is the control's first
//! selector that finds something in the session, tried in the pack's order (each inside
//! what its `within` control resolves to). The session must be on the pack's app. Which
//! selector was used is reported; a later one than the first means the pack has drifted.

use deskpilot_core::{Code, Engine, Error, Selector};
use rmcp::model::JsonObject;
use serde::Serialize;
use serde_json::Value;

use crate::call::Call;
use crate::named::{self, Named};
use crate::outcome::ToolOutcome;
use crate::packs::format::Pack;
use crate::packs::run::{SELECTOR_ARGS, recognises};
use crate::packs::set::PackSet;

/// At most this many selectors are tried for one control (its own times its `within`'s).
const MAX_CANDIDATES: usize = 16;

/// A control named in a call, as it was resolved.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Resolved {
    /// `@pack/control`.
    pub control: String,
    /// The selector used.
    pub selector: String,
    /// Which of the control's own selectors it is (1 is the first).
    pub candidate: usize,
    /// Whether it found anything (when none did, the first is used, and the tool says
    /// what it did not find).
    pub found: bool,
}

impl Resolved {
    /// A line for the reader when the pack's first selector did not serve.
    pub fn note(&self) -> Option<String> {
        match (self.found, self.candidate) {
            (false, _) => Some(format!(
                "{}: none of its selectors found it now; `{}` was used",
                self.control, self.selector
            )),
            (true, 1) => None,
            (true, n) => Some(format!(
                "{}: found by its selector {n}, `{}` (the pack has drifted: its earlier selectors found nothing)",
                self.control, self.selector
            )),
        }
    }
}

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
    let names = named::named(text);
    let mut found = Vec::new();
    for n in &names {
        let pack = pack_of(packs, n)?;
        let handle = call.session(engine, session)?;
        let app = handle.info()?.app;
        if !recognises(&pack.profile.main_window, &app) {
            return Err(crate::packs::run::mismatch(pack, &app.name));
        }
        let candidates = candidates(pack, n.control, 0);
        let mut chosen = None;
        for (own, selector) in &candidates {
            let Ok(parsed) = Selector::parse(selector) else {
                continue;
            };
            let hits = handle.find(&parsed, None, 1).await;
            if hits.is_ok_and(|h| h.total > 0) {
                chosen = Some((*own, selector.clone(), true));
                break;
            }
        }
        let (own, selector, hit) = chosen.unwrap_or_else(|| {
            let (own, selector) = candidates[0].clone();
            (own, selector, false)
        });
        found.push(Resolved {
            control: format!("@{}/{}", pack.manifest.id, n.control),
            selector,
            candidate: own + 1,
            found: hit,
        });
    }
    let mut chosen = found.iter();
    let resolved = named::replace(text, |_| {
        chosen
            .next()
            .map(|r| r.selector.clone())
            .unwrap_or_default()
    });
    Ok((resolved, found))
}

/// The pack a name gives (a name outside a workflow gives one).
fn pack_of<'a>(packs: &'a PackSet, n: &Named<'_>) -> Result<&'a Pack, Error> {
    let unknown = |message: String| {
        Error::new(
            Code::UnknownPack,
            message,
            "`packs {pack}` lists a pack's controls; name one as @pack/control",
        )
    };
    let id = n.pack.ok_or_else(|| {
        unknown(format!(
            "@{} names no pack: write @pack/{}",
            n.control, n.control
        ))
    })?;
    let pack = &packs
        .get(id)
        .ok_or_else(|| unknown(format!("no app pack {id:?}")))?
        .pack;
    if !pack.controls.controls.contains_key(n.control) {
        return Err(unknown(format!(
            "pack {id:?} has no control {:?}",
            n.control
        )));
    }
    Ok(pack)
}

/// The selectors that may find `control`, in order, each with which of its own it is.
fn candidates(pack: &Pack, control: &str, depth: usize) -> Vec<(usize, String)> {
    let Some(c) = pack.controls.controls.get(control) else {
        return Vec::new();
    };
    // `within` has no cycle (the pack check refuses one); the depth bounds it anyway.
    let outer = match &c.within {
        Some(within) if depth < 8 => candidates(pack, within, depth + 1),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    for (own, selector) in c.selectors.iter().enumerate() {
        if outer.is_empty() {
            out.push((own, selector.clone()));
        }
        for (_, scope) in &outer {
            out.push((own, format!("{scope} >> {selector}")));
        }
    }
    out.truncate(MAX_CANDIDATES);
    out
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
