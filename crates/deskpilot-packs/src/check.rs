//! What a schema cannot say of the app's part of a pack. Names refer to controls, pages and
//! groups that exist; `within` has no cycle; selectors and the title's pattern parse.

use std::collections::BTreeMap;

use deskpilot_core::Selector;

use crate::format::{AppPack, Control};
use crate::report::{Notes, Report};

/// What `place`'s `pack` gets wrong in its app files beyond their schemas.
pub fn check_app(place: &str, pack: &AppPack) -> Report {
    let mut report = Report::default();
    for (file, each) in [
        ("controls.json", controls as fn(&AppPack, &mut Notes<'_>)),
        ("pages.json", pages),
        ("profile.json", profile),
    ] {
        let mut notes = Notes {
            pack: place,
            file,
            report: &mut report,
        };
        each(pack, &mut notes);
    }
    report
}

fn profile(pack: &AppPack, notes: &mut Notes<'_>) {
    if let Some(title) = &pack.profile.main_window.title
        && let Err(e) = deskpilot_core::selector::Regex::new(title)
    {
        notes.error("/main_window/title", "bad_selector", e.message);
    }
}

/// Whether `name` can name a control: letters, digits, `_` and `-`, a letter or `_` first,
/// at most 64 bytes.
pub fn is_name(name: &str) -> bool {
    let chars = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(chars)
}

fn controls(pack: &AppPack, notes: &mut Notes<'_>) {
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

/// The message for a control name that `controls.json` does not have.
pub fn no_control(name: &str) -> String {
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

fn refers_to_pages(pack: &AppPack, at: &str, control: &Control, notes: &mut Notes<'_>) {
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
fn pages(pack: &AppPack, notes: &mut Notes<'_>) {
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
