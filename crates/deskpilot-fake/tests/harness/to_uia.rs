//! A case's app, rewritten in the Windows fake's words (`FakeUia`'s text format): control
//! types and patterns for roles and states. What UIA's fake cannot stand for is left out,
//! and said so: a case's step on it then finds nothing on the Windows rig.

use deskpilot_core::model::{Capability, NodeValue, Rect, Role, State};
use deskpilot_fake::FakeNode;

/// The app in `FakeUia`'s format, and the elements left out with why.
pub struct Rewritten {
    pub text: String,
    pub left_out: Vec<String>,
    pub pid: u32,
    /// Each window's handle, title and bounds.
    pub windows: Vec<(u64, String, Rect)>,
}

pub fn rewrite(app: &str) -> Result<Rewritten, String> {
    let app = deskpilot_fake::parse_app(app, ":1.1")?;
    let pid = app.pid.unwrap_or(1);
    let exe = app.root.node.name.to_lowercase();
    let mut out = Rewritten {
        text: format!("process \"{exe}.exe\" pid={pid} started=1\n"),
        left_out: Vec::new(),
        pid,
        windows: Vec::new(),
    };
    for (index, window) in app.root.children.iter().enumerate() {
        let bounds = window.node.bounds.unwrap_or(Rect::new(0, 0, 800, 600));
        out.windows
            .push((hwnd(index), window.node.name.clone(), bounds));
        element(window, 1, Some(index), &mut out);
    }
    Ok(out)
}

fn element(node: &FakeNode, depth: usize, window: Option<usize>, out: &mut Rewritten) {
    let written = match fault(node) {
        Some(why) => Err(why.to_owned()),
        None => line(node, window),
    };
    let line = match written {
        Ok(line) => line,
        Err(why) => {
            out.left_out.push(format!("{:?} ({why})", node.node.name));
            return;
        }
    };
    out.text.push_str(&"  ".repeat(depth));
    out.text.push_str(&line);
    out.text.push('\n');
    let (headers, rest): (Vec<&FakeNode>, Vec<&FakeNode>) = node
        .children
        .iter()
        .partition(|c| c.node.role == Role::ColumnHeader);
    if !headers.is_empty() {
        // UIA's grid lists its column headers in a Header element.
        out.text
            .push_str(&format!("{}Header \"header\"\n", "  ".repeat(depth + 1)));
        for header in headers {
            element(header, depth + 2, None, out);
        }
    }
    for child in rest {
        element(child, depth + 1, None, out);
    }
}

/// A fault of the AT-SPI fake's that UIA's has no word for.
fn fault(node: &FakeNode) -> Option<&'static str> {
    [
        (node.lags, "lags"),
        (node.garbles, "garbles"),
        (node.orphan, "orphan"),
        (node.declines, "declines"),
        (node.count_unknown, "children=?"),
        (
            node.node.child_count as usize != node.children.len(),
            "reports children it does not have",
        ),
    ]
    .into_iter()
    .find_map(|(set, word)| set.then_some(word))
}

fn line(node: &FakeNode, window: Option<usize>) -> Result<String, String> {
    let n = &node.node;
    let (patterns, default) = patterns(node);
    let mut words = vec![control(n.role)?.to_owned(), quoted(&n.name)];
    if let Some(index) = window {
        words.push(format!("hwnd=0x{:x}", hwnd(index)));
    }
    if !patterns.is_empty() {
        words.push(format!("patterns={}", patterns.join(",")));
    }
    if let Some(default) = default {
        words.push(format!("default={default}"));
    }
    words.extend(values(node));
    words.extend(flags(node).into_iter().map(str::to_owned));
    if let Some(b) = n.bounds {
        words.push(format!("bounds={},{},{},{}", b.x, b.y, b.width, b.height));
    }
    Ok(words.join(" "))
}

/// The handle of the app's window at `index`.
fn hwnd(index: usize) -> u64 {
    0x1000 + index as u64 * 0x100
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\\\""))
}

/// The control type for a role.
fn control(role: Role) -> Result<&'static str, String> {
    Ok(match role {
        Role::Window | Role::Dialog => "Window",
        Role::Button | Role::ToggleButton => "Button",
        Role::Checkbox => "CheckBox",
        Role::Radio => "RadioButton",
        Role::Link => "Hyperlink",
        Role::MenuItem => "MenuItem",
        Role::TextBox | Role::Password => "Edit",
        Role::SpinButton => "Spinner",
        Role::Slider => "Slider",
        Role::Label => "Text",
        Role::List | Role::ListBox => "List",
        Role::ListItem => "ListItem",
        Role::Tree => "Tree",
        Role::MenuBar => "MenuBar",
        Role::Menu => "Menu",
        Role::Table => "DataGrid",
        Role::Row => "DataItem",
        Role::Cell => "Text",
        Role::ColumnHeader => "HeaderItem",
        Role::TreeItem => "TreeItem",
        Role::Group | Role::Section => "Group",
        Role::Generic | Role::ScrollPane => "Pane",
        other => return Err(format!("no control type for role {}", other.name())),
    })
}

