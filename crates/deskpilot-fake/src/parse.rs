//! The text format of fake apps.

use deskpilot_platform::model::{ElementId, Node, NodeValue, Role, State, StateSet};

use crate::{FakeApp, FakeNode};

/// Parses an app; `bus` becomes the app part of every element id.
pub fn parse_app(text: &str, bus: &str) -> Result<FakeApp, String> {
    let mut stack: Vec<(usize, FakeNode)> = Vec::new();
    let mut roots: Vec<FakeNode> = Vec::new();
    let mut pid = None;
    let mut toolkit = None;
    let mut denied = false;
    let mut counter = 0;
    let lines = text.lines().filter(|l| !l.trim().is_empty());
    let base_indent = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .map_or(0, |l| l.len() - l.trim_start().len());
    for line in lines {
        let indent = (line.len() - line.trim_start().len()).saturating_sub(base_indent);
        if indent % 2 != 0 {
            return Err(format!("odd indentation: {line:?}"));
        }
        let depth = indent / 2;
        counter += 1;
        let (node, extra) = parse_line(line.trim(), bus, counter)?;
        if let Some(p) = extra.pid {
            pid = Some(p);
        }
        denied |= extra.denied;
        if extra.toolkit.is_some() {
            toolkit = extra.toolkit.clone();
        }
        while stack.last().is_some_and(|(d, _)| *d >= depth) {
            let (_, done) = stack.pop().unwrap();
            attach(&mut stack, &mut roots, done);
        }
        if depth != stack.len() {
            return Err(format!("line is indented too deep: {line:?}"));
        }
        stack.push((
            depth,
            FakeNode {
                node,
                children: Vec::new(),
                inert: extra.inert,
                deaf: extra.deaf,
                garbles: extra.garbles,
                declines: extra.declines,
                owner: extra.owner,
                lags: extra.lags,
                orphan: extra.orphan,
                vanishes: extra.vanishes,
                count_unknown: extra.count_unknown,
                modal: extra.modal,
            },
        ));
    }
    while let Some((_, done)) = stack.pop() {
        attach(&mut stack, &mut roots, done);
    }
    let mut root = match roots.len() {
        1 => roots.pop().unwrap(),
        n => return Err(format!("expected one root, found {n}")),
    };
    fix_counts(&mut root);
    Ok(FakeApp {
        root,
        pid,
        toolkit,
        frozen: false,
        busy_when_listed: false,
        denied,
    })
}

fn attach(stack: &mut [(usize, FakeNode)], roots: &mut Vec<FakeNode>, node: FakeNode) {
    match stack.last_mut() {
        Some((_, parent)) => parent.children.push(node),
        None => roots.push(node),
    }
}

/// A node's child count is its number of children unless `children=` said otherwise.
fn fix_counts(node: &mut FakeNode) {
    if node.node.child_count == u32::MAX {
        node.node.child_count = node.children.len() as u32;
    }
    for child in &mut node.children {
        fix_counts(child);
    }
}

#[derive(Default)]
struct Extra {
    pid: Option<u32>,
    toolkit: Option<String>,
    inert: bool,
    deaf: bool,
    garbles: bool,
    declines: bool,
    orphan: bool,
    vanishes: bool,
    denied: bool,
    count_unknown: bool,
    modal: bool,
    owner: Option<usize>,
    lags: bool,
}

