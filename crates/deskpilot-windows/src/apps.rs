//! Apps on Windows: processes with top-level windows. UIA has no application element: an
//! app is its process (named by its executable or description), its windows the desktop
//! root's children with its pid; what the backend learns of each app is kept in one state,
//! dropped when the process has no window left.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use deskpilot_platform::model::ElementId;
use deskpilot_platform::{AppInfo, WindowId, WindowInfo};

use crate::identity::{app_id, app_root};
use crate::mapping;
use crate::raw::{PatternSet, RawElement, RawProcess};

/// Pattern sets kept per app before the older ones are dropped.
const MAX_PATTERNS: usize = 50_000;

/// What the backend keeps of one app.
pub struct AppState {
    pub process: RawProcess,
    /// The patterns each element was last read with: routes are decided from them.
    pub patterns: HashMap<ElementId, PatternSet>,
}

/// The state of every app seen, by app id.
#[derive(Default)]
pub struct AppStates {
    apps: Mutex<HashMap<String, AppState>>,
}

impl AppStates {
    /// Keeps `process` (a new state when it is new).
    pub fn note_process(&self, process: &RawProcess) {
        let mut apps = self.apps.lock().expect("app states");
        apps.entry(app_id(process)).or_insert_with(|| AppState {
            process: process.clone(),
            patterns: HashMap::new(),
        });
    }

    /// The process kept for `app`.
    pub fn process(&self, app: &str) -> Option<RawProcess> {
        let apps = self.apps.lock().expect("app states");
        apps.get(app).map(|state| state.process.clone())
    }

    /// Notes the patterns `raw` was read with.
    pub fn note_patterns(&self, app: &str, raws: &[&RawElement]) {
        let mut apps = self.apps.lock().expect("app states");
        let Some(state) = apps.get_mut(app) else {
            return;
        };
        if state.patterns.len() > MAX_PATTERNS {
            state.patterns.clear();
        }
        for raw in raws {
            state
                .patterns
                .insert(mapping::node::id_of(raw, app), raw.patterns);
        }
    }

    /// The patterns `id` was last read with.
    pub fn patterns(&self, id: &ElementId) -> Option<PatternSet> {
        let apps = self.apps.lock().expect("app states");
        apps.get(&id.app)?.patterns.get(id).copied()
    }

    /// Drops the state of every app not in `alive`.
    pub fn retain(&self, alive: &HashSet<String>) {
        let mut apps = self.apps.lock().expect("app states");
        apps.retain(|app, _| alive.contains(app));
    }

    /// The apps with a state.
    pub fn apps(&self) -> Vec<String> {
        let apps = self.apps.lock().expect("app states");
        apps.keys().cloned().collect()
    }
}

/// The top-level windows by the process they belong to (a frame's by its content's), each
/// process's in z-order, processes in the order of their first window.
pub fn by_process(top: Vec<RawElement>) -> Vec<(u32, Vec<RawElement>)> {
    let mut out: Vec<(u32, Vec<RawElement>)> = Vec::new();
    for window in top {
        match out.iter_mut().find(|(pid, _)| *pid == window.owner()) {
            Some((_, windows)) => windows.push(window),
            None => out.push((window.owner(), vec![window])),
        }
    }
    out
}

/// An app as listed: its process's name, its toolkit (the windows' `FrameworkId`) and its
/// windows with their window handles.
pub fn app_info(process: &RawProcess, windows: &[RawElement]) -> AppInfo {
    let app = app_id(process);
    let name = process.description.clone().unwrap_or_else(|| {
        let exe = process.exe.as_str();
        exe.strip_suffix(".exe").unwrap_or(exe).to_owned()
    });
    AppInfo {
        id: app_root(process),
        name,
        pid: Some(process.pid),
        toolkit: windows
            .iter()
            .find_map(|w| w.framework.clone().filter(|f| !f.is_empty())),
        toolkit_version: None,
        windows: windows
            .iter()
            .map(|raw| {
                let node = mapping::node::node(raw, &app);
                WindowInfo {
                    id: node.id,
                    role: node.role,
                    title: node.name,
                    bounds: node.bounds,
                    states: node.states,
                    system_id: raw.hwnd.map(WindowId),
                    transient_for: None,
                }
            })
            .collect(),
        responding: true,
    }
}

/// The node standing for an app's root: an application whose children are its windows.
pub fn app_node(info: &AppInfo) -> deskpilot_platform::model::Node {
    let mut node = deskpilot_platform::model::Node::new(
        info.id.clone(),
        deskpilot_platform::model::Role::Application,
    );
    node.name = info.name.clone();
    node.child_count = info.windows.len() as u32;
    if let Some(toolkit) = &info.toolkit {
        node.attributes.insert("framework".into(), toolkit.clone());
    }
    node
}
