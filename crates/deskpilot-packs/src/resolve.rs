//! Controls by name: `@pack/control` in a selector is the control's first selector that finds
//! something in the session, tried in the pack's order (each inside what its `within` control
//! resolves to). The session must be on the pack's app. Which selector was used is reported;
//! a later one than the first means the pack has drifted.

use deskpilot_core::app::AppInfo;
use deskpilot_core::{Code, Error, Selector};
use serde::Serialize;

use crate::format::{AppPack, MainWindow};
use crate::named::{self, Named};

/// At most this many selectors are tried for one control (its own times its `within`'s).
const MAX_CANDIDATES: usize = 16;

/// A control named in a selector, as it was resolved.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Resolved {
    /// `@pack/control`.
    pub control: String,
    /// The selector used.
    pub selector: String,
    /// Which of the control's own selectors it is (1 is the first).
    pub candidate: usize,
    /// Whether it found anything (when none did, the first is used, and the caller says
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

/// A selector text with its controls resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The text with each name replaced by the selector chosen for it.
    pub text: String,
    /// The names, in the order the text gives them.
    pub controls: Vec<Resolved>,
}

impl Resolution {
    /// Whether every control named was found.
    pub fn all_found(&self) -> bool {
        self.controls.iter().all(|c| c.found)
    }
}

/// `text` with every control it names resolved in `session`; `lookup` gives a pack by id.
pub async fn resolve<'a>(
    session: &deskpilot_core::Session<'_>,
    lookup: impl Fn(&str) -> Option<&'a AppPack>,
    text: &str,
) -> Result<Resolution, Error> {
    let names = named::named(text);
    let mut controls = Vec::new();
    for n in &names {
        let pack = pack_of(&lookup, n)?;
        let app = session.info()?.app;
        if !recognises(&pack.profile.main_window, &app) {
            return Err(mismatch(&pack.manifest.id, &app.name));
        }
        controls.push(first_found(session, pack, n.control).await);
    }
    let mut chosen = controls.iter();
    let text = named::replace(text, |_| {
        chosen
            .next()
            .map(|r| r.selector.clone())
            .unwrap_or_default()
    });
    Ok(Resolution { text, controls })
}

/// The first of `control`'s selectors that finds something in `session` (the first when
/// none does).
async fn first_found(
    session: &deskpilot_core::Session<'_>,
    pack: &AppPack,
    control: &str,
) -> Resolved {
    let candidates = candidates(pack, control, 0);
    let mut chosen = None;
    for (own, selector) in &candidates {
        let Ok(parsed) = Selector::parse(selector) else {
            continue;
        };
        let hits = session.find(&parsed, None, 1).await;
        if hits.is_ok_and(|h| h.total > 0) {
            chosen = Some((*own, selector.clone(), true));
            break;
        }
    }
    let (own, selector, found) = chosen.unwrap_or_else(|| {
        let (own, selector) = candidates.first().cloned().unwrap_or_default();
        (own, selector, false)
    });
    Resolved {
        control: format!("@{}/{control}", pack.manifest.id),
        selector,
        candidate: own + 1,
        found,
    }
}

/// The pack a name gives, which has the control (a name outside a workflow gives a pack).
fn pack_of<'a>(
    lookup: &impl Fn(&str) -> Option<&'a AppPack>,
    n: &Named<'_>,
) -> Result<&'a AppPack, Error> {
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
    let pack = lookup(id).ok_or_else(|| unknown(format!("no app pack {id:?}")))?;
    if !pack.controls.controls.contains_key(n.control) {
        return Err(unknown(format!(
            "pack {id:?} has no control {:?}",
            n.control
        )));
    }
    Ok(pack)
}

/// The selectors that may find `control`, in order, each with which of its own it is.
pub fn candidates(pack: &AppPack, control: &str, depth: usize) -> Vec<(usize, String)> {
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

/// Whether `app` is the app `main` describes: every criterion given holds.
pub fn recognises(main: &MainWindow, app: &AppInfo) -> bool {
    let name = app.name.eq_ignore_ascii_case(&main.app);
    let toolkit = main.toolkit.as_ref().is_none_or(|want| {
        let have = app
            .toolkit
            .as_deref()
            .unwrap_or_default()
            .to_ascii_lowercase();
        have.starts_with(&want.to_ascii_lowercase())
    });
    let title = main.title.as_ref().is_none_or(|pattern| {
        deskpilot_core::selector::Regex::new(pattern)
            .is_ok_and(|re| app.windows.iter().any(|w| re.is_match(&w.title)))
    });
    name && toolkit && title
}

/// The failure of pack `id`'s name used on `app`, another app.
pub fn mismatch(id: &str, app: &str) -> Error {
    Error::new(
        Code::PackMismatch,
        format!("the session is on {app:?}, not the app of pack {id:?}"),
        "give a session on the pack's app (`packs {pack}` shows how it is recognised)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::shipped;
    use crate::set::{Sources, load, parsed_app};

    /// A control's own selectors come in order, each inside every selector of its `within`.
    #[test]
    fn candidates_follow_the_pack_order_inside_within() {
        let set = load(&Sources::shipped_only(), parsed_app).expect("the shipped packs load");
        let mut pack = set.app("mousepad").expect("mousepad is shipped").clone();
        let controls = &mut pack.controls.controls;
        let mut dialog = controls["textbox"].clone();
        dialog.selectors = vec!["dialog".into(), "frame".into()];
        controls.insert("dialog".into(), dialog);
        let field = controls.get_mut("textbox").unwrap();
        field.within = Some("dialog".into());
        field.selectors = vec!["textbox".into(), "entry".into()];
        let found: Vec<(usize, String)> = candidates(&pack, "textbox", 0);
        let texts: Vec<(usize, &str)> = found.iter().map(|(n, s)| (*n, s.as_str())).collect();
        assert_eq!(
            texts,
            [
                (0, "dialog >> textbox"),
                (0, "frame >> textbox"),
                (1, "dialog >> entry"),
                (1, "frame >> entry"),
            ]
        );
        assert!(candidates(&pack, "no_such_control", 0).is_empty());
        assert_eq!(shipped().len(), set.packs.len());
    }

    /// Drift is said only when a later selector served, or none did.
    #[test]
    fn a_note_is_given_only_for_drift() {
        let resolved = |candidate, found| Resolved {
            control: "@p/c".into(),
            selector: "button".into(),
            candidate,
            found,
        };
        assert_eq!(resolved(1, true).note(), None);
        assert!(resolved(2, true).note().unwrap().contains("drifted"));
        assert!(
            resolved(1, false)
                .note()
                .unwrap()
                .contains("none of its selectors")
        );
    }
}
