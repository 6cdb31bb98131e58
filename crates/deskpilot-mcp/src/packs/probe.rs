//! A pack drafted from a running app: its main-window rule, and its actionable controls,
//! menus, input fields and dialogs under logical names, each with the selector core's
//! locator generator gives (`selector::locate`). A draft is data to read and edit; it is
//! never installed by itself.

use std::collections::BTreeMap;

use deskpilot_core::AppInfo;
use deskpilot_core::error::Result;
use deskpilot_core::model::{Role, Tree};
use deskpilot_core::read::WindowPick;
use deskpilot_core::selector::{Locating, quote};
use deskpilot_core::{Filter, Session, SnapshotRequest};
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

/// One window of the app as a snapshot read it: its tree, and why the walk stopped early.
pub struct Page {
    pub tree: Tree,
    pub cut: Option<String>,
    /// The window's title, for a window other than the main one.
    pub title: Option<String>,
}

/// At most this many windows of an app are drafted (the main one and its dialogs).
pub const MAX_WINDOWS: usize = 8;

/// The draft of `session`'s app: each of its windows read whole (all elements, up to 5,000),
/// the first as the main one.
pub async fn probe(session: &Session<'_>) -> Result<Draft> {
    let app = session.info()?.app;
    let mut pages = Vec::new();
    for (n, window) in app.windows.iter().take(MAX_WINDOWS).enumerate() {
        let request = SnapshotRequest {
            window: Some(WindowPick::Title(window.title.clone())),
            filter: Filter::All,
            max_nodes: 5000,
            ..SnapshotRequest::default()
        };
        let snapshot = session.snapshot(&request).await?;
        let cut = snapshot
            .truncated
            .as_ref()
            .map(|t| format!("{:?}: the walk stopped: {t:?}", window.title));
        let title = (n > 0).then(|| window.title.clone());
        pages.push(Page {
            tree: snapshot.tree,
            cut,
            title,
        });
    }
    Ok(draft(&app, &pages))
}

/// The draft of `app` from its windows' `pages`, the main one first. A control of another
/// window (a dialog) is found within that window, by its role and title.
pub fn draft(app: &AppInfo, pages: &[Page]) -> Draft {
    let mut controls = BTreeMap::new();
    let mut unread = Vec::new();
    for page in pages {
        match &page.title {
            None => drafted(&page.tree, None, &mut controls),
            Some(title) => {
                if let Some(window) = window_of(&page.tree, title) {
                    let scope = window_step(&window);
                    drafted(&window, Some(&scope), &mut controls);
                }
            }
        }
        unread.extend(page.cut.clone());
        unread.extend(unread_parts(&page.tree));
    }
    Draft {
        manifest: manifest(app),
        profile: Profile {
            launch: None,
            main_window: MainWindow {
                app: app.name.clone(),
                title: None,
                toolkit: app.toolkit.clone(),
            },
            interaction: None,
        },
        controls: Controls { controls },
        unread,
    }
}

/// A window's own step: its role and title (a dialog's title names it), or its role.
fn window_step(window: &Tree) -> String {
    let Some(root) = window.root() else {
        return String::new();
    };
    let (role, title) = (root.node.role.name(), root.node.display_name());
    match title.trim().is_empty() {
        true => role.to_owned(),
        false => format!("{role}[name={}]", quote(title)),
    }
}

/// The subtree of the window titled `title` in an app's `tree` (a snapshot of an app session
/// is rooted at the application), as a tree of its own.
fn window_of(tree: &Tree, title: &str) -> Option<Tree> {
    let at = (1..tree.len()).find(|&i| {
        let node = &tree.nodes[i];
        node.depth == 1 && node.node.display_name() == title
    })?;
    let depth = tree.nodes[at].depth;
    let end = (at + 1..tree.len())
        .find(|&i| tree.nodes[i].depth <= depth)
        .unwrap_or(tree.len());
    let mut window = Tree::default();
    let mut placed: BTreeMap<usize, usize> = BTreeMap::new();
    for i in at..end {
        let parent = tree.nodes[i].parent.and_then(|p| placed.get(&p).copied());
        let new = window.push(tree.nodes[i].node.clone(), parent);
        placed.insert(i, new);
    }
    Some(window)
}

/// The wanted controls of `tree` into `controls`, each selector within `scope` if given.
fn drafted(tree: &Tree, scope: Option<&str>, controls: &mut BTreeMap<String, Control>) {
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
        let selector = match (scope, index) {
            (Some(scope), 0) => scope.to_owned(),
            (Some(scope), _) => format!("{scope} >> {}", found.selector),
            (None, _) => found.selector,
        };
        let name = unique(
            controls,
            logical_name(node.role.name(), node.display_name()),
        );
        let control = Control {
            selectors: vec![selector],
            within: None,
            aliases: Vec::new(),
            page: None,
            group: None,
            confidence,
            description: None,
        };
        controls.insert(name, control);
    }
}

/// The parts of `tree` a budget left unread, in words.
fn unread_parts(tree: &Tree) -> Vec<String> {
    tree.pending
        .iter()
        .map(|pending| {
            let parent = &tree.nodes[pending.parent].node;
            format!(
                "children of {} {:?} not read",
                parent.role.name(),
                parent.display_name()
            )
        })
        .collect()
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
        env: Vec::new(),
    }
}

/// `role_name` in snake case, from the words of the name (`button_save_as`).
pub(crate) fn logical_name(role: &str, name: &str) -> String {
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
