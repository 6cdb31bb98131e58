//! Choosing an option of a combo box (`select_option`): its options read from its subtree,
//! the one it shows, and the ladder that makes another one shown. A web `<select>`, a GTK or
//! Qt combo box: the options sit under a menu or list child, hidden while it is closed.

use super::action::{Choice, NativeOp};
use super::plan::{Attempt, Delivery, Expect, KeyInput, Plan};
use super::report::{Rung, Skipped};
use crate::error::{Code, Error, Result};
use crate::escape::quoted;
use crate::model::{Capability, Node, NodeValue, Role, State, Tree};
use crate::platform::NativeRoutes;
use deskpilot_platform::{Chord, Key, Modifier, NamedKey};

/// Most keys sent to move to an option.
const MAX_STEPS: usize = 100;

/// One option of a combo box.
#[derive(Debug, Clone, PartialEq)]
pub struct ComboOption {
    pub node: Node,
    /// Its place among the options, from 0.
    pub index: u32,
    /// Its place among its container's children, separators counted (what a combo box's
    /// own selection counts).
    pub child_index: u32,
    /// Its container (the menu or list holding it), when it is not the combo box itself.
    pub container: Option<Node>,
}

/// Whether an element of this role is one of a combo box's options.
pub(crate) fn is_option(role: Role) -> bool {
    matches!(
        role,
        Role::MenuItem | Role::MenuItemRadio | Role::MenuItemCheckbox | Role::ListItem
    )
}

/// The options under a combo box, in order, from its subtree as walked (the combo box first).
pub fn options_in(tree: &Tree) -> Vec<ComboOption> {
    let mut out = Vec::new();
    for (at, entry) in tree.nodes.iter().enumerate().skip(1) {
        let Some(parent) = entry.parent else { continue };
        if !is_option(entry.node.role) {
            continue;
        }
        let siblings = &tree.nodes[parent].children;
        out.push(ComboOption {
            node: entry.node.clone(),
            index: out.len() as u32,
            child_index: siblings.iter().position(|&c| c == at).unwrap_or(0) as u32,
            container: (parent != 0).then(|| tree.nodes[parent].node.clone()),
        });
    }
    out
}

/// What the combo box shows: its name when that is one of the options' (GTK and Qt name a
/// combo box by what it shows; Qt's list keeps a stale selection), else the selected option's
/// name (a web `<select>`, named by its label), else its own text (the object replacement
/// character that stands for a child is no text).
pub fn shown(combo: &Node, options: &[ComboOption]) -> Option<String> {
    if !combo.name.is_empty() && options.iter().any(|o| o.node.name == combo.name) {
        return Some(combo.name.clone());
    }
    if let Some(selected) = options.iter().find(|o| o.node.states.is(State::Selected)) {
        return Some(selected.node.name.clone());
    }
    match &combo.value {
        Some(NodeValue::Text { text }) => {
            let text = text.replace('\u{fffc}', "");
            let text = text.trim();
            (!text.is_empty()).then(|| text.to_owned())
        }
        _ => None,
    }
}

/// The option `choice` names; refused `not_found` with the options there are.
pub fn pick<'a>(
    options: &'a [ComboOption],
    choice: &Choice,
    combo: &str,
) -> Result<&'a ComboOption> {
    let found = match choice {
        Choice::Name(name) => options.iter().find(|o| o.node.name == *name).or_else(|| {
            let wanted = name.trim().to_lowercase();
            options
                .iter()
                .find(|o| o.node.name.trim().to_lowercase() == wanted)
        }),
        Choice::Index(index) => options.get(*index as usize),
    };
    if let Some(option) = found
        && option.node.states.is_not(State::Enabled)
    {
        return Err(Error::new(
            Code::Disabled,
            format!(
                "{combo}'s option {} is disabled",
                quoted(&option.node.name, 100)
            ),
            "choose an enabled option, or do what enables it first",
        ));
    }
    found.ok_or_else(|| {
        let listed: Vec<String> = options
            .iter()
            .take(20)
            .map(|o| quoted(&o.node.name, 60))
            .collect();
        let more = options.len().saturating_sub(listed.len());
        let wanted = match choice {
            Choice::Name(name) => format!("no option {}", quoted(name, 100)),
            Choice::Index(index) => format!("no option at index {index}"),
        };
        let there = if options.is_empty() {
            "it exposes no options to read (give index: the options may still be chosen by their place)".to_owned()
        } else {
            format!(
                "its {} options: {}{}",
                options.len(),
                listed.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            )
        };
        Error::new(
            Code::NotFound,
            format!("{combo} has {wanted}; {there}"),
            "choose one of the options listed (by name, or by index from 0)",
        )
    })
}

