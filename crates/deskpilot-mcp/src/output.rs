//! What the tools return on success (the structured content). Plain types: the MCP contract
//! does not move when the engine's types do. The CLI's `--json` prints the same types, so
//! there is one JSON contract.

use std::collections::BTreeMap;

use deskpilot_core::model::{Node, NodeValue, Rect, State};
use deskpilot_core::read::{FindResult, Snapshot, TableRead};
use deskpilot_core::{ListedApp, Match, Wiring, present};
use schemars::JsonSchema;
use serde::Serialize;

#[derive(Debug, Serialize, JsonSchema)]
pub struct Bounds {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl From<Rect> for Bounds {
    fn from(r: Rect) -> Self {
        Bounds {
            x: r.x,
            y: r.y,
            width: r.width,
            height: r.height,
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct WindowOut {
    pub title: String,
    pub role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bounds>,
    /// Known states among active, minimized.
    pub states: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<u64>,
    /// window_id's old name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x11_window: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct AppOut {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toolkit: Option<String>,
    pub windows: Vec<WindowOut>,
    /// False when the app did not answer in time.
    pub responding: bool,
    /// deskpilot cannot see inside it: its tree is (nearly) empty, or it is not on the
    /// accessibility bus at all.
    pub blind: bool,
    /// How to make a blind app visible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl From<&ListedApp> for AppOut {
    fn from(app: &ListedApp) -> Self {
        AppOut {
            name: app.name.clone(),
            pid: app.pid,
            toolkit: app.toolkit.clone(),
            windows: app
                .windows
                .iter()
                .map(|w| WindowOut {
                    title: w.title.clone(),
                    role: w.role.name().to_owned(),
                    bounds: w.bounds.map(Bounds::from),
                    states: [(State::Active, w.active), (State::Minimized, w.minimized)]
                        .into_iter()
                        .filter(|(_, on)| *on)
                        .map(|(s, _)| s.name().to_owned())
                        .collect(),
                    window_id: w.system_id.map(|id| id.0),
                    x11_window: w.system_id.and_then(|id| u32::try_from(id.0).ok()),
                })
                .collect(),
            responding: app.responding,
            blind: app.blind,
            hint: app.hint.clone(),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ListAppsOut {
    /// One line per app and window (what the text block shows).
    pub text: String,
    pub apps: Vec<AppOut>,
    /// What serves synthetic input and screenshots ("Linux, Wayland wayland-1 (sway)"), or
    /// why nothing does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub devices: Option<String>,
}

impl ListAppsOut {
    /// `apps` as list_apps shows them, after how the desktop was found (if it was) and what
    /// serves input and screenshots on it.
    pub fn new(apps: &[ListedApp], wiring: &Wiring) -> Self {
        let devices = match (&wiring.input, &wiring.name) {
            (Some(_), Some(name)) => Some(format!("input and screenshots: {name}")),
            (None, Some(_)) => Some(format!("no input or screenshots: {}", wiring.missing.why)),
            _ => None,
        };
        let mut text = present::apps(apps);
        if let Some(devices) = &devices {
            text = format!("# {devices}\n{text}");
        }
        if let Some(note) = &wiring.note {
            text = format!("# {note}\n{text}");
        }
        ListAppsOut {
            text,
            apps: apps.iter().map(AppOut::from).collect(),
            devices,
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ConnectOut {
    /// Pass this as `session` to every other tool.
    pub session: String,
    pub app: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toolkit: Option<String>,
    /// The window the session works on, when one was named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
    pub windows: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DisconnectOut {
    pub session: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct TruncatedOut {
    /// nodes, depth, deadline or unreachable.
    pub reason: String,
    /// The first element whose children were not all read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Pass as `cursor` to snapshot to read the rest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SnapshotOut {
    /// The tree, one line per node: `- role "name": value [states] [ref=eN]`.
    pub tree: String,
    /// Nodes read.
    pub nodes: usize,
    /// Lines in `tree`.
    pub shown: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<TruncatedOut>,
    /// The window is minimized: restore it to read its contents.
    pub minimized: bool,
    /// Per-node JSON, only with format "json".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<serde_json::Value>,
    /// This tree's version (a later `since`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
}

impl SnapshotOut {
    /// The snapshot's text page; with `json`, its nodes too.
    pub fn new(snapshot: &Snapshot, json: bool) -> Self {
        SnapshotOut {
            tree: present::snapshot(snapshot).body,
            nodes: snapshot.tree.len(),
            shown: snapshot.rendered.lines,
            truncated: snapshot.truncated.as_ref().map(|t| TruncatedOut {
                reason: t.reason.name().to_owned(),
                at: t.at.clone(),
                cursor: t.cursor.clone(),
            }),
            minimized: snapshot.minimized,
            json: json.then(|| serde_json::to_value(&snapshot.tree).unwrap_or_default()),
            version: snapshot.version(),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ElementOut {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: String,
    pub name: String,
    /// Not shown (absent when shown).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub hidden: bool,
}

impl From<&Match> for ElementOut {
    fn from(m: &Match) -> Self {
        ElementOut {
            reference: m.reference.clone(),
            role: m.role.name().to_owned(),
            name: m.name.clone(),
            hidden: !m.visible,
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct FindOut {
    /// One line per match, exact matches first.
    pub text: String,
    pub matches: Vec<ElementOut>,
    /// All matches, before `limit`.
    pub total: usize,
    /// How many are visible (listed first).
    pub visible: usize,
    /// Matches whose name/value matched exactly.
    pub exact: usize,
    /// Containers that could not be searched, and why.
    pub unsearched: Vec<String>,
}

impl FindOut {
    pub fn new(found: &FindResult) -> Self {
        FindOut {
            text: present::find(found),
            matches: found.matches.iter().map(ElementOut::from).collect(),
            total: found.total,
            visible: found.visible,
            exact: found.exact,
            unsearched: present::unsearched_lines(found),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct PropertiesOut {
    #[serde(rename = "ref")]
    pub reference: String,
    pub role: String,
    /// The platform's own role when `role` is unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_role: Option<String>,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_name: Option<String>,
    /// Inferred from a label beside it (it has no name): `[label=...]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inferred_label: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Text, a number, or "[redacted N chars]" for a password.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// States known to be on.
    pub states: Vec<String>,
    /// States the toolkit does not report (neither on nor off).
    pub unknown_states: Vec<String>,
    pub actions: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_action: Option<String>,
    pub capabilities: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub platform_interfaces: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bounds>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accessible_id: Option<String>,
    pub attributes: BTreeMap<String, String>,
    pub child_count: u32,
}

impl PropertiesOut {
    pub fn new(reference: String, node: &Node) -> Self {
        PropertiesOut {
            reference,
            role: node.role.name().to_owned(),
            raw_role: node.raw_role.clone(),
            name: node.display_name().to_owned(),
            raw_name: node.raw_name.clone(),
            inferred_label: node.label.clone(),
            description: node.description.clone(),
            value: node.value.as_ref().map(value_text),
            states: node.states.iter_on().map(|s| s.name().to_owned()).collect(),
            unknown_states: node
                .states
                .iter_unknown()
                .map(|s| s.name().to_owned())
                .collect(),
            actions: node.actions.clone(),
            default_action: node.default_action.clone(),
            capabilities: node
                .capabilities
                .iter()
                .map(|c| c.name().to_owned())
                .collect(),
            platform_interfaces: node.platform_interfaces.clone(),
            bounds: node.bounds.map(Bounds::from),
            accessible_id: node.accessible_id.clone(),
            attributes: node.attributes.clone(),
            child_count: node.child_count,
        }
    }
}

pub fn value_text(value: &NodeValue) -> String {
    match value {
        NodeValue::Text { text } => text.clone(),
        NodeValue::Number { current, .. } => current.to_string(),
        NodeValue::Redacted { chars: Some(n) } => format!("[redacted {n} chars]"),
        NodeValue::Redacted { chars: None } => "[redacted]".into(),
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct HitTestOut {
    pub text: String,
    /// Outermost first; the last is the deepest element at the point.
    pub path: Vec<ElementOut>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct FocusOut {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub focused: Option<ElementOut>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ReadTextOut {
    #[serde(rename = "ref")]
    pub reference: String,
    pub text: String,
    pub start: u32,
    pub end: u32,
    /// The element's whole length in characters.
    pub total: u32,
    /// Pass as `offset` to read on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u32>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ReadTableOut {
    #[serde(rename = "ref")]
    pub reference: String,
    /// The page as text: a header line, then one line per row, cells separated by " | ".
    pub text: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub first_row: u32,
    /// Rows the table says it has (may be far more than exist as objects).
    pub row_count: u32,
    pub column_count: u32,
    /// Pass as `first_row` to read on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_row: Option<u32>,
}

impl ReadTableOut {
    pub fn new(read: TableRead) -> Self {
        ReadTableOut {
            text: present::table(&read),
            reference: read.reference,
            headers: read.slice.headers,
            rows: read.slice.rows,
            first_row: read.slice.first_row,
            row_count: read.slice.row_count,
            column_count: read.slice.column_count,
            next_row: read.next_row,
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct WaitForOut {
    pub text: String,
    /// The element that met the condition (none when waiting for a disappearance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<ElementOut>,
    pub elapsed_ms: u64,
    /// Reads of the app made (the first one included).
    pub looks: u32,
    /// Whether the app's events were watched (else only the fallback poll woke the wait).
    pub events_watched: bool,
    /// Looks made because the app sent an event.
    pub woken_by_events: u32,
    /// Looks made because the fallback poll (100 ms) came first.
    pub woken_by_poll: u32,
}

/// What an action did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ActionOut {
    pub verb: String,
    #[serde(rename = "ref")]
    pub reference: String,
    /// semantic, keyboard or pointer (none when nothing had to be done).
    pub route: Option<String>,
    /// What exactly was sent.
    pub how: Option<String>,
    /// Rungs not taken or without effect: "keyboard: why".
    pub skipped: Vec<String>,
    /// confirmed (read back), unverified (sent, no cheap way to check), noop (nothing changed).
    pub effect: String,
    pub changes: Vec<String>,
    pub foreground_changed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The tree after the action: the changes since the session last saw it (`-`/`+` lines),
    /// or the whole tree the first time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
    /// What it did beside the element: raised_window, pointer_moved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub interaction: Vec<String>,
}

impl From<&deskpilot_core::ActionReport> for ActionOut {
    fn from(report: &deskpilot_core::ActionReport) -> Self {
        use deskpilot_core::act::{effect_name, rung_name};
        ActionOut {
            verb: report.verb.to_owned(),
            reference: report.reference.clone(),
            route: report.route.as_ref().map(|r| rung_name(r.rung).to_owned()),
            how: report.route.as_ref().map(|r| r.how.clone()),
            skipped: report
                .skipped
                .iter()
                .map(|s| format!("{}: {}", rung_name(s.rung), s.why))
                .collect(),
            effect: effect_name(report.effect).to_owned(),
            changes: report.changes.clone(),
            foreground_changed: report.foreground_changed,
            note: report.note.clone(),
            tree: report.tree.as_ref().map(present::tree_update),
            interaction: report
                .interaction
                .names()
                .into_iter()
                .map(str::to_owned)
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct LaunchOut {
    /// The process started.
    pub spawned_pid: u32,
    /// The registered app's pid (may be a child's): connect to it.
    pub pid: Option<u32>,
    pub name: String,
    /// Window titles.
    pub windows: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ScreenshotOut {
    pub width: u32,
    pub height: u32,
    /// The screen rectangle captured.
    pub region: Bounds,
    /// Image pixels per screen pixel.
    pub scale: f64,
    /// How many refs are labelled on it.
    pub labels: usize,
    /// For a window: `clear`, `shown` (another window covers part of it and shows in the
    /// image) or `redrawn` (the window drew its own content); absent when unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cover: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}