/// The patterns by the rules of the fake's UIA flavour (`deskpilot-fake/src/uia.rs`):
/// actions become patterns, the first one's LegacyIAccessible default action, then what
/// the capabilities and states offer, and ScrollItem on every element.
fn patterns(node: &FakeNode) -> (Vec<&'static str>, Option<&'static str>) {
    let n = &node.node;
    if n.role == Role::Window {
        return (vec!["Window"], None);
    }
    let (mut patterns, default) = deskpilot_fake::action_patterns(n);
    let toggles = matches!(n.role, Role::Checkbox | Role::ToggleButton);
    let caps = n.capabilities;
    let in_grid = matches!(n.role, Role::Table | Role::Cell);
    let opens = [State::Expandable, State::Expanded, State::Collapsed];
    let offered = [
        (toggles, "Toggle"),
        (opens.iter().any(|s| n.states.is(*s)), "ExpandCollapse"),
        (n.role == Role::TextBox, "Value"),
        (n.role == Role::Table, "Grid"),
        (n.role == Role::Table, "Table"),
        (n.role == Role::Cell, "GridItem"),
        (caps.contains(Capability::TakesText), "Value"),
        (caps.contains(Capability::Text), "Text"),
        (caps.contains(Capability::Number), "RangeValue"),
        (caps.contains(Capability::SelectableChildren), "Selection"),
        (n.states.is(State::Selectable), "SelectionItem"),
        (default.is_some(), "LegacyIAccessible"),
        (!in_grid, "ScrollItem"),
    ];
    patterns.extend(offered.into_iter().filter_map(|(on, p)| on.then_some(p)));
    let mut seen = Vec::new();
    patterns.retain(|p| {
        let first = !seen.contains(p);
        seen.push(*p);
        first
    });
    (patterns, default)
}

/// `value=`, `toggle=`, `range=`, `expand=`: the node's state in the patterns' words.
fn values(node: &FakeNode) -> Vec<String> {
    let n = &node.node;
    let mut words = Vec::new();
    match &n.value {
        Some(NodeValue::Text { text }) => words.push(format!("value={}", quoted(text))),
        Some(NodeValue::Number {
            current, min, max, ..
        }) => words.push(format!(
            "range={current}:{}:{}:1",
            min.unwrap_or(0.0),
            max.unwrap_or(100.0)
        )),
        _ if n.role == Role::Password => words.push("value=".into()),
        _ => {}
    }
    if let Some(id) = &n.accessible_id {
        words.push(format!("id={}", quoted(id)));
    }
    if n.role == Role::Table {
        let count = |role| node.children.iter().filter(|c| c.node.role == role).count();
        words.push(format!(
            "grid={}:{}",
            count(Role::Row),
            count(Role::ColumnHeader)
        ));
    }
    if matches!(n.role, Role::Checkbox | Role::ToggleButton) {
        let on = n.states.is(State::Checked);
        words.push(format!("toggle={}", if on { "on" } else { "off" }));
    }
    let opens = [State::Expandable, State::Expanded, State::Collapsed];
    if opens.iter().any(|s| n.states.is(*s)) {
        let open = n.states.is(State::Expanded);
        words.push(format!(
            "expand={}",
            if open { "expanded" } else { "collapsed" }
        ));
    }
    words
}

/// States and faults that are flags in UIA's fake.
fn flags(node: &FakeNode) -> Vec<&'static str> {
    let n = &node.node;
    let editable = n.states.is(State::Editable) || n.capabilities.contains(Capability::TakesText);
    [
        (n.role == Role::Password, "password"),
        (n.states.is_not(State::Enabled), "disabled"),
        (n.states.is(State::Focused), "focused"),
        (n.states.is(State::Selected), "selected"),
        (n.states.is(State::Multiselectable), "multiselect"),
        (n.role == Role::TextBox && !editable, "readonly"),
        (node.inert, "inert"),
        (node.vanishes, "gone"),
        (node.modal, "blocks"),
    ]
    .into_iter()
    .filter_map(|(set, flag)| set.then_some(flag))
    .collect()
}