fn skip(rung: Rung, why: impl Into<String>) -> Skipped {
    Skipped {
        rung,
        why: why.into(),
    }
}

/// The ladder that makes `chosen` (or, where the options cannot be read, the option at
/// `index`) the one `combo` shows: the combo box's own selection, the option's container's,
/// the option's own action; then keys (open the list, the first option, down to this one,
/// Enter). Confirmed by the option shown, when one can be read.
pub fn choice_plan(
    combo: &Node,
    options: &[ComboOption],
    chosen: Option<&ComboOption>,
    index: u32,
    routes: &dyn NativeRoutes,
) -> Plan {
    let mut attempts = Vec::new();
    let mut skipped = Vec::new();
    let mut semantic_on =
        |element: &Node, op: NativeOp, what: &str| match routes.native_route(element, &op) {
            Ok(mut route) => {
                route.how = format!("{} on {what}", route.how);
                attempts.push(Attempt {
                    rung: Rung::Semantic,
                    delivery: Delivery::NativeOn {
                        element: Box::new(element.clone()),
                        route,
                    },
                })
            }
            Err(why) => skipped.push(skip(Rung::Semantic, format!("{what}: {why}"))),
        };
    // Where the options are the combo box's children, or those of its one menu or list, its
    // own selection counts them there, separators too (GTK's combo boxes).
    let one_container = options.iter().all(|o| o.container == options[0].container);
    let place = chosen.map_or(index, |o| o.child_index);
    if combo.capabilities.contains(Capability::SelectableChildren)
        && (chosen.is_none() || one_container)
    {
        semantic_on(combo, NativeOp::ChooseAt(place), "the combo box");
    }
    if let Some(option) = chosen {
        // The option's own action first: it is what the app does when a person picks it
        // (Chromium's "select" fires the page's `change`).
        semantic_on(&option.node, NativeOp::Choose, "the option");
        if let Some(container) = &option.container
            && container
                .capabilities
                .contains(Capability::SelectableChildren)
        {
            semantic_on(&option.node, NativeOp::Select, "the option");
        }
    }
    // Keys: to the first option, then down past the enabled ones before it.
    let steps = match chosen {
        Some(option) => options
            .iter()
            .take(option.index as usize)
            .filter(|o| !o.node.states.is_not(State::Enabled))
            .count(),
        None => index as usize,
    };
    if steps <= MAX_STEPS {
        let plain = |key: NamedKey| KeyInput::Chord(Chord::plain(Key::Named(key)));
        let mut keys = vec![
            KeyInput::OpenList(Chord {
                modifiers: vec![Modifier::Alt],
                key: Key::Named(NamedKey::Down),
            }),
            plain(NamedKey::Home),
        ];
        keys.extend(std::iter::repeat_n(plain(NamedKey::Down), steps));
        keys.push(plain(NamedKey::Enter));
        attempts.push(Attempt {
            rung: Rung::Keyboard,
            delivery: Delivery::Keys(keys),
        });
    } else {
        skipped.push(skip(
            Rung::Keyboard,
            format!("the option is {steps} keys down the list"),
        ));
    }
    skipped.push(skip(
        Rung::Pointer,
        "the list is opened and walked with keys, not pointed at",
    ));
    let expect = match chosen {
        Some(option) if shown(combo, options).is_some() => Expect::Shown(option.node.name.clone()),
        _ => Expect::AnyChange,
    };
    Plan {
        attempts,
        skipped,
        expect,
        unreadable: None,
    }
}

#[cfg(test)]
#[path = "choose_tests.rs"]
mod tests;