fn parse_line(line: &str, bus: &str, counter: usize) -> Result<(Node, Extra), String> {
    let (role_name, mut rest) = line.split_once(' ').unwrap_or((line, ""));
    let role = Role::from_name(role_name).ok_or_else(|| format!("unknown role {role_name:?}"))?;
    let mut name = String::new();
    rest = rest.trim_start();
    if let Some(body) = rest.strip_prefix('"') {
        let end = body
            .find('"')
            .ok_or_else(|| format!("unterminated name in {line:?}"))?;
        name = body[..end].to_owned();
        rest = body[end + 1..].trim_start();
    }
    let mut node = Node::new(ElementId::new(bus, format!("/n{counter}")), role);
    node.name = name;
    node.child_count = u32::MAX;
    let mut on = vec![State::Enabled, State::Showing, State::Visible];
    let mut extra = Extra::default();
    for token in rest.split_whitespace() {
        if let Some(state) = token.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            if let Some(off) = state.strip_prefix('!') {
                let s = State::from_name(off).ok_or_else(|| format!("unknown state {off:?}"))?;
                on.retain(|x| *x != s);
            } else {
                on.push(State::from_name(state).ok_or_else(|| format!("unknown state {state:?}"))?);
            }
            continue;
        }
        let flag = match token {
            // Accepts semantic requests and does nothing (a provider that lies).
            "inert" => Some(&mut extra.inert),
            // Ignores synthetic input as well.
            "deaf" => Some(&mut extra.deaf),
            // Native operations fail, the error naming the operation.
            "declines" => Some(&mut extra.declines),
            // Walks report its checked state one change behind.
            "lags" => Some(&mut extra.lags),
            // Typed text arrives without its last character.
            "garbles" => Some(&mut extra.garbles),
            // Its window cannot be found from it.
            "orphan" => Some(&mut extra.orphan),
            // Its operations run in a modal loop: they take effect, and the call answers late.
            "modal" => Some(&mut extra.modal),
            // The app runs elevated: everything but its window list is denied.
            "denied" => Some(&mut extra.denied),
            // Re-created after each walk that reads it (a new UIA RuntimeId).
            "vanishes" => Some(&mut extra.vanishes),
            _ => None,
        };
        if let Some(flag) = flag {
            *flag = true;
            continue;
        }
        let (key, value) = token
            .split_once('=')
            .ok_or_else(|| format!("expected [state] or key=value, got {token:?}"))?;
        match key {
            "id" => node.accessible_id = Some(value.to_owned()),
            // An id a bulk read leaves unread (like AT-SPI's cache): snapshots show it unread,
            // single reads and `accessible_ids` give it.
            "lazy_id" => {
                node.accessible_id = Some(value.to_owned());
                node.accessible_id_unread = true;
            }
            "path" => node.id.object = value.to_owned(),
            "value" => {
                node.value = Some(NodeValue::Text {
                    text: value.to_owned(),
                })
            }
            "actions" => {
                node.actions = value.split(',').map(str::to_owned).collect();
                node.default_action = node.actions.first().cloned();
            }
            // The fake imitates an AT-SPI toolkit: its interfaces by AT-SPI's names.
            "interfaces" => {
                for name in value.split(',') {
                    let capability = deskpilot_platform::model::Capability::ALL
                        .iter()
                        .find(|c| c.alias() == name)
                        .ok_or_else(|| format!("unknown interface {name:?}"))?;
                    node.capabilities.insert(*capability);
                }
            }
            "range" => {
                let v: Vec<f64> = value
                    .split(',')
                    .map(|n| n.parse().map_err(|_| format!("bad range {value}")))
                    .collect::<Result<_, _>>()?;
                let [current, min, max] = v[..] else {
                    return Err(format!("range needs current,min,max: {value}"));
                };
                node.value = Some(NodeValue::Number {
                    current,
                    min: Some(min),
                    max: Some(max),
                    step: Some(1.0),
                });
            }
            // `?`: the container cannot say how many (a virtualized UIA list); it reports
            // the children it realized.
            "children" if value == "?" => extra.count_unknown = true,
            "children" => {
                node.child_count = value.parse().map_err(|_| format!("bad count {value}"))?
            }
            "pid" => extra.pid = Some(value.parse().map_err(|_| format!("bad pid {value}"))?),
            "toolkit" => extra.toolkit = Some(value.to_owned()),
            // A window transient for the app's window at this index (a dialog's owner).
            "owner" => extra.owner = Some(value.parse().map_err(|_| format!("bad owner {value}"))?),
            "bounds" => {
                let v: Vec<i32> = value
                    .split(',')
                    .map(|n| n.parse().map_err(|_| format!("bad bounds {value}")))
                    .collect::<Result<_, _>>()?;
                let [x, y, w, h] = v[..] else {
                    return Err(format!("bounds need x,y,w,h: {value}"));
                };
                node.bounds = Some(deskpilot_platform::model::Rect::new(x, y, w, h));
            }
            other => return Err(format!("unknown key {other:?}")),
        }
    }
    if role == Role::Password {
        node.value = Some(NodeValue::Redacted { chars: Some(0) });
    }
    node.states = StateSet::all_known(on);
    Ok((node, extra))
}
