//! A pack drafted from a running app: its main-window rule, and its actionable controls,
//! menus, input fields and dialogs under logical names, each with the selector core's
//! locator generator gives (`selector::locate`). A draft is data to read and edit; it is
//! never installed by itself.

use std::collections::BTreeMap;

use deskpilot_core::AppInfo;
use deskpilot_core::model::{Role, Tree};
use deskpilot_core::selector::Locating;
use serde_json::Value;

use super::format::{Confidence, Control, Controls, MainWindow, Manifest, Profile, Visibility};

/// A drafted pack's files, and what the probe could not read.
#[derive(Debug, Clone)]
pub struct Draft {
    pub manifest: Manifest,
    pub profile: Profile,
    pub controls: Controls,
    /// Parts of the app the walk did not reach, in words.
    pub unread: Vec<String>,
}

impl Draft {
    /// Its files by name, as JSON.
    pub fn files(&self) -> Vec<(&'static str, Value)> {
        let json = |value: serde_json::Result<Value>| value.unwrap_or_default();
        vec![
            ("manifest.json", json(serde_json::to_value(&self.manifest))),
            ("profile.json", json(serde_json::to_value(&self.profile))),
            ("controls.json", json(serde_json::to_value(&self.controls))),
        ]
    }
}

/// The draft of `app` from `tree` (a snapshot of its window), `cut` when the walk stopped
/// before the end.
pub fn draft(app: &AppInfo, tree: &Tree, cut: Option<String>) -> Draft {
    let mut controls = BTreeMap::new();
    let mut locating = Locating::new(tree);
    for index in 0..tree.len() {
        let node = &tree.nodes[index].node;
        if !wanted(node.role) {
            continue;
        }
        let found = locating.locate(index);
        let confidence = match found.basis.fragile() {
            true => Confidence::Fragile,
            false => Confidence::Drafted,
        };
        let name = unique(
            &mut controls,
            logical_name(node.role.name(), node.display_name()),
        );
        let control = Control {
            selectors: vec![found.selector],
            within: None,
            aliases: Vec::new(),
            page: None,
            group: None,
            confidence,
            description: None,
        };
        controls.insert(name, control);
    }
    let mut unread: Vec<String> = cut.into_iter().collect();
    for pending in &tree.pending {
        let parent = &tree.nodes[pending.parent].node;
        unread.push(format!(
            "children of {} {:?} not read",
            parent.role.name(),
            parent.display_name()
        ));
    }
    Draft {
        manifest: manifest(app),
        profile: Profile {
            launch: None,
            main_window: MainWindow {
                app: Some(app.name.clone()),
                title: None,
                toolkit: app.toolkit.clone(),
            },
            interaction: None,
        },
        controls: Controls { controls },
        unread,
    }
}

/// Controls a person acts on, and the dialogs and menus they are in.
fn wanted(role: Role) -> bool {
    role.is_interactive() || matches!(role, Role::Dialog | Role::Menu | Role::MenuBar)
}

fn manifest(app: &AppInfo) -> Manifest {
    let mut id: String = app
        .name
        .to_lowercase()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if !id.starts_with(|c: char| c.is_ascii_lowercase()) {
        id.insert_str(0, "app-");
    }
    id.truncate(64);
    Manifest {
        id,
        version: "0.1.0".into(),
        name: Some(app.name.clone()),
        description: Some(format!("Drafted by probe_app from {}.", app.name)),
        visibility: Visibility::Listed,
    }
}

/// `role_name` in snake case, from the words of the name (`button_save_as`).
fn logical_name(role: &str, name: &str) -> String {
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(4)
        .map(|w| w.to_lowercase())
        .filter(|w| w.chars().all(|c| c.is_ascii_alphanumeric()))
        .collect();
    let mut logical = role.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
    for word in words {
        logical.push('_');
        logical.push_str(&word);
    }
    logical.truncate(60);
    logical
}

/// `name`, or `name_2`, `name_3`... when it is taken.
fn unique(taken: &mut BTreeMap<String, Control>, name: String) -> String {
    if !taken.contains_key(&name) {
        return name;
    }
    (2..)
        .map(|n| format!("{name}_{n}"))
        .find(|n| !taken.contains_key(n))
        .unwrap_or(name)
}
