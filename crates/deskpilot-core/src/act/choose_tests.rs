//! Choosing an option, on combo boxes built by hand as each toolkit shows them.

use super::*;
use crate::act::observe::Observation;
use crate::act::policy::{Next, Start, Verdict, judge, met, start};
use crate::model::ElementId;
use crate::platform::NativeRoute;

fn node(path: &str, role: Role, name: &str) -> Node {
    let mut n = Node::new(ElementId::new(":1.1", path), role);
    n.name = name.to_owned();
    n
}

/// A combo box over a menu of `names` (the first selected when `selected` says so).
fn combo(name: &str, names: &[&str], selected: Option<usize>) -> Tree {
    let mut tree = Tree::default();
    tree.push(node("/c", Role::ComboBox, name), None);
    let mut menu = node("/m", Role::Menu, "");
    menu.capabilities.insert(Capability::SelectableChildren);
    tree.push(menu, Some(0));
    for (i, option) in names.iter().enumerate() {
        let mut item = node(&format!("/o{i}"), Role::MenuItem, option);
        item.states.set(State::Selected, selected == Some(i));
        item.actions = vec!["select".into()];
        tree.push(item, Some(1));
    }
    tree
}

/// A backend whose semantic routes are every interface and action a node has.
struct Everything;

impl NativeRoutes for Everything {
    fn native_route(&self, node: &Node, op: &NativeOp) -> std::result::Result<NativeRoute, String> {
        let ok = |how: &str| {
            Ok(NativeRoute {
                op: op.clone(),
                how: how.to_owned(),
            })
        };
        match op {
            NativeOp::ChooseAt(_) if node.capabilities.contains(Capability::SelectableChildren) => {
                ok("choose at")
            }
            NativeOp::Select => ok("Select"),
            NativeOp::Choose if !node.actions.is_empty() => ok("action"),
            _ => Err("no".into()),
        }
    }

    fn edit_keys(&self) -> deskpilot_platform::EditKeys {
        deskpilot_platform::EditKeys::ctrl()
    }
}

/// A web page names its combo box by its label and marks the chosen option; GTK and Qt name it
/// by the option it shows (Qt's list keeps a stale selection); Chromium's text is a
/// placeholder for its child.
#[test]
fn what_a_combo_box_shows() {
    let web = combo("Size", &["Small", "Medium", "Large"], Some(1));
    let options = options_in(&web);
    assert_eq!(options.len(), 3);
    assert_eq!(options[2].index, 2);
    assert_eq!(options[2].container.as_ref().unwrap().role, Role::Menu);
    assert_eq!(shown(&web.nodes[0].node, &options), Some("Medium".into()));
    let qt = combo("Blue", &["Red", "Green", "Blue"], Some(0));
    assert_eq!(
        shown(&qt.nodes[0].node, &options_in(&qt)),
        Some("Blue".into())
    );
    let mut chromium = combo("Size", &["Small"], None);
    chromium.nodes[0].node.value = Some(NodeValue::Text {
        text: "\u{fffc}".into(),
    });
    assert_eq!(shown(&chromium.nodes[0].node, &options_in(&chromium)), None);
    let mut editable = combo("Font", &["Sans"], None);
    editable.nodes[0].node.value = Some(NodeValue::Text {
        text: " Serif ".into(),
    });
    assert_eq!(
        shown(&editable.nodes[0].node, &options_in(&editable)),
        Some("Serif".into())
    );
}

/// By name (exact, else ignoring case and spaces) or by place; a miss lists the options.
#[test]
fn which_option_a_choice_names() {
    let tree = combo("Size", &["Small", "Medium", "Large"], None);
    let options = options_in(&tree);
    let name = |n: &str| Choice::Name(n.into());
    assert_eq!(pick(&options, &name("Large"), "e1").unwrap().index, 2);
    assert_eq!(pick(&options, &name(" large"), "e1").unwrap().index, 2);
    assert_eq!(
        pick(&options, &Choice::Index(1), "e1").unwrap().node.name,
        "Medium"
    );
    let missed = pick(&options, &name("Huge"), "e1 (combobox \"Size\")").unwrap_err();
    assert_eq!(missed.code, Code::NotFound);
    assert!(
        missed.message.contains("\"Small\", \"Medium\", \"Large\""),
        "{}",
        missed.message
    );
    let none = pick(&[], &Choice::Index(4), "e1").unwrap_err();
    assert!(
        none.message.contains("exposes no options"),
        "{}",
        none.message
    );
}

/// The combo box's own selection, the option's own action, its container's selection, then
/// keys that open the list and walk down past the enabled options before it; confirmed by
/// the option shown. Unreadable options (GTK 4) are chosen by place, with nothing to confirm.
#[test]
fn the_ladder_that_chooses_an_option() {
    let mut tree = combo("Size", &["Small", "Medium", "Large"], Some(0));
    tree.nodes[0]
        .node
        .capabilities
        .insert(Capability::SelectableChildren);
    tree.nodes[3].node.states.set(State::Enabled, false);
    let options = options_in(&tree);
    let plan = choice_plan(
        &tree.nodes[0].node,
        &options,
        Some(&options[2]),
        2,
        &Everything,
    );
    let hows: Vec<String> = plan
        .attempts
        .iter()
        .map(|a| match &a.delivery {
            Delivery::NativeOn { route, .. } => route.how.clone(),
            Delivery::Keys(keys) => format!("{} keys", keys.len()),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        hows,
        [
            "choose at on the combo box",
            "action on the option",
            "Select on the option",
            // Open, Home, one Down (Medium is disabled), Enter.
            "4 keys"
        ]
    );
    assert_eq!(plan.expect, Expect::Shown("Large".into()));
    let unread = choice_plan(&tree.nodes[0].node, &[], None, 1, &Everything);
    assert_eq!(unread.attempts.len(), 2);
    assert_eq!(unread.expect, Expect::AnyChange);
}

/// A combo box showing the option asked for confirms it, and sends nothing when it showed it
/// before; showing another one is a wrong effect, never tried again on top.
#[test]
fn a_chosen_option_is_confirmed_by_what_the_combo_box_shows() {
    let combo = |shown: &str| Observation {
        target: Some(Node::new(ElementId::new(":1.a", "/c"), Role::ComboBox)),
        windows: Vec::new(),
        active: None,
        showing_items: None,
        shown: Some(shown.into()),
        announced: Vec::new(),
    };
    let action = crate::act::Action::SelectOption(Choice::Name("Large".into()));
    let large = Expect::Shown("Large".into());
    assert!(matches!(
        start(&action, large.clone(), None, &combo("Large")),
        Start::NothingToDo { .. }
    ));
    let Start::Send(judging) = start(&action, large.clone(), None, &combo("Small")) else {
        panic!("nothing to send");
    };
    assert!(met(&large, &combo("Large")));
    let wrong = Verdict::Missed {
        after: combo("Medium"),
        quiet: false,
    };
    let next = judge(&action, &judging, &combo("Small"), &wrong, "e1", "keys");
    assert!(
        matches!(&next, Next::Fail(e) if e.code == Code::UnexpectedEffect),
        "{next:?}"
    );
    let unchanged = Verdict::Missed {
        after: combo("Small"),
        quiet: false,
    };
    let next = judge(&action, &judging, &combo("Small"), &unchanged, "e1", "keys");
    assert!(matches!(next, Next::TryAnother { .. }), "{next:?}");
}
